/** How a storage element is named as an ALTO PID, and back. */
package io.ferry.altopids;

/** The records tcp-profiles reads from and writes to its clients, as JSON. */
package io.ferry.profiles.api;

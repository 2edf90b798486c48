/** The bearer token a Ferry service presents to the others, added to its REST clients' requests. */
package io.ferry.servicetoken;

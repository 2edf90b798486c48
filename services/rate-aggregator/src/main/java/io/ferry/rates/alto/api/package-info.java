/**
 * The JSON documents of ALTO (RFC 7285): the information resource directory, the network map, cost maps and the
 * error document, with the RFC's field names (hyphenated, so each is named for Jackson).
 */
package io.ferry.rates.alto.api;

/** Grid identity for every Ferry service: who is calling (tokens, X.509 proxies with VOMS) and what it may do. */
package io.ferry.identity;

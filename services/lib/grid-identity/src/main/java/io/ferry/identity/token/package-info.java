/** Bearer-token verification against several trusted issuers (WLCG Common JWT Profile and Ferry's own). */
package io.ferry.identity.token;

/** Who the command calls as: WLCG bearer-token discovery and X.509 proxies for client-certificate HTTPS. */
package io.ferry.cli.auth;

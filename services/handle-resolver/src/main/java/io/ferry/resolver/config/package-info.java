/** The resolver's configuration (ferry.resolver.*). */
package io.ferry.resolver.config;

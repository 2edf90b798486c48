/** The {@code ferry.identity.*} configuration and its translation into the verifiers' settings. */
package io.ferry.identity.config;

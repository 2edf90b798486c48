/** Where the services are: flags, {@code FERRY_*} environment variables, {@code ~/.config/ferry/config.toml}. */
package io.ferry.cli.config;

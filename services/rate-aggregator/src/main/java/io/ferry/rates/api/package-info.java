/** The records rate-aggregator reads from and writes to its clients, as JSON: transfer records and measurements. */
package io.ferry.rates.api;

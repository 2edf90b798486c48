/** JDK HttpClient calls to the four services' REST APIs, problem+json errors and the job event stream. */
package io.ferry.cli.client;

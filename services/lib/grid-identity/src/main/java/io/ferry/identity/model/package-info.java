/** The caller as the services see it, and the reasons a credential is refused. */
package io.ferry.identity.model;

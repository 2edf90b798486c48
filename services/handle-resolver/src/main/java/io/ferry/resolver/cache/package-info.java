/** The resolution cache of public handle views, kept fresh by PostgreSQL's change announcements and filled at start. */
package io.ferry.resolver.cache;

/** Thin REST resources in FTS3's shape, with the request and response records they read and write. */
package io.ferry.scheduler.rest;

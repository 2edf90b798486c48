/** FTS3's configuration routes ({@code /config/se}, {@code /config/links}, {@code /config/shares}) over Ferry's SEs, links and shares. */
package io.ferry.scheduler.fts3.config;

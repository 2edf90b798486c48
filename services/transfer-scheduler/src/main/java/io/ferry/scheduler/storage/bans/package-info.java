/** FTS3's bans of storage elements and DNs ({@code /ban/se}, {@code /ban/dn}): banned SEs' queued files cancelled or held. */
package io.ferry.scheduler.storage.bans;

/**
 * root:// and roots:// for Ferry's movers: a client of the XRootD protocol (version 5) written for Ferry, not a
 * wrapper around xrdcp. {@link io.ferry.movers.xrootd.XrootdAccess} is the {@link io.ferry.movers.StorageAccess} of
 * the XRootD storage (stat with checksums, pipelined reads, windowed writes, mkdir, rm) over logged-in sessions kept
 * between files; {@link io.ferry.movers.xrootd.XrootdThirdPartyCopy} makes one XRootD server pull a file from
 * another. Each class does one part of the protocol: the numbers ({@code XrootdProtocol}), a session
 * ({@code XrootdConnection}, {@code XrootdSecurity}), the pool ({@code XrootdPool}), requests on paths with
 * redirects ({@code XrootdRequests}), an open file ({@code XrootdReadChannel}, {@code XrootdUpload}), and Ferry's
 * error codes ({@code XrootdErrors}).
 */
package io.ferry.movers.xrootd;

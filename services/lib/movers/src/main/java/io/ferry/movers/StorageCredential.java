package io.ferry.movers;

/**
 * A credential a copy presents to one SE instead of the mover's own identity: a bearer token (WLCG token, as Rucio
 * sends per file), a client certificate chain (a user's delegated X.509 proxy) or an S3 account's keys (requests
 * signed with AWS Signature Version 4). Implementations never print
 * their secret: {@code toString()} names only the kind.
 */
public sealed interface StorageCredential permits BearerToken, ClientCertificate, S3Keys {
}

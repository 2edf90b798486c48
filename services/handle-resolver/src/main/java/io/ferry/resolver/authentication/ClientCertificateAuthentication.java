package io.ferry.resolver.authentication;

import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.repository.HandleStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * CNRI's client-side certificate authentication: the certificate's subject names {@code index:handle} (its first
 * UID, else CN, else O, as {@code X509HSTrustManager} reads it; a bare handle is index 0) and its public key is the
 * key of an HS_PUBKEY value of that handle (at that index; index 0: any, the lowest index wins). The TLS handshake
 * proved that the client holds the private key. A certificate that names no handle, or whose key no HS_PUBKEY holds,
 * proves nothing here, so a grid certificate on the same port is left to Ferry's grid identities.
 */
@ApplicationScoped
public class ClientCertificateAuthentication {

    final HandleStore store;

    @Inject
    public ClientCertificateAuthentication(HandleStore store) {
        this.store = store;
    }

    /** The leaf certificate the TLS client presented, or null. */
    public static X509Certificate leaf(SSLSession tls) {
        if (tls == null) {
            return null;
        }
        try {
            Certificate[] peer = tls.getPeerCertificates();
            return peer.length > 0 && peer[0] instanceof X509Certificate x ? x : null;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** The Handle.net identity the certificate proves, or empty. */
    public Uni<Optional<HandleAccess.Caller>> authenticate(X509Certificate cert) {
        String named = identity(cert.getSubjectX500Principal().getName());
        if (named == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        int colon = named.indexOf(':');
        boolean indexed = colon > 0 && named.substring(0, colon).matches("\\d{1,9}");
        int index = indexed ? Integer.parseInt(named.substring(0, colon)) : 0;
        String handle = indexed ? named.substring(colon + 1) : named;
        if (HandleName.parse(handle) == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return store.find(handle).map(found -> found.flatMap(h -> h.values().stream()
                .filter(v -> SessionAuthentication.HS_PUBKEY.equals(v.type()) && (index == 0 || v.index() == index))
                .sorted(Comparator.comparingInt(HandleValue::index))
                .filter(v -> HandlePublicKeys.same(HandlePublicKeys.of(v.data()), cert.getPublicKey()))
                .findFirst().map(v -> HandleAccess.Caller.handleIdentity(v.index(), h.handle()))));
    }

    /** The subject's first UID, else first CN, else first O, in the order RFC 2253 writes them; null without any. */
    static String identity(String rfc2253) {
        List<Rdn> rdns;
        try {
            rdns = new LdapName(rfc2253).getRdns();
        } catch (InvalidNameException e) {
            return null;
        }
        for (String type : List.of("UID", "CN", "O")) {
            // LdapName lists the RDNs from the right; RFC 2253 writes the most specific first
            for (int i = rdns.size() - 1; i >= 0; i--) {
                if (type.equalsIgnoreCase(rdns.get(i).getType()) && rdns.get(i).getValue() instanceof String value) {
                    return value;
                }
            }
        }
        return null;
    }
}

package io.ferry.identity.x509;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * Where the grid trust material is and how strictly to use it.
 *
 * @param trustAnchors CA certificates ({@code <hash>.0}), signing policies / namespaces and CRLs ({@code <hash>.r0}),
 *                     as in {@code /etc/grid-security/certificates}
 * @param vomsdir      VOMS trust: {@code <vo>/<host>.lsc} files or VOMS server certificates, as in
 *                     {@code /etc/grid-security/vomsdir}
 * @param crls         whether a CA's CRL must be present ({@link CrlMode#REQUIRE}), is used when present and valid
 *                     ({@link CrlMode#IF_VALID}) or ignored
 * @param namespaces   whether a CA's signing policy or namespaces file must be present, is used when present, or
 *                     ignored
 * @param refresh      how often both directories are read again (CA updates, new CRLs)
 * @param acceptedVos  the VOs whose attribute certificates are accepted; empty accepts every VO the vomsdir trusts
 * @param cacheFor     how long a verified chain is believed without validating it again (never past the expiry of
 *                     a certificate or attribute certificate in it); zero validates every request
 */
public record TrustSettings(Path trustAnchors, Path vomsdir, CrlMode crls, NamespaceMode namespaces, Duration refresh,
                            Set<String> acceptedVos, Duration cacheFor) {

    public TrustSettings {
        acceptedVos = Set.copyOf(acceptedVos);
    }

    public enum CrlMode { REQUIRE, IF_VALID, IGNORE }

    public enum NamespaceMode { REQUIRE, IF_PRESENT, IGNORE }
}

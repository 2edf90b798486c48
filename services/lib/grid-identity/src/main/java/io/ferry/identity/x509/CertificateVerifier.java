package io.ferry.identity.x509;

import eu.emi.security.authn.x509.CrlCheckingMode;
import eu.emi.security.authn.x509.NamespaceCheckingMode;
import eu.emi.security.authn.x509.ProxySupport;
import eu.emi.security.authn.x509.ValidationError;
import eu.emi.security.authn.x509.ValidationErrorCode;
import eu.emi.security.authn.x509.ValidationResult;
import eu.emi.security.authn.x509.impl.CRLParameters;
import eu.emi.security.authn.x509.impl.OpensslCertChainValidator;
import eu.emi.security.authn.x509.impl.RevocationParametersExt;
import eu.emi.security.authn.x509.impl.ValidatorParams;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.model.AuthMethod;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.model.Refusal;
import io.ferry.identity.model.Refusal.Code;
import org.italiangrid.voms.VOMSAttribute;
import org.italiangrid.voms.VOMSValidators;
import org.italiangrid.voms.ac.VOMSACValidator;
import org.italiangrid.voms.ac.VOMSValidationResult;
import org.italiangrid.voms.error.VOMSValidationErrorMessage;
import org.italiangrid.voms.store.VOMSTrustStores;
import org.italiangrid.voms.util.NullListener;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Verifies a client's certificate chain, an end-entity certificate or a proxy chain (RFC 3820 or legacy Globus)
 * ending in one, against the grid trust anchors with canl, then its VOMS attribute certificates against the
 * vomsdir with voms-api-java, and turns it into a {@link GridCaller}. A chain whose VOMS attributes do not verify
 * is refused rather than accepted without them, so the caller learns why its VO is not seen.
 */
public final class CertificateVerifier implements AutoCloseable {

    /** Checked first to last: the most specific reason a caller can act on comes first. */
    private static final List<ValidationErrorCode> REVOKED = List.of(ValidationErrorCode.certRevoked,
            ValidationErrorCode.ocspCertRevoked);
    private static final List<ValidationErrorCode> UNTRUSTED = List.of(ValidationErrorCode.noTrustAnchorFound,
            ValidationErrorCode.nsDeny, ValidationErrorCode.nsNotAccepted, ValidationErrorCode.nsUndefinedAndRequired,
            ValidationErrorCode.rootKeyIsValidButNotATrustAnchor, ValidationErrorCode.signatureNotVerified);

    /** Beyond this many cached chains, expired entries go; if that is not enough, all of them. */
    private static final int MAX_CACHED = 10_000;

    private final OpensslCertChainValidator chains;
    private final VOMSACValidator voms;
    private final AccessRules rules;
    private final Set<String> acceptedVos;
    private final Duration cacheFor;
    private final Clock clock;
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();
    private final AtomicLong validations = new AtomicLong();

    /** A chain's caller, believed until {@code until}. */
    private record Verified(GridCaller caller, Instant until) {
    }

    public CertificateVerifier(TrustSettings settings, AccessRules rules) {
        this(settings, rules, Clock.systemUTC());
    }

    CertificateVerifier(TrustSettings settings, AccessRules rules, Clock clock) {
        this.rules = rules;
        this.acceptedVos = settings.acceptedVos();
        this.cacheFor = settings.cacheFor();
        this.clock = clock;
        long refreshMillis = settings.refresh().toMillis();
        RevocationParametersExt revocation = new RevocationParametersExt(crlMode(settings.crls()), new CRLParameters());
        this.chains = new OpensslCertChainValidator(settings.trustAnchors().toString(), true,
                namespaceMode(settings.namespaces()), refreshMillis, new ValidatorParams(revocation, ProxySupport.ALLOW), false);
        this.voms = VOMSValidators.newValidator(
                VOMSTrustStores.newTrustStore(List.of(settings.vomsdir().toString()), refreshMillis, NullListener.INSTANCE),
                chains, NullListener.INSTANCE);
    }

    /** The caller a client chain (leaf first, as TLS hands it over) stands for, or a refusal saying why not. */
    public GridCaller verify(X509Certificate[] chain) {
        if (chain == null || chain.length == 0) {
            throw Refusal.of(Code.CERTIFICATE_INVALID, "no client certificate").exception();
        }
        Instant now = clock.instant();
        String key = cacheFor.isZero() ? null : fingerprint(chain);
        Verified cached = key == null ? null : verified.get(key);
        if (cached != null && now.isBefore(cached.until())) {
            return cached.caller();
        }
        Verified fresh = validate(chain, now.plus(cacheFor));
        if (key != null) {
            remember(key, fresh, now);
        }
        return fresh.caller();
    }

    /** Validates {@code chain}: its caller, believed until {@code until} or the first expiry of what it holds. */
    private Verified validate(X509Certificate[] chain, Instant until) {
        validations.incrementAndGet();
        for (X509Certificate c : chain) {
            until = earlier(until, c.getNotAfter().toInstant());
        }
        ValidationResult result;
        try {
            result = chains.validate(chain);
        } catch (RuntimeException e) {
            // canl trips over some forged chains (a CA that copies a trusted CA's name makes its CRL lookup fail)
            // instead of reporting them: whatever it could not validate is not trusted.
            throw Refusal.of(Code.CERTIFICATE_UNTRUSTED, "the chain does not validate against the trust anchors ("
                    + e.getClass().getSimpleName() + ")").exception();
        }
        if (!result.isValid()) {
            throw refusal(result.getErrors(), chain).exception();
        }
        X509Certificate user = ProxyUtils.getEndUserCertificate(chain);
        String dn = GridNames.openssl(user.getSubjectX500Principal());
        List<String> fqans = new ArrayList<>();
        Set<String> vos = new LinkedHashSet<>();
        for (VOMSValidationResult r : voms.validateWithResult(chain)) {
            VOMSAttribute attributes = r.getAttributes();
            if (!r.isValid()) {
                throw Refusal.of(Code.VOMS_INVALID, "the VOMS attributes of VO '" + attributes.getVO()
                        + "' do not verify: " + r.getValidationErrors().stream()
                        .map(VOMSValidationErrorMessage::getMessage).collect(Collectors.joining("; "))).exception();
            }
            if (!acceptedVos.isEmpty() && !acceptedVos.contains(attributes.getVO())) {
                throw Refusal.of(Code.VO_NOT_ACCEPTED, "VO '" + attributes.getVO() + "' is not served here (accepted: "
                        + new TreeSet<>(acceptedVos) + ")").exception();
            }
            vos.add(attributes.getVO());
            fqans.addAll(attributes.getFQANs());
            until = earlier(until, attributes.getNotAfter().toInstant());
        }
        Set<String> roles = new TreeSet<>(rules.rolesForFqans(fqans));
        roles.addAll(rules.rolesForDn(dn));
        return new Verified(new GridCaller(dn, dn, List.copyOf(vos), fqans, Set.of(), roles, AuthMethod.CERTIFICATE,
                GridNames.openssl(user.getIssuerX500Principal()), null), until);
    }

    private void remember(String key, Verified entry, Instant now) {
        if (verified.size() >= MAX_CACHED) {
            verified.values().removeIf(v -> !now.isBefore(v.until()));
            if (verified.size() >= MAX_CACHED) {
                verified.clear();
            }
        }
        verified.put(key, entry);
    }

    /** How many chains were validated rather than found in the cache (for tests of the cache). */
    long validations() {
        return validations.get();
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /** SHA-256 over every certificate of the chain: the same leaf with another chain behind it is another entry. */
    private static String fingerprint(X509Certificate[] chain) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (X509Certificate c : chain) {
                sha256.update(c.getEncoded());
            }
            return HexFormat.of().formatHex(sha256.digest());
        } catch (GeneralSecurityException e) {
            throw Refusal.of(Code.CERTIFICATE_INVALID, "the chain cannot be encoded").exception();
        }
    }

    private static Refusal refusal(List<ValidationError> errors, X509Certificate[] chain) {
        ValidationError first = pick(errors, REVOKED);
        Code code = Code.CERTIFICATE_REVOKED;
        if (first == null) {
            first = pick(errors, List.of(ValidationErrorCode.certificateExpired));
            code = Code.CERTIFICATE_EXPIRED;
        }
        if (first == null) {
            first = pick(errors, List.of(ValidationErrorCode.certificateNotYetValid));
            code = Code.CERTIFICATE_NOT_YET_VALID;
        }
        if (first == null) {
            first = pick(errors, UNTRUSTED);
            code = Code.CERTIFICATE_UNTRUSTED;
        }
        if (first == null) {
            first = errors.isEmpty() ? null : errors.get(0);
            code = Code.CERTIFICATE_INVALID;
        }
        String which = first == null ? "the chain" : describe(first.getPosition(), chain);
        return Refusal.of(code, which + ": " + (first == null ? "not valid" : first.getMessage()));
    }

    private static ValidationError pick(List<ValidationError> errors, List<ValidationErrorCode> codes) {
        return errors.stream().filter(e -> codes.contains(e.getErrorCode())).findFirst().orElse(null);
    }

    private static String describe(int position, X509Certificate[] chain) {
        if (position < 0 || position >= chain.length) {
            return "the chain";
        }
        X509Certificate c = chain[position];
        String kind = ProxyUtils.isProxy(c) ? "proxy" : "certificate";
        return kind + " " + GridNames.openssl(c.getSubjectX500Principal());
    }

    private static CrlCheckingMode crlMode(TrustSettings.CrlMode mode) {
        return switch (mode) {
            case REQUIRE -> CrlCheckingMode.REQUIRE;
            case IF_VALID -> CrlCheckingMode.IF_VALID;
            case IGNORE -> CrlCheckingMode.IGNORE;
        };
    }

    private static NamespaceCheckingMode namespaceMode(TrustSettings.NamespaceMode mode) {
        return switch (mode) {
            case REQUIRE -> NamespaceCheckingMode.EUGRIDPMA_GLOBUS_REQUIRE;
            case IF_PRESENT -> NamespaceCheckingMode.EUGRIDPMA_GLOBUS;
            case IGNORE -> NamespaceCheckingMode.IGNORE;
        };
    }

    @Override
    public void close() {
        voms.shutdown();
        chains.dispose();
    }
}

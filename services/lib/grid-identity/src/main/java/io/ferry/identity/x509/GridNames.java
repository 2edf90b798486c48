package io.ferry.identity.x509;

import eu.emi.security.authn.x509.impl.OpensslNameUtils;

import javax.security.auth.x500.X500Principal;

/** Distinguished names as the grid writes them. */
public final class GridNames {

    private GridNames() {
    }

    /**
     * A DN in OpenSSL's one-line form ({@code /DC=ch/DC=cern/OU=Users/CN=alice}), most significant part first:
     * the form FTS3 reports as {@code user_dn} and VOMS {@code .lsc} files and signing policies use.
     */
    public static String openssl(X500Principal name) {
        return OpensslNameUtils.convertFromRfc2253(name.getName(X500Principal.RFC2253), false);
    }
}

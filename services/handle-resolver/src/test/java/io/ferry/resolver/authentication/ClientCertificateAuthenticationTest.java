package io.ferry.resolver.authentication;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ClientCertificateAuthenticationTest {

    @Test
    void theFirstUidThenCnThenONamesTheIdentity() {
        assertEquals("300:20.500.1/USER01", ClientCertificateAuthentication.identity("UID=300:20.500.1/USER01,CN=someone,O=Org"));
        assertEquals("20.500.1/USER01", ClientCertificateAuthentication.identity("CN=20.500.1/USER01,O=Org"));
        assertEquals("first", ClientCertificateAuthentication.identity("CN=first,CN=second"));
        assertEquals("Org", ClientCertificateAuthentication.identity("O=Org,C=DE"));
        assertEquals("300:10.5072/a,b", ClientCertificateAuthentication.identity("UID=300:10.5072/a\\,b"));
        assertNull(ClientCertificateAuthentication.identity("C=DE"));
    }
}

package io.ferry.movers;

import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Map;

/**
 * The client of a GridSite delegation service (the SOAP web service of GridSite's {@code gridsite-delegation.cgi},
 * dCache's and FTS3's delegation endpoints), the way davix delegates before an HTTP third-party copy with
 * {@code Credential: gridsite}: over HTTPS presenting the delegated proxy itself, {@code getVersion} in the
 * delegation-2 namespace tells which interface the service has (one that does not know it has delegation-1, as
 * davix assumes too); {@code getNewProxyReq} then returns a certificate request and the delegation ID the service
 * chose, the proxy's key signs the request ({@link ProxySigning}), and {@code putProxy} hands the new proxy back under
 * that ID. The service stores it with the key it kept, for the proxy's DN; no private key leaves either side.
 */
final class GridSiteDelegation {

    static final String DELEGATION_1 = "http://www.gridsite.org/namespaces/delegation-1";
    static final String DELEGATION_2 = "http://www.gridsite.org/namespaces/delegation-2";
    private static final int MAX_ANSWER = 256 << 10;

    /** The delegation ID the service stored the proxy under, and the interface version it spoke. */
    record Delegated(String delegationId, int version) {
    }

    private GridSiteDelegation() {
    }

    /**
     * Delegates {@code proxy} to the service at {@code endpoint}; {@code wire} is the mover's, this presents the proxy
     * on it. A service that answers with a SOAP fault (it refuses the proxy, or cannot store it) is
     * {@link MoverException.Code#PERMISSION_DENIED}.
     */
    static Delegated delegate(HttpWire wire, URI endpoint, ClientCertificate proxy) throws IOException, MoverException {
        if (!"https".equalsIgnoreCase(endpoint.getScheme())) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, "transfer",
                    "the delegation endpoint " + endpoint + " is not https: a proxy is delegated over TLS only");
        }
        HttpWire asProxy = wire.presenting(proxy);
        Answer version = call(asProxy, endpoint, DELEGATION_2, "<ns:getVersion/>");
        String ns = version.fault() == null ? DELEGATION_2 : DELEGATION_1;
        Answer request = call(asProxy, endpoint, ns, "<ns:getNewProxyReq/>");
        String csr = request.text("proxyRequest");
        String id = request.text("delegationID");
        if (request.fault() != null || csr == null || id == null) {
            throw refused(endpoint, "getNewProxyReq", request);
        }
        String signed;
        try {
            signed = ProxySigning.pem(ProxySigning.sign(csr, proxy, Instant.now()));
        } catch (GeneralSecurityException e) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, "transfer",
                    "the proxy could not be delegated to " + endpoint + ": " + e.getMessage());
        }
        Answer put = call(asProxy, endpoint, ns, "<ns:putProxy><delegationID>" + escape(id) + "</delegationID><proxy>" + escape(signed)
                + "</proxy></ns:putProxy>");
        if (put.fault() != null) {
            throw refused(endpoint, "putProxy", put);
        }
        return new Delegated(id, ns.equals(DELEGATION_2) ? 2 : 1);
    }

    private static MoverException refused(URI endpoint, String call, Answer answer) {
        return new MoverException(MoverException.Code.PERMISSION_DENIED, "transfer", "the delegation service at " + endpoint + " refused "
                + call + ": " + (answer.fault() != null ? answer.fault() : "HTTP " + answer.status() + " without the expected answer"));
    }

    /** One SOAP call: its answer parsed, a fault's text in {@code fault} (a service answers faults with HTTP 500). */
    private static Answer call(HttpWire wire, URI endpoint, String ns, String operation) throws IOException, MoverException {
        byte[] envelope = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:ns=\"" + ns + "\"><SOAP-ENV:Body>" + operation + "</SOAP-ENV:Body></SOAP-ENV:Envelope>\n").getBytes(StandardCharsets.UTF_8);
        HttpWire.Body body = sink -> sink.write(ByteBuffer.wrap(envelope));
        try (HttpWire.Response r = wire.send("POST", endpoint, Map.of("Content-Type", "text/xml; charset=utf-8", "SOAPAction", "\"\""),
                body, envelope.length)) {
            byte[] answer = readAtMost(r.body, MAX_ANSWER);
            if (r.status == 401 || r.status == 403) {
                throw new MoverException(MoverException.Code.PERMISSION_DENIED, "transfer",
                        "the delegation service at " + endpoint + " refused the proxy with HTTP " + r.status);
            }
            Document doc = parse(answer);
            if (doc == null) {
                return new Answer(r.status, null, r.status >= 300 ? "HTTP " + r.status + " without a SOAP answer" : "an answer that is not SOAP");
            }
            String fault = first(doc, "faultstring");
            return new Answer(r.status, doc, fault != null ? fault : r.status >= 300 ? "HTTP " + r.status : null);
        }
    }

    /** A SOAP answer; {@code fault} is null when the call succeeded. */
    private record Answer(int status, Document doc, String fault) {
        String text(String element) {
            return doc == null ? null : first(doc, element);
        }
    }

    private static String first(Document doc, String localName) {
        NodeList nodes = doc.getElementsByTagNameNS("*", localName);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
    }

    /** A namespace-aware parse that reads no DTD or external entity (the answer comes from an SE). */
    private static Document parse(byte[] xml) {
        try {
            return StorageXml.parse(xml);
        } catch (ParserConfigurationException | SAXException | IOException e) {
            return null;
        }
    }

    private static byte[] readAtMost(InputStream in, int max) throws IOException {
        byte[] all = in.readNBytes(max);
        in.transferTo(java.io.OutputStream.nullOutputStream());
        return all;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

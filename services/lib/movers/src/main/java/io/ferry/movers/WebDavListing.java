package io.ferry.movers;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A WebDAV collection tree listed with {@code PROPFIND} of {@code Depth: 1}, one collection at a time: servers often
 * refuse {@code Depth: infinity}, and a walk Ferry drives is bounded ({@value #MAX_DEPTH} levels,
 * {@value #MAX_ENTRIES} entries; a link loop on the server fails the listing rather than running forever). Each
 * member is named by its {@code href}, decoded; one that is not a direct member of the collection asked is refused.
 */
final class WebDavListing {

    static final int MAX_DEPTH = 64;
    static final int MAX_ENTRIES = 1_000_000;
    /** A multistatus of 10,000 members is a few MB. */
    private static final int MAX_ANSWER_BYTES = 64 << 20;
    private static final String DAV = "DAV:";

    private final HttpWire wire;

    WebDavListing(HttpWire wire) {
        this.wire = wire;
    }

    private record Member(String name, boolean collection, long size) {
    }

    private record Pending(String path, int depth) {
    }

    DirectoryListing.Listing list(URI dir, StorageCredential credential, Predicate<String> keep, int limit) throws MoverException {
        URI top = WebDavSchemes.asHttp(dir);
        if (top.getRawPath() == null || !top.getRawPath().endsWith("/")) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "list", "a WebDAV directory URL ends in /: " + dir);
        }
        List<DirectoryListing.ListedFile> kept = new ArrayList<>();
        long matching = 0;
        long entries = 0;
        Deque<Pending> todo = new ArrayDeque<>();
        todo.add(new Pending("", 0));
        while (!todo.isEmpty()) {
            Pending d = todo.poll();
            for (Member m : members(top.resolve(encoded(d.path())), credential, dir)) {
                if (++entries > MAX_ENTRIES) {
                    throw new MoverException(MoverException.Code.HTTP_ERROR, "list", dir + " has more than " + MAX_ENTRIES + " entries");
                }
                String path = d.path() + m.name();
                if (m.collection()) {
                    if (d.depth() + 1 >= MAX_DEPTH) {
                        throw new MoverException(MoverException.Code.HTTP_ERROR, "list", dir + " is deeper than " + MAX_DEPTH + " levels at " + path);
                    }
                    todo.add(new Pending(path + "/", d.depth() + 1));
                } else if (keep.test(path) && matching++ < limit) {
                    kept.add(new DirectoryListing.ListedFile(path, m.size()));
                }
            }
        }
        return new DirectoryListing.Listing(kept, matching);
    }

    /** The direct members of the collection {@code collection} (an http(s) URL ending in /). */
    private List<Member> members(URI collection, StorageCredential credential, URI dir) throws MoverException {
        Document answer;
        try (HttpWire.Response r = wire.presenting(credential).send("PROPFIND", collection, BearerHeaders.with(Map.of("Depth", "1"), credential))) {
            if (r.status != 207) {
                r.discard();
                HttpMover.check(r.status == 200 ? 501 : r.status, "list", "source " + collection);
            }
            InputStream body = r.body;
            byte[] xml = body.readNBytes(MAX_ANSWER_BYTES);
            if (body.read() >= 0) {
                r.abort();
                throw new MoverException(MoverException.Code.HTTP_ERROR, "list", "the listing of " + collection + " is over " + MAX_ANSWER_BYTES + " bytes");
            }
            answer = StorageXml.parse(xml);
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, "list");
        } catch (SAXException | ParserConfigurationException e) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, "list", collection + " answered no WebDAV multistatus: " + e.getMessage());
        }
        String own = collection.getPath();
        List<Member> out = new ArrayList<>();
        Map<String, Boolean> seen = new HashMap<>();
        NodeList responses = answer.getElementsByTagNameNS(DAV, "response");
        for (int i = 0; i < responses.getLength(); i++) {
            Element r = (Element) responses.item(i);
            String href = text(r, "href");
            if (href == null) {
                continue;
            }
            String path = decodedPath(href.trim(), collection);
            boolean isCollection = r.getElementsByTagNameNS(DAV, "collection").getLength() > 0;
            String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
            if (trimmed.equals(own.endsWith("/") ? own.substring(0, own.length() - 1) : own)) {
                continue;  // the collection itself
            }
            if (!trimmed.startsWith(own) || trimmed.substring(own.length()).isEmpty() || trimmed.substring(own.length()).contains("/")) {
                throw new MoverException(MoverException.Code.HTTP_ERROR, "list", collection + " listed '" + href + "', no member of it");
            }
            String name = trimmed.substring(own.length());
            if (name.equals(".") || name.equals("..") || seen.put(name, true) != null) {
                continue;
            }
            String length = text(r, "getcontentlength");
            long size = -1;
            if (length != null && length.trim().matches("\\d{1,19}")) {
                size = Long.parseLong(length.trim());
            }
            out.add(new Member(name, isCollection, size));
        }
        return out;
    }

    /** The decoded path of an href, a path ({@code /a/b%20c}) or a whole URL; some servers send names unencoded. */
    private static String decodedPath(String href, URI collection) throws MoverException {
        try {
            return collection.resolve(new URI(href)).getPath();
        } catch (URISyntaxException e) {
            if (href.startsWith("/")) {
                return href;
            }
            throw new MoverException(MoverException.Code.HTTP_ERROR, "list", collection + " listed an href that is no URL: '" + href + "'");
        }
    }

    /** {@code path} ({@code a b/c/}) percent-encoded as a relative URI reference. */
    private static String encoded(String path) throws MoverException {
        try {
            // non-ASCII characters too: the wire sends the path as it is
            String raw = new URI(null, null, path, null).toASCIIString();
            return raw.startsWith("/") ? raw.substring(1) : raw.contains(":") && !raw.startsWith("./") ? "./" + raw : raw;
        } catch (URISyntaxException e) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "list", "cannot name '" + path + "' in a URL");
        }
    }

    private static String text(Element parent, String tag) {
        NodeList n = parent.getElementsByTagNameNS(DAV, tag);
        return n.getLength() == 0 ? null : n.item(0).getTextContent();
    }
}

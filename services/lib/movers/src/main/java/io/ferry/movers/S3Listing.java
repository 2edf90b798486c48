package io.ferry.movers;

import io.ferry.storageurl.InvalidStorageUrl;
import io.ferry.storageurl.StorageUrl;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An S3 "directory" listed: every object whose key starts with the directory's prefix, page by page (ListObjectsV2,
 * 1000 keys a page, continuation tokens), the prefix taken off. S3 has no directories: a prefix with no object is
 * not an error to the store, so it is reported as SOURCE_NOT_FOUND here, as a missing directory is elsewhere.
 */
final class S3Listing {

    /** A page of 1000 keys is some 300 KB of XML; a bigger answer is no listing page. */
    private static final int MAX_PAGE_BYTES = 16 << 20;

    private final S3Requests requests;

    S3Listing(S3Requests requests) {
        this.requests = requests;
    }

    DirectoryListing.Listing list(URI dir, StorageCredential credential, Predicate<String> keep, int limit) throws MoverException {
        S3ObjectUrl bucket = bucketOf(dir);
        String prefix = prefixOf(dir);
        List<DirectoryListing.ListedFile> kept = new ArrayList<>();
        long matching = 0;
        String token = null;
        boolean any = false;
        do {
            Map<String, String> query = new LinkedHashMap<>();
            query.put("list-type", "2");
            query.put("prefix", prefix);
            if (token != null) {
                query.put("continuation-token", token);
            }
            Document page = page(bucket, query, credential, dir);
            NodeList contents = page.getElementsByTagName("Contents");
            for (int i = 0; i < contents.getLength(); i++) {
                Element c = (Element) contents.item(i);
                String key = text(c, "Key");
                if (key == null || !key.startsWith(prefix) || key.endsWith("/")) {
                    continue;  // a "folder" marker some tools create is no file
                }
                any = true;
                String path = key.substring(prefix.length());
                checkPath(path, dir);
                if (keep.test(path) && matching++ < limit) {
                    String size = text(c, "Size");
                    kept.add(new DirectoryListing.ListedFile(path, size == null ? -1 : Long.parseLong(size.trim())));
                }
            }
            token = "true".equalsIgnoreCase(text(page.getDocumentElement(), "IsTruncated")) ? text(page.getDocumentElement(), "NextContinuationToken") : null;
        } while (token != null);
        if (!any) {
            throw new MoverException(MoverException.Code.SOURCE_NOT_FOUND, "list", "no object below " + dir);
        }
        return new DirectoryListing.Listing(kept, matching);
    }

    private Document page(S3ObjectUrl bucket, Map<String, String> query, StorageCredential credential, URI dir) throws MoverException {
        try (HttpWire.Response r = requests.send("GET", bucket, query, Map.of(), credential)) {
            S3Errors.check(r, "list", "listing " + dir);
            InputStream body = r.body;
            byte[] xml = body.readNBytes(MAX_PAGE_BYTES);
            if (body.read() >= 0) {
                r.abort();
                throw new MoverException(MoverException.Code.HTTP_ERROR, "list", "a listing page of " + dir + " over " + MAX_PAGE_BYTES + " bytes");
            }
            return StorageXml.parse(xml);
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, "list");
        } catch (SAXException | ParserConfigurationException e) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, "list", "the listing of " + dir + " is no S3 XML: " + e.getMessage());
        }
    }

    private static String text(Element parent, String tag) {
        NodeList n = parent.getElementsByTagName(tag);
        return n.getLength() == 0 ? null : n.item(0).getTextContent();
    }

    /** A key below the prefix that no storage URL can name the same way (an empty, '.' or '..' segment) is refused. */
    private static void checkPath(String path, URI dir) throws MoverException {
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "list",
                        "object '" + path + "' below " + dir + " has a path no storage URL names the same way");
            }
        }
    }

    /** The bucket of {@code s3[s]://host[:port]/bucket/dir/}, as an object URL with an empty key (the bucket's own path). */
    private static S3ObjectUrl bucketOf(URI dir) throws MoverException {
        StorageUrl parsed = parsed(dir);
        return new S3ObjectUrl(parsed.scheme().equals("s3s"), parsed.host(), parsed.port(), parsed.segments().get(0), "");
    }

    private static String prefixOf(URI dir) throws MoverException {
        List<String> segments = parsed(dir).segments();
        return segments.size() == 1 ? "" : String.join("/", segments.subList(1, segments.size())) + "/";
    }

    private static StorageUrl parsed(URI dir) throws MoverException {
        String scheme = dir.getScheme() == null ? "" : dir.getScheme().toLowerCase(Locale.ROOT);
        try {
            StorageUrl parsed = StorageUrl.parse(dir.toString());
            if ((scheme.equals("s3") || scheme.equals("s3s")) && parsed.isDirectory() && !parsed.segments().isEmpty()) {
                return parsed;
            }
        } catch (InvalidStorageUrl e) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "list", "refused " + dir + ": " + e.getMessage());
        }
        throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "list", "an S3 directory is s3[s]://host/bucket/[prefix/]: " + dir);
    }
}

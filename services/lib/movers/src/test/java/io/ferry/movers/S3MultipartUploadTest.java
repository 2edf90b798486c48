package io.ferry.movers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a real store cannot be made to show on demand, against a scripted one (the JDK's HTTP server): parts really
 * travel at once (the first ones are answered only when all of them have arrived), an assembled object whose ETag
 * is not the parts' MD5s is refused, removed and its upload aborted, also when the completion names no ETag and the
 * object's HEAD tells it.
 */
class S3MultipartUploadTest {

    private static final int PART = S3Access.MIN_PART_SIZE;
    private static final int IN_FLIGHT = 3;
    private static final S3Keys KEYS = new S3Keys("AKID", "secret");

    private HttpServer server;
    private final CountDownLatch firstParts = new CountDownLatch(IN_FLIGHT);
    private final AtomicBoolean partsMetInFlight = new AtomicBoolean(true);
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final ConcurrentSkipListMap<Integer, String> partMd5s = new ConcurrentSkipListMap<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private volatile boolean wrongAssembly;
    /** CompleteMultipartUpload answered with an empty {@code <ETag></ETag>}, as Ceph RadosGW 16 answers. */
    private volatile boolean emptyCompleteETag;
    /** Part numbers whose first arrival is dropped: the connection closed with no answer. */
    private final java.util.Set<Integer> dropOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange x) throws IOException {
        String query = x.getRequestURI().getRawQuery() == null ? "" : x.getRequestURI().getRawQuery();
        String method = x.getRequestMethod();
        calls.add(method + " " + query);
        if (x.getRequestHeaders().getFirst("Authorization") == null || !x.getRequestHeaders().getFirst("Authorization").startsWith("AWS4-HMAC-SHA256 ")) {
            answer(x, 403, "<Error><Code>AccessDenied</Code><Message>unsigned</Message></Error>");
            return;
        }
        byte[] body = x.getRequestBody().readAllBytes();
        if (method.equals("POST") && query.equals("uploads=")) {
            answer(x, 200, "<InitiateMultipartUploadResult><UploadId>up-1</UploadId></InitiateMultipartUploadResult>");
        } else if (method.equals("PUT") && query.contains("partNumber=")) {
            int number = Integer.parseInt(query.replaceAll(".*partNumber=(\\d+).*", "$1"));
            if (dropOnce.remove(number)) {
                x.close();  // before any answer: the client sees the connection end
                return;
            }
            // counted from the request's arrival until before its answer leaves: the client may send the next part
            // as soon as it has the answer, before this thread would get further
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            String md5 = md5(body);
            if (!Base64.getEncoder().encodeToString(HexFormat.of().parseHex(md5)).equals(x.getRequestHeaders().getFirst("Content-MD5"))) {
                inFlight.decrementAndGet();
                answer(x, 400, "<Error><Code>BadDigest</Code><Message>Content-MD5 differs</Message></Error>");
                return;
            }
            if (number <= IN_FLIGHT) {
                firstParts.countDown();
                try {
                    if (!firstParts.await(10, TimeUnit.SECONDS)) {
                        partsMetInFlight.set(false);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            partMd5s.put(number, md5);
            x.getResponseHeaders().add("ETag", "\"" + md5 + "\"");
            inFlight.decrementAndGet();
            answer(x, 200, "");
        } else if (method.equals("POST") && query.equals("uploadId=up-1")) {
            answer(x, 200, "<CompleteMultipartUploadResult><ETag>" + (emptyCompleteETag ? "" : "&quot;" + assembledETag() + "&quot;")
                    + "</ETag></CompleteMultipartUploadResult>");
        } else if (method.equals("HEAD")) {
            x.getResponseHeaders().add("ETag", "\"" + assembledETag() + "\"");
            answer(x, 200, null);
        } else if (method.equals("DELETE")) {
            answer(x, 204, null);
        } else {
            answer(x, 400, "<Error><Code>InvalidRequest</Code><Message>" + method + " " + query + "</Message></Error>");
        }
    }

    /** The parts' MD5s' MD5 and their count, or a wrong one with {@link #wrongAssembly}. */
    private String assembledETag() {
        if (wrongAssembly) {
            return "00000000000000000000000000000000-" + partMd5s.size();
        }
        MessageDigest ofParts = S3MultipartUpload.md5();
        partMd5s.values().forEach(m -> ofParts.update(HexFormat.of().parseHex(m)));
        return HexFormat.of().formatHex(ofParts.digest()) + "-" + partMd5s.size();
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, body == null ? -1 : bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            x.getResponseBody().write(bytes);
        }
        x.close();
    }

    private static String md5(byte[] data) {
        return HexFormat.of().formatHex(S3MultipartUpload.md5(data, data.length));
    }

    private S3Access access() {
        return access(64L << 20);
    }

    private static S3Access access(long partMemory) {
        HttpWire wire = new HttpWire(Duration.ofSeconds(5), Duration.ofSeconds(30), StorageTls.of(null));
        return new S3Access(wire, Clock.systemUTC(), PART, IN_FLIGHT, partMemory);
    }

    private URI url() {
        return URI.create("s3://127.0.0.1:" + server.getAddress().getPort() + "/bkt/object.dat");
    }

    private static byte[] data() {
        byte[] data = new byte[5 * PART + 1000];
        new Random(1).nextBytes(data);
        return data;
    }

    @Test
    void partsTravelAtOnceOnTheirOwnConnectionsAndNoMoreThanAllowed() throws Exception {
        byte[] data = data();
        try (StorageAccess.Upload up = access().write(url(), data.length, KEYS, "transfer")) {
            up.write(ByteBuffer.wrap(data));
            up.commit();
        }
        assertTrue(partsMetInFlight.get(), "the first " + IN_FLIGHT + " parts were at the server together");
        assertEquals(IN_FLIGHT, peak.get(), "never more than " + IN_FLIGHT + " parts at once");
        assertEquals(6, partMd5s.size());
        assertFalse(calls.stream().anyMatch(c -> c.startsWith("DELETE")), String.valueOf(calls));
    }

    @Test
    void withoutSparePartMemoryOnePartTravelsAtATime() throws Exception {
        firstParts.countDown();
        firstParts.countDown();
        firstParts.countDown();  // nobody waits for parts to meet: they cannot
        byte[] data = data();
        try (StorageAccess.Upload up = access(PART - 1).write(url(), data.length, KEYS, "transfer")) {
            up.write(ByteBuffer.wrap(data));
            up.commit();
        }
        assertEquals(1, peak.get());
        assertEquals(6, partMd5s.size());
    }

    @Test
    void aPartWhoseConnectionDropsIsSentAgain() throws Exception {
        dropOnce.add(2);
        byte[] data = data();
        try (StorageAccess.Upload up = access().write(url(), data.length, KEYS, "transfer")) {
            up.write(ByteBuffer.wrap(data));
            up.commit();
        }
        assertEquals(2, calls.stream().filter(c -> c.startsWith("PUT partNumber=2&")).count(), String.valueOf(calls));
        assertEquals(6, partMd5s.size());
    }

    @Test
    void anAssembledObjectWhoseETagIsNotThePartsMd5sIsRefusedAndRemoved() throws Exception {
        wrongAssembly = true;
        byte[] data = data();
        StorageAccess.Upload up = access().write(url(), data.length, KEYS, "transfer");
        MoverException e = assertThrows(MoverException.class, () -> {
            up.write(ByteBuffer.wrap(data));
            up.commit();
        });
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, e.code(), e.getMessage());
        assertTrue(calls.contains("DELETE "), "the wrong object was removed: " + calls);
        assertTrue(calls.contains("DELETE uploadId=up-1"), "the upload was aborted: " + calls);
    }

    @Test
    void anEmptyETagInTheCompletionIsCheckedAgainstTheObjectsHead() throws Exception {
        emptyCompleteETag = true;
        byte[] data = data();
        try (StorageAccess.Upload up = access().write(url(), data.length, KEYS, "transfer")) {
            up.write(ByteBuffer.wrap(data));
            up.commit();
        }
        assertTrue(calls.contains("HEAD "), String.valueOf(calls));
        assertFalse(calls.stream().anyMatch(c -> c.startsWith("DELETE")), String.valueOf(calls));

        calls.clear();
        partMd5s.clear();
        wrongAssembly = true;
        StorageAccess.Upload wrong = access().write(url(), data.length, KEYS, "transfer");
        MoverException e = assertThrows(MoverException.class, () -> {
            wrong.write(ByteBuffer.wrap(data));
            wrong.commit();
        });
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, e.code(), e.getMessage());
        assertTrue(calls.contains("DELETE "), "the wrong object was removed: " + calls);
    }
}

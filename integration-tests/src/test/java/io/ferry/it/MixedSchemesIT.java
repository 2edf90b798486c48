package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.S3Server;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.Adler32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One job mixing storage protocols, submitted and watched with the {@code ferry} command against the packaged stack:
 * an S3 store (s3proxy, signed with the account the scheduler's configuration gives its SE), WebDAV (nginx) and two
 * XRootD servers (the second pulls from the first by third-party copy; the first, as a davs:// SE, pushes a file to a
 * pre-signed S3 PUT), every file byte-identical at its destination with its ADLER32 checked end to end, and a VO without
 * rights on the S3 SE refused before anything moves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MixedSchemesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern JOB_ID = Pattern.compile("^([0-9a-f-]{36})\\s", Pattern.MULTILINE);

    private LocalStack stack;
    private NginxWebDav nginx;
    private S3Server s3;
    private XrootdServer rootA;
    private XrootdServer rootB;
    private Path pki;
    private Path work;

    private record Run(int exit, String out, String err) {
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createDirectories(Path.of("target", "it-mixed-work").toAbsolutePath());
        nginx = new NginxWebDav();
        s3 = new S3Server("mix");
        // the S3 account as an operator gives it: a properties file (a mounted Secret) named by QUARKUS_CONFIG_LOCATIONS
        Path accounts = Files.writeString(work.resolve("s3-accounts.properties"),
                "ferry.scheduler.s3.\"MIX-S3\".access-key=" + S3Server.IDENTITY + "\n"
                        + "ferry.scheduler.s3.\"MIX-S3\".secret-key=" + S3Server.CREDENTIAL + "\n");
        pki = Files.createTempDirectory("ferry-it-mixed-pki");
        TestCertificates certificates = TestCertificates.create(pki);
        // roots:// is TLS: the scheduler trusts the test CA as a site trusts the grid's
        stack = ItStacks.start("it-mixed", Map.of("QUARKUS_CONFIG_LOCATIONS", accounts.toUri().toString(),
                "FERRY_SCHEDULER_ENGINE_TLS_CA_CERTIFICATES", certificates.caDirectory().toString()));
        rootA = new XrootdServer(certificates, Map.of(), XrootdServer.Options.plain().withTpc());
        rootB = new XrootdServer(certificates, Map.of(), XrootdServer.Options.plain().withTpc());
        registerSe("MIX-DAV", Map.of("dav", nginx.url("/mix-dav").replaceFirst("^http:", "dav:")), false);
        registerSe("MIX-S3", Map.of("s3", s3.url("/mix")), false);
        registerSe("MIX-ROOT-A", Map.of("root", rootA.rootUrl("root", "/mix-a")), false);
        // the second XRootD server pulls from the first (third-party copy), and streams from the others through Ferry,
        // over root:// and roots:// (TLS)
        registerSe("MIX-ROOT-B", Map.of("root", rootB.rootUrl("root", "/mix-b"), "roots", rootB.rootUrl("roots", "/mix-b")), true);
        // the first XRootD server's HTTPS port as a WebDAV SE that does third-party copy: to S3 it pushes
        registerSe("MIX-XRD-DAV", Map.of("davs", rootA.url("/mix-push").replaceFirst("^https:", "davs:")), true);
        Files.createDirectories(nginx.file("/mix-dav"));
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {stack, nginx, s3, rootA, rootB}) {
            if (c != null) {
                c.close();
            }
        }
        if (pki != null) {
            DirectoryTrees.delete(pki);
        }
    }

    @Test
    void aJobMixingProtocolsMovesEveryFileByteIdentical() throws Exception {
        String dav = nginx.url("/mix-dav").replaceFirst("^http:", "dav:");
        Map<String, byte[]> sources = new LinkedHashMap<>();
        StringBuilder list = new StringBuilder();
        // WebDAV → S3: a small object (one PUT) and one of several parts (multipart, parts in parallel)
        int[] sizes = {1_000_000, 21_000_000};
        for (int i = 0; i < sizes.length; i++) {
            byte[] data = random(sizes[i], i);
            Path file = nginx.file("/mix-dav/in/f" + i);
            Files.createDirectories(file.getParent());
            Files.write(file, data);
            list.append(dav).append("/in/f").append(i).append(' ').append(s3.url("/mix/from-dav/f" + i)).append(' ')
                    .append(data.length).append(' ').append("adler32:").append(adler32(data)).append('\n');
            sources.put("s3:/from-dav/f" + i, data);
        }
        // S3 → WebDAV: objects put there by someone else
        for (int i = 0; i < 2; i++) {
            byte[] data = random(3_000_000 + i, 10 + i);
            Files.createDirectories(s3.bucket("mix").resolve("data"));
            Files.write(s3.bucket("mix").resolve("data/o" + i), data);
            list.append(s3.url("/mix/data/o" + i)).append(' ').append(dav).append("/from-s3/o").append(i).append(' ')
                    .append(data.length).append(' ').append("adler32:").append(adler32(data)).append('\n');
            sources.put("dav:/from-s3/o" + i, data);
        }
        // davs → S3 from a source SE that does third-party copy: it pushes the file to a pre-signed PUT
        byte[] pushed = random(2_000_003, 30);
        Files.createDirectories(rootA.file("/mix-push/in"));
        Files.write(rootA.file("/mix-push/in/p0"), pushed);
        list.append(rootA.url("/mix-push/in/p0").replaceFirst("^https:", "davs:")).append(' ').append(s3.url("/mix/from-xrd/p0")).append(' ')
                .append(pushed.length).append(" adler32:").append(adler32(pushed)).append('\n');
        sources.put("s3:/from-xrd/p0", pushed);
        // XRootD: pulled root → root, and streamed root → WebDAV, WebDAV → root, S3 → root, root → S3, WebDAV → roots
        String rootA0 = rootA.rootUrl("root", "/mix-a");
        String rootB0 = rootB.rootUrl("root", "/mix-b");
        String[][] rootLegs = {
                {"a:/in/r0", rootB0 + "/pulled/r0", "b:/pulled/r0"},
                {"a:/in/r1", dav + "/from-root/r1", "dav:/from-root/r1"},
                {"dav:/in/d2", rootB0 + "/from-dav/d2", "b:/from-dav/d2"},
                {"s3:/data/s3", rootB0 + "/from-s3/s3", "b:/from-s3/s3"},
                {"a:/in/r4", s3.url("/mix/from-root/r4"), "s3:/from-root/r4"},
                {"dav:/in/d5", rootB.rootUrl("roots", "/mix-b") + "/over-tls/d5", "b:/over-tls/d5"}};
        for (int i = 0; i < rootLegs.length; i++) {
            byte[] data = random(2_500_000 + 7 * i, 20 + i);
            String from = rootLegs[i][0];
            String where = from.substring(from.indexOf(':') + 1);
            Path file = from.startsWith("a:") ? rootA.file("/mix-a" + where) : from.startsWith("s3:") ? s3.bucket("mix").resolve(where.substring(1))
                    : nginx.file("/mix-dav" + where);
            Files.createDirectories(file.getParent());
            Files.write(file, data);
            String source = from.startsWith("a:") ? rootA0 + where : from.startsWith("s3:") ? s3.url("/mix" + where) : dav + where;
            list.append(source).append(' ').append(rootLegs[i][1]).append(' ').append(data.length).append(" adler32:").append(adler32(data)).append('\n');
            sources.put(rootLegs[i][2], data);
        }
        Path listFile = Files.writeString(work.resolve("mixed.txt"), list);
        Run submitted = ferry(token("atlas"), "submit", "-f", listFile.toString(), "-K", "both", "--retry", "0");
        assertEquals(0, submitted.exit(), submitted.out() + submitted.err());
        Matcher m = JOB_ID.matcher(submitted.out());
        assertTrue(m.find(), submitted.out());
        Run watched = ferry(token("atlas"), "watch", m.group(1));
        assertEquals(0, watched.exit(), "every file FINISHED:\n" + watched.out() + watched.err() + ferry(token("atlas"), "status", m.group(1), "-o", "json").out());
        for (Map.Entry<String, byte[]> e : sources.entrySet()) {
            String where = e.getKey();
            String path = where.substring(where.indexOf(':') + 1);
            Path copied = where.startsWith("s3:") ? s3.bucket("mix").resolve(path.substring(1))
                    : where.startsWith("b:") ? rootB.file("/mix-b" + path) : nginx.file("/mix-dav" + path);
            assertArrayEquals(e.getValue(), Files.readAllBytes(copied), where);
        }
        // the source server admitted the destination's puller (XRootD's rendezvous): the bytes went server to server
        String log = rootA.log();
        assertTrue(log.matches("(?s).*ofs_TPC: \\S+ granted tpc access by \\S+ to /mix-a/in/r0\n.*"), "the root → root file was pulled:\n" + log);
        assertFalse(log.contains(" to /mix-a/in/r1\n"), "root → WebDAV is streamed: " + log);
        assertTrue(log.contains("event=TRANSFER_SUCCESS, local=/mix-push/in/p0, remote=http://127.0.0.1:" + s3.port + "/mix/from-xrd/p0?"),
                "the davs → S3 file was pushed by its source SE:\n" + log);
    }

    @Test
    void aVoWithoutRightsOnAnSeIsRefusedAtSubmission() throws Exception {
        Run refused = ferry(token("cms"), "submit", s3.url("/mix/data/anything"), nginx.url("/mix-dav/cms/x").replaceFirst("^http:", "dav:"));
        assertEquals(1, refused.exit(), refused.out() + refused.err());
        assertTrue(refused.err().contains("403") || refused.err().toLowerCase().contains("may not"), refused.err());
        Run root = ferry(token("cms"), "submit", rootA.rootUrl("root", "/mix-a/in/r0"), rootB.rootUrl("root", "/mix-b/cms/r0"));
        assertEquals(1, root.exit(), root.out() + root.err());
        assertTrue(root.err().contains("403") || root.err().toLowerCase().contains("may not"), root.err());
        assertFalse(Files.exists(rootB.file("/mix-b/cms/r0")));
    }

    private static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    private static String adler32(byte[] data) {
        Adler32 a = new Adler32();
        a.update(data);
        return String.format("%08x", a.getValue());
    }

    private String token(String vo) {
        return stack.tokens().mint(DevTokens.Claims.of("it-mixed-" + vo, vo, "transfer:submit transfer:read"));
    }

    private void registerSe(String name, Map<String, String> baseUrls, boolean thirdPartyCopy) throws Exception {
        String se = "{\"site\":\"" + name + "-SITE\",\"baseUrls\":" + JSON.writeValueAsString(baseUrls)
                + ",\"thirdPartyCopy\":" + thirdPartyCopy + ",\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}";
        Run put = ferry(stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin")), "se", "put", name, "--json", se);
        assertEquals(0, put.exit(), put.err());
    }

    private Run ferry(String token, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", cliJar().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.startsWith("BEARER_TOKEN") || k.startsWith("X509_") || k.startsWith("FERRY_"));
        Map<String, String> env = new HashMap<>();
        env.put("BEARER_TOKEN", token);
        env.put("FERRY_SCHEDULER_URL", stack.service(ServiceSpec.SCHEDULER).url());
        env.put("FERRY_CONFIG", work.resolve("no-config.toml").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("ferry " + String.join(" ", args) + " did not end within 240 s");
        }
        return new Run(p.exitValue(), out.get(), err.get());
    }

    private static Path cliJar() throws IOException {
        try (Stream<Path> jars = Files.list(LocalStack.projectRoot().resolve("services/cli/target"))) {
            return jars.filter(j -> j.getFileName().toString().matches("ferry-cli-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("services/cli is not packaged"));
        }
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

package io.ferry.bench;

import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The XRootD side of {@link ProtocolBenchmark}: two servers from Debian's packages with third-party copy enabled and
 * adler32 configured, the first the source ({@code /a/…}), the second the destination ({@code /b/…} streamed into,
 * {@code /t/…} pulled into); xrdcp and gfal-copy (its xrootd plugin) as the peers.
 */
final class XrootdStores {

    private XrootdStores() {
    }

    /** Starts the servers (added to {@code servers}, closed by the caller). */
    static List<ProtocolBenchmark.Stores> start(List<AutoCloseable> servers) throws Exception {
        Path pkiDir = Files.createTempDirectory("ferry-bench-xrootd-pki");
        TestCertificates pki = TestCertificates.create(pkiDir);
        XrootdServer source = new XrootdServer(pki, Map.of(), XrootdServer.Options.plain().withTpc());
        servers.add(source);
        XrootdServer destination = new XrootdServer(pki, Map.of(), XrootdServer.Options.plain().withTpc());
        servers.add(destination);
        Function<String, XrootdServer> server = p -> p.startsWith("/a") ? source : destination;
        // /a and /b are the servers' roots; /t a directory of the destination's
        Function<String, String> path = p -> p.startsWith("/t") ? "/tpc" + p.substring(2) : p.substring(2);
        String python = "\"${GFAL_PYTHONBIN:-python3}\" " + io.ferry.stack.LocalStack.projectRoot().resolve("integration-tests/bench") + "/";
        Map<String, String> peers = new LinkedHashMap<>();
        peers.put("xrdcp", "xrdcp -f -s %s %s");
        peers.put("xrdcp --tpc only", "xrdcp -f -s --tpc only %s %s");
        peers.put("gfal-copy", "gfal-copy -f %s %s >/dev/null");
        // gfal2's xrootd plugin copies root → root by third-party copy only, about 2.5 s a file here whatever the copy
        // mode: its rate is taken over the first 20 files
        Map<String, ProtocolBenchmark.BulkPeer> bulk = new LinkedHashMap<>();
        bulk.put("gfal-copy bulk", new ProtocolBenchmark.BulkPeer(python + "gfal-copy-from-file.py --from-file %s %s >/dev/null", 20));
        bulk.put("gfal2 bulk", new ProtocolBenchmark.BulkPeer(python + "gfal-bulk.py %s %s", 20));
        bulk.put("xrdcp --parallel 4", ProtocolBenchmark.BulkPeer.all("xrdcp -f -s --parallel 4 $(cat %s) %s"));
        return List.of(new ProtocolBenchmark.Stores("root", "root", p -> server.apply(p).rootUrl("root", path.apply(p).isEmpty() ? "/" : path.apply(p)),
                p -> server.apply(p).file(path.apply(p)), p -> server.apply(p).mkdirs(path.apply(p)), peers, bulk, true));
    }
}

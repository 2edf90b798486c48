package io.ferry.dev;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real Ceph RadosGW for tests that need what s3proxy lacks: several S3 accounts and bucket policies. A throwaway
 * single-node cluster, bootstrapped as Ceph's vstart.sh does but with nothing outside a temporary directory: its own
 * ceph.conf and keyring (cephx), one monitor, one OSD on {@code memstore} (the objects live in the OSD's memory), and
 * radosgw with the beast frontend on {@link #port}, everything bound to 127.0.0.1 and run in the foreground as this
 * JVM's children. Each user named at construction gets S3 keys of its own ({@link #account}); the buckets and their
 * policies are the test's to make, through the S3 API. Debian's radosgw, ceph-mon, ceph-osd and ceph-common are
 * needed ({@code ./ferry test} installs them).
 */
public final class RadosGateway implements AutoCloseable {

    /** An RGW user's S3 keys. */
    public record Account(String user, String accessKey, String secretKey) {
        @Override
        public String toString() {
            return "Account[" + user + ", " + accessKey + ", secret redacted]";
        }
    }

    /** How long a daemon may take to come up: the whole start takes about 15 s on two cores. */
    private static final long START_MILLIS = 90_000;

    public final Path dir;
    /** The S3 port (plain HTTP on 127.0.0.1). */
    public final int port;
    private final Path conf;
    private final List<Process> daemons = new ArrayList<>();
    private final Map<String, Account> accounts = new LinkedHashMap<>();
    /** Stops the daemons with a test JVM that ends without closing: they would outlive it, holding the OSD's memory. */
    private final Thread stopAtExit = new Thread(this::stopDaemons, "radosgw-stop");

    /** Starts the cluster and makes one RGW user per name in {@code users}, each with new keys. */
    public RadosGateway(String... users) throws Exception {
        this.dir = Files.createTempDirectory("ferry-rgw");
        this.port = FreePort.find();
        this.conf = dir.resolve("ceph.conf");
        Runtime.getRuntime().addShutdownHook(stopAtExit);
        try {
            start();
            for (String user : users) {
                accounts.put(user, createUser(user));
            }
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    private void start() throws Exception {
        int monPort = FreePort.find();
        String fsid = UUID.randomUUID().toString();
        for (String sub : List.of("run", "log", "mon.a", "osd.0", "rgw")) {
            Files.createDirectories(dir.resolve(sub));
        }
        Files.writeString(conf, """
                [global]
                fsid = %1$s
                mon host = v2:127.0.0.1:%2$d
                public addr = 127.0.0.1
                cluster addr = 127.0.0.1
                ms bind ipv6 = false
                keyring = %3$s/keyring
                run dir = %3$s/run
                admin socket = %3$s/run/$name.asok
                log file = %3$s/log/$name.log
                osd pool default size = 1
                osd pool default min size = 1
                osd pool default pg num = 8
                osd pool default pgp num = 8
                osd pool default pg autoscale mode = off
                osd crush chooseleaf type = 0
                mon allow pool size one = true
                # a command that cannot reach the monitor fails in time instead of retrying for 5 minutes
                client mount timeout = 30
                # a nearly full disk must not stop the monitor (it shuts down below mon data avail crit, 5 %% by default)
                mon data avail crit = 0
                [mon.a]
                mon data = %3$s/mon.a
                [osd.0]
                osd data = %3$s/osd.0
                osd objectstore = memstore
                memstore device bytes = 1073741824
                [client.rgw]
                rgw data = %3$s/rgw
                rgw frontends = beast endpoint=127.0.0.1:%4$d
                """.formatted(fsid, monPort, dir, port));
        Path keyring = dir.resolve("keyring");
        run("ceph-authtool", "--create-keyring", keyring.toString(), "--gen-key", "-n", "mon.", "--cap", "mon", "allow *");
        run("ceph-authtool", keyring.toString(), "--gen-key", "-n", "client.admin", "--cap", "mon", "allow *", "--cap", "osd", "allow *",
                "--cap", "mgr", "allow *");
        run("ceph-authtool", keyring.toString(), "--gen-key", "-n", "osd.0", "--cap", "mon", "allow profile osd", "--cap", "osd", "allow *",
                "--cap", "mgr", "allow profile osd");
        run("ceph-authtool", keyring.toString(), "--gen-key", "-n", "client.rgw", "--cap", "mon", "allow rw", "--cap", "osd", "allow rwx");
        Path monmap = dir.resolve("monmap");
        run("monmaptool", "--create", "--fsid", fsid, "--addv", "a", "[v2:127.0.0.1:" + monPort + "]", monmap.toString());
        // the monitor's mkfs takes every key in the keyring into its auth database
        run("ceph-mon", "-c", conf.toString(), "-i", "a", "--mkfs", "--monmap", monmap.toString(), "--keyring", keyring.toString());
        FreePort.awaitListening(daemon("mon.a", "ceph-mon", "-f", "-c", conf.toString(), "-i", "a"), monPort, START_MILLIS,
                () -> "ceph-mon did not start: " + log("mon.a"));

        String osdUuid = UUID.randomUUID().toString();
        run("ceph", "-c", conf.toString(), "osd", "new", osdUuid);
        run("ceph-osd", "-c", conf.toString(), "-i", "0", "--mkfs", "--osd-uuid", osdUuid);
        Process osd = daemon("osd.0", "ceph-osd", "-f", "-c", conf.toString(), "-i", "0");
        long until = System.currentTimeMillis() + START_MILLIS;
        while (!run("ceph", "-c", conf.toString(), "osd", "stat", "-f", "json").contains("\"num_up_osds\":1")) {
            if (!osd.isAlive() || System.currentTimeMillis() > until) {
                throw new IllegalStateException("ceph-osd did not come up: " + log("osd.0"));
            }
            Thread.sleep(200);
        }
        // radosgw makes its pools first and only then listens
        FreePort.awaitListening(daemon("client.rgw", "radosgw", "-f", "-c", conf.toString(), "-n", "client.rgw"), port, START_MILLIS,
                () -> "radosgw did not start: " + log("client.rgw"));
    }

    /** A new RGW user with random keys. */
    private Account createUser(String user) throws Exception {
        SecureRandom random = new SecureRandom();
        byte[] access = new byte[10];
        byte[] secret = new byte[20];
        random.nextBytes(access);
        random.nextBytes(secret);
        Account account = new Account(user, HexFormat.of().withUpperCase().formatHex(access), HexFormat.of().formatHex(secret));
        run("radosgw-admin", "-c", conf.toString(), "user", "create", "--uid=" + user, "--display-name=" + user,
                "--access-key=" + account.accessKey(), "--secret-key=" + account.secretKey());
        return account;
    }

    /** The keys of {@code user}, one of those named at construction. */
    public Account account(String user) {
        Account account = accounts.get(user);
        if (account == null) {
            throw new IllegalArgumentException("no RGW user " + user + ", only " + accounts.keySet());
        }
        return account;
    }

    /** The principal a bucket policy names {@code user} by. */
    public static String principal(String user) {
        return "arn:aws:iam:::user/" + user;
    }

    /** An s3:// URL of this gateway: {@code path} is /bucket/key, already encoded as a storage URL's path. */
    public String url(String path) {
        return "s3://127.0.0.1:" + port + path;
    }

    /** What a daemon ({@code mon.a}, {@code osd.0}, {@code client.rgw}) logged, its last 4 KiB. */
    public String log(String name) {
        try {
            Path log = dir.resolve("log").resolve(name + ".log");
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "(no log)";
            return text.substring(Math.max(0, text.length() - 4096));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    private Process daemon(String name, String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("log").resolve(name + ".out").toFile()).start();
        daemons.add(p);
        return p;
    }

    /** Runs a Ceph command to its end; its output, or a failure that names the packages when it is missing. */
    private String run(String... command) throws IOException, InterruptedException {
        // output to a file, not a pipe: a command that hangs is then ended by the timeout instead of blocking the read
        Path output = dir.resolve("log").resolve("command.out");
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            throw new IOException(command[0] + " not found: Debian's radosgw, ceph-mon, ceph-osd and ceph-common are needed", e);
        }
        p.getOutputStream().close();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String out = Files.readString(output, StandardCharsets.UTF_8);
        if (!ended) {
            throw new IOException(String.join(" ", command) + " did not end in 60 s: " + out);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): " + out);
        }
        return out;
    }

    /** radosgw, the OSD, then the monitor: each told to stop (SIGTERM), killed after 10 s. */
    private void stopDaemons() {
        for (int i = daemons.size() - 1; i >= 0; i--) {
            Process p = daemons.get(i);
            p.destroy();
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException exiting) {
            // the JVM is ending: the hook stops the daemons itself
        }
        stopDaemons();
        DirectoryTrees.delete(dir);
    }
}

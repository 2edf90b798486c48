package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * This server's HS_SITE record (CNRI's site-info encoding): one primary site of one server at the advertised
 * address, answering queries over UDP and queries and administration over TCP, with the server's public key (in
 * CNRI's encoding), which certified answers and session setups are verified with. A client given this record, or
 * reading it from {@code 0.NA/<prefix>}, sends its requests for the prefix here.
 */
final class SiteRecord {

    static final String HS_SITE = "HS_SITE";

    private static final int FORMAT_VERSION = 1;
    private static final int PRIMARY_SITE = 0x80;
    private static final int HASH_BY_ALL = 2;
    private static final int TYPE_ADMIN_AND_QUERY = 3;
    private static final int TYPE_QUERY = 2;
    private static final int PROTOCOL_UDP = 0;
    private static final int PROTOCOL_TCP = 1;

    private SiteRecord() {
    }

    static byte[] encode(InetAddress address, int tcpPort, int udpPort, int serial, byte[] publicKey) {
        byte[] ip = new byte[16];
        byte[] raw = address.getAddress();
        System.arraycopy(raw, 0, ip, 16 - raw.length, raw.length);
        WireWriter out = new WireWriter(128)
                .int2(FORMAT_VERSION).int1(Envelope.OUR_MAJOR).int1(Envelope.OUR_MINOR).int2(serial)
                .int1(PRIMARY_SITE).int1(HASH_BY_ALL).bytes(new byte[0])
                .int4(1).bytes("desc".getBytes(StandardCharsets.UTF_8)).bytes("Ferry handle-resolver".getBytes(StandardCharsets.UTF_8))
                .int4(1).int4(1).raw(ip).bytes(publicKey)
                .int4(2)
                .int1(TYPE_ADMIN_AND_QUERY).int1(PROTOCOL_TCP).int4(tcpPort)
                .int1(TYPE_QUERY).int1(PROTOCOL_UDP).int4(udpPort);
        return out.toByteArray();
    }
}

package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.MessageHeader;
import io.ferry.resolver.nativeprotocol.Responses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;

/**
 * {@code ferry_native_requests_total{transport, operation, response_code}}: every native-protocol answer, by the
 * transport it left on, the request's operation and the answer's response code. Each label takes a few known values
 * (anything else is {@code other}), and every combination is registered at start: counting an answer is two lookups
 * in small arrays and an increment, no tags built per request. Registered at startup, so the series exist (at 0)
 * before the first request.
 */
@io.quarkus.runtime.Startup
@ApplicationScoped
public class NativeRequestMetrics {

    public static final int UDP = 0;
    public static final int TCP = 1;
    static final String[] TRANSPORTS = {"udp", "tcp"};

    static final Map<Integer, String> OPERATIONS = Map.of(MessageHeader.OC_RESOLUTION, "resolution", MessageHeader.OC_GET_SITE_INFO, "get_site_info",
            MessageHeader.OC_CREATE_HANDLE, "create_handle", MessageHeader.OC_DELETE_HANDLE, "delete_handle",
            MessageHeader.OC_ADD_VALUE, "add_value", MessageHeader.OC_REMOVE_VALUE, "remove_value", MessageHeader.OC_MODIFY_VALUE, "modify_value",
            MessageHeader.OC_RESPONSE_TO_CHALLENGE, "response_to_challenge");

    static final Map<Integer, String> RESPONSE_CODES = Map.ofEntries(Map.entry(Responses.RC_SUCCESS, "success"), Map.entry(Responses.RC_ERROR, "error"),
            Map.entry(Responses.RC_PROTOCOL_ERROR, "protocol_error"), Map.entry(Responses.RC_OPERATION_NOT_SUPPORTED, "operation_not_supported"),
            Map.entry(Responses.RC_HANDLE_NOT_FOUND, "handle_not_found"), Map.entry(Responses.RC_VALUES_NOT_FOUND, "values_not_found"),
            Map.entry(Responses.RC_INVALID_ADMIN, "invalid_admin"), Map.entry(Responses.RC_INSUFFICIENT_PERMISSIONS, "insufficient_permissions"),
            Map.entry(Responses.RC_AUTHENTICATION_NEEDED, "authentication_needed"), Map.entry(Responses.RC_AUTHENTICATION_FAILED, "authentication_failed"),
            Map.entry(Responses.RC_AUTHEN_TIMEOUT, "authentication_timeout"));

    /** The largest operation and response code numbers that get their own slot. */
    private static final int MAX_CODE = 1000;

    final MeterRegistry registry;

    @Inject
    public NativeRequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Slot of each known operation or response code number; the last slot of each is {@code other}. */
    private final int[] operationSlot = slots(OPERATIONS);
    private final int[] codeSlot = slots(RESPONSE_CODES);
    /** [transport][operation slot][response code slot] */
    private Counter[][][] counters;

    @PostConstruct
    void register() {
        String[] operations = names(OPERATIONS);
        String[] codes = names(RESPONSE_CODES);
        counters = new Counter[TRANSPORTS.length][operations.length][codes.length];
        for (int t = 0; t < TRANSPORTS.length; t++) {
            for (int o = 0; o < operations.length; o++) {
                for (int c = 0; c < codes.length; c++) {
                    counters[t][o][c] = Counter.builder("ferry_native_requests").description("native Handle protocol requests answered")
                            .tags("transport", TRANSPORTS[t], "operation", operations[o], "response_code", codes[c]).register(registry);
                }
            }
        }
    }

    /** An answer to a request of {@code opCode} left on {@code transport} ({@link #UDP} or {@link #TCP}). */
    public void answered(int transport, int opCode, byte[] message) {
        // the message header starts with the operation code, then the response code, both 4 bytes big-endian
        int rc = message.length >= 8 ? (message[4] & 0xff) << 24 | (message[5] & 0xff) << 16 | (message[6] & 0xff) << 8 | message[7] & 0xff : -1;
        counters[transport][slot(operationSlot, opCode)][slot(codeSlot, rc)].increment();
    }

    private static int slot(int[] slots, int code) {
        return code >= 0 && code <= MAX_CODE ? slots[code] : slots[MAX_CODE + 1];
    }

    /** Known numbers in ascending order get slots 0..n-1; every other number (and the overflow slot) gets n. */
    private static int[] slots(Map<Integer, String> known) {
        int[] slots = new int[MAX_CODE + 2];
        java.util.Arrays.fill(slots, known.size());
        int i = 0;
        for (int code : known.keySet().stream().sorted().toList()) {
            slots[code] = i++;
        }
        return slots;
    }

    private static String[] names(Map<Integer, String> known) {
        String[] names = new String[known.size() + 1];
        int i = 0;
        for (int code : known.keySet().stream().sorted().toList()) {
            names[i++] = known.get(code);
        }
        names[i] = "other";
        return names;
    }
}

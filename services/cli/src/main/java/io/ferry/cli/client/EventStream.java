package io.ferry.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.Iterator;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Reads Server-Sent Events: the {@code data:} lines of each event (joined by newlines, as the SSE spec says) parsed
 * as JSON and handed on; comments and other fields are skipped.
 */
public final class EventStream {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EventStream() {
    }

    /** Hands each event's JSON to {@code sink} until the stream ends. */
    public static void read(Stream<String> lines, Consumer<JsonNode> sink) {
        StringBuilder data = new StringBuilder();
        Iterator<String> it = lines.iterator();
        while (it.hasNext()) {
            String line = it.next();
            if (line.isEmpty()) {
                dispatch(data, sink);
            } else if (line.startsWith("data:")) {
                if (data.length() > 0) {
                    data.append('\n');
                }
                data.append(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
            }
        }
        dispatch(data, sink);
    }

    private static void dispatch(StringBuilder data, Consumer<JsonNode> sink) {
        if (data.length() == 0) {
            return;
        }
        try {
            sink.accept(JSON.readTree(data.toString()));
        } catch (IOException e) {
            // not JSON: nothing this reader knows how to show
        }
        data.setLength(0);
    }
}

package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A JSON body given inline ({@code --json '{...}'}) or as a file ({@code -f FILE}, {@code -} for stdin). */
final class JsonInput {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonInput() {
    }

    static JsonNode read(String inline, String file) {
        if ((inline == null) == (file == null)) {
            throw new IllegalArgumentException("give the body as --json '{...}' or -f FILE (- for stdin)");
        }
        try {
            String text = inline != null ? inline
                    : file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8) : Files.readString(Path.of(file));
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}

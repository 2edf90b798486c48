package io.ferry.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints answers in the chosen {@link OutputFormat}: json and yaml print the service's answer whole (what scripts
 * parse), table and tsv the given columns, one row per element (tsv raw values under a header line, table aligned
 * with human units).
 */
public final class Printer {

    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private final OutputFormat format;
    private final PrintStream out;

    public Printer(OutputFormat format, PrintStream out) {
        this.format = format;
        this.out = out;
    }

    public OutputFormat format() {
        return format;
    }

    /** Rows (an array, or one object as one row) under the columns. */
    public void rows(JsonNode answer, List<Column> columns) {
        switch (format) {
            case JSON, YAML -> document(answer);
            case TSV -> {
                out.println(String.join("\t", columns.stream().map(Column::header).toList()));
                for (JsonNode row : elements(answer)) {
                    out.println(String.join("\t", columns.stream().map(c -> c.raw().apply(row).replace('\t', ' ').replace('\n', ' ')).toList()));
                }
            }
            case TABLE -> out.print(table(elements(answer), columns));
        }
    }

    /** One object as "key: value" lines for people (tsv: key, tab, value), whole for json and yaml. */
    public void record(JsonNode answer, List<Column> fields) {
        switch (format) {
            case JSON, YAML -> document(answer);
            case TSV -> fields.forEach(c -> out.println(c.header() + "\t" + c.raw().apply(answer)));
            case TABLE -> {
                int width = fields.stream().mapToInt(c -> c.header().length()).max().orElse(0);
                for (Column c : fields) {
                    String value = c.human().apply(answer);
                    if (!value.isEmpty()) {
                        out.println(pad(c.header() + ":", width + 1) + " " + value);
                    }
                }
            }
        }
    }

    /** The answer as a document: pretty JSON, or YAML. */
    public void document(JsonNode answer) {
        try {
            out.print(format == OutputFormat.YAML ? YAML.writeValueAsString(answer) : JSON.writeValueAsString(answer) + System.lineSeparator());
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String table(List<JsonNode> rows, List<Column> columns) {
        List<String[]> cells = new ArrayList<>();
        int[] widths = new int[columns.size()];
        String[] header = columns.stream().map(Column::header).toArray(String[]::new);
        cells.add(header);
        for (JsonNode row : rows) {
            cells.add(columns.stream().map(c -> c.human().apply(row)).toArray(String[]::new));
        }
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] line : cells) {
            StringBuilder l = new StringBuilder();
            for (int i = 0; i < line.length; i++) {
                l.append(i == line.length - 1 ? line[i] : pad(line[i], widths[i]) + "  ");
            }
            b.append(l.toString().stripTrailing()).append(System.lineSeparator());
        }
        return b.toString();
    }

    private static List<JsonNode> elements(JsonNode answer) {
        List<JsonNode> rows = new ArrayList<>();
        if (answer != null && answer.isArray()) {
            answer.forEach(rows::add);
        } else if (answer != null && !answer.isMissingNode() && !answer.isNull()) {
            rows.add(answer);
        }
        return rows;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}

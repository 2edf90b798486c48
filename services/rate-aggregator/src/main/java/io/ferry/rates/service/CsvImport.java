package io.ferry.rates.service;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.rates.api.IngestResult;
import io.ferry.rates.api.TransferRecord;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Imports historical transfer logs as CSV with a header naming the columns {@code timestamp} (when the transfer
 * ended), {@code source_site}, {@code source_se}, {@code destination_site}, {@code destination_se}, {@code bytes},
 * {@code transfer_seconds}, {@code prepare_seconds} and {@code success}. A line's id is the hash of its content,
 * so importing the same file twice stores nothing twice.
 */
@ApplicationScoped
public class CsvImport {

    static final List<String> COLUMNS = List.of("timestamp", "source_site", "source_se", "destination_site", "destination_se",
            "bytes", "transfer_seconds", "prepare_seconds", "success");

    final RecordIngest ingest;

    @Inject
    public CsvImport(RecordIngest ingest) {
        this.ingest = ingest;
    }

    @WithSpan
    public Uni<IngestResult> importCsv(String body, String vo, String activity) {
        if (vo == null || !vo.matches("[a-z0-9][a-z0-9._-]{0,99}")) {
            throw ProblemException.badRequest("vo", "the VO the transfers belong to is required, e.g. vo=cms");
        }
        String[] lines = body == null ? new String[0] : body.split("\\R");
        if (lines.length < 2) {
            throw ProblemException.badRequest("body", "expected a header line and at least one row");
        }
        List<String> header = split(lines[0]).stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).toList();
        List<String> missing = COLUMNS.stream().filter(c -> !header.contains(c)).toList();
        if (!missing.isEmpty()) {
            throw ProblemException.badRequest("header", "missing column(s) " + missing + "; expected " + COLUMNS);
        }
        if (lines.length - 1 > RecordIngest.MAX_ITEMS) {
            throw ProblemException.badRequest("body", "at most " + RecordIngest.MAX_ITEMS + " rows per request");
        }
        List<RecordIngest.Item> items = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            List<String> cells = split(lines[i]);
            if (cells.size() != header.size()) {
                items.add(new RecordIngest.Item(null, null, List.of(new Problem.FieldError("line " + (i + 1),
                        "has " + cells.size() + " cells, the header has " + header.size()))));
                continue;
            }
            Map<String, String> row = new java.util.HashMap<>();
            for (int c = 0; c < header.size(); c++) {
                row.put(header.get(c), cells.get(c).trim());
            }
            items.add(toItem(row, vo, activity == null ? "import" : activity, "line " + (i + 1), lines[i]));
        }
        return ingest.store(items);
    }

    static RecordIngest.Item toItem(Map<String, String> row, String vo, String activity, String where, String line) {
        String id = "csv:" + sha256(vo + "|" + line.trim()).substring(0, 32);
        try {
            OffsetDateTime end = OffsetDateTime.parse(row.get("timestamp"));
            long bytes = Long.parseLong(row.get("bytes"));
            double transfer = Double.parseDouble(row.get("transfer_seconds"));
            double prepare = row.get("prepare_seconds").isEmpty() ? 0 : Double.parseDouble(row.get("prepare_seconds"));
            boolean ok = switch (row.get("success").toLowerCase(Locale.ROOT)) {
                case "1", "true", "yes", "ok", "finished", "done" -> true;
                case "0", "false", "no", "failed", "error" -> false;
                default -> throw new IllegalArgumentException("success must be true/false, 1/0 or yes/no");
            };
            if (transfer < 0 || prepare < 0) {
                throw new IllegalArgumentException("durations cannot be negative");
            }
            OffsetDateTime transferStart = end.minusNanos(Math.round(transfer * 1e9));
            OffsetDateTime prepareStart = transferStart.minusNanos(Math.round(prepare * 1e9));
            TransferRecord r = new TransferRecord(id, null, null, 1, vo, activity, row.get("source_se"), row.get("destination_se"),
                    blankToNull(row.get("source_site")), blankToNull(row.get("destination_site")), null, null, bytes,
                    ok ? bytes : 0, null, null, prepare > 0 ? prepareStart : null, prepare > 0 ? transferStart : null,
                    transferStart, end, null, null, ok && transfer > 0 ? bytes / transfer : null,
                    ok ? "FINISHED" : "FAILED", ok ? null : "IMPORTED_FAILURE", ok ? null : "transfer", null, null);
            return new RecordIngest.Item(r, id, List.of());
        } catch (DateTimeParseException e) {
            return new RecordIngest.Item(null, id, List.of(new Problem.FieldError(where + ".timestamp", "not an ISO-8601 time with offset")));
        } catch (NumberFormatException e) {
            return new RecordIngest.Item(null, id, List.of(new Problem.FieldError(where, "bytes and seconds must be numbers")));
        } catch (IllegalArgumentException e) {
            return new RecordIngest.Item(null, id, List.of(new Problem.FieldError(where, e.getMessage())));
        }
    }

    /** Splits one CSV line, honouring double quotes. */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

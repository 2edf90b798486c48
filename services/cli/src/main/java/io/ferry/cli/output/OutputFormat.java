package io.ferry.cli.output;

/** {@code -o}: a table for people, or json, yaml and tsv for scripts. */
public enum OutputFormat {
    TABLE, JSON, YAML, TSV
}

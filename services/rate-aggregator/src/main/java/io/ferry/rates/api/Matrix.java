package io.ferry.rates.api;

import java.util.List;

public record Matrix(long filesize, List<String> from, List<String> to, List<Cell> cells) {
}

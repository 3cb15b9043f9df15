package org.bitina.node;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A console table whose columns are as wide as their widest cell (header included), two spaces
 * apart, text left-aligned and numbers right-aligned. A cell may carry a colour, applied after
 * padding so escape codes never shift a column; with colour off (not a terminal, or
 * {@code NO_COLOR}) the same table prints plain.
 */
final class ConsoleTable {
    enum Align {
        LEFT,
        RIGHT
    }

    /** A cell's text and how to colour it (identity: plain). */
    record Cell(String text, UnaryOperator<String> colour) {
        static Cell plain(String text) {
            return new Cell(text, UnaryOperator.identity());
        }
    }

    private final List<String> headers;
    private final List<Align> aligns;
    private final List<List<Cell>> rows = new ArrayList<>();

    ConsoleTable(List<String> headers, List<Align> aligns) {
        if (headers.size() != aligns.size()) {
            throw new IllegalArgumentException(headers.size() + " headers, " + aligns.size() + " alignments");
        }
        this.headers = List.copyOf(headers);
        this.aligns = List.copyOf(aligns);
    }

    void add(List<Cell> row) {
        if (row.size() != headers.size()) {
            throw new IllegalArgumentException(
                    "a row of " + row.size() + " cells in a table of " + headers.size() + " columns");
        }
        rows.add(List.copyOf(row));
    }

    /** The table's lines: the header, then one per row; {@code colour} false prints every cell plain. */
    List<String> lines(boolean colour) {
        int[] width = new int[headers.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = headers.get(c).length();
            for (List<Cell> r : rows) {
                width[c] = Math.max(width[c], r.get(c).text().length());
            }
        }
        List<String> out = new ArrayList<>();
        List<Cell> head = headers.stream().map(Cell::plain).toList();
        out.add(line(head, width, false));
        for (List<Cell> r : rows) {
            out.add(line(r, width, colour));
        }
        return out;
    }

    private String line(List<Cell> cells, int[] width, boolean colour) {
        StringBuilder s = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            Cell cell = cells.get(c);
            String pad = " ".repeat(width[c] - cell.text().length());
            String text = colour ? cell.colour().apply(cell.text()) : cell.text();
            if (c > 0) {
                s.append("  ");
            }
            boolean last = c == cells.size() - 1;
            if (aligns.get(c) == Align.RIGHT) {
                s.append(pad).append(text);
            } else {
                s.append(text).append(last ? "" : pad);
            }
        }
        return s.toString();
    }
}

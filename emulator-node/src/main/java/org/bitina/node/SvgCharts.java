package org.bitina.node;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import org.bitina.job.Mode;
import org.bitina.run.Report;
import org.bitina.usecases.UseCases;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * The report's charts, drawn by JFreeChart into SVG on the server side (JFreeSVG), so that the
 * HTML page needs no script and no network to show them. Each chart gets its own prefix for the
 * ids of its clip paths, so that several inline SVGs share one page.
 */
final class SvgCharts {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private static final Color[] PALETTE = {
        new Color(0x1f77b4),
        new Color(0xff7f0e),
        new Color(0x2ca02c),
        new Color(0xd62728),
        new Color(0x9467bd),
        new Color(0x8c564b),
        new Color(0xe377c2),
        new Color(0x7f7f7f),
        new Color(0xbcbd22),
        new Color(0x17becf)
    };
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 13);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private SvgCharts() {}

    /** A mode's colour, the same in every chart of the page and its own: INA blue, then each baseline. */
    static Color colour(String mode) {
        int rank = mode.isBlank() ? -1 : UseCases.colourRank(Mode.of(mode));
        return rank >= 0
                ? PALETTE[rank % PALETTE.length]
                : PALETTE[Math.floorMod(mode.hashCode(), PALETTE.length - 3) + 3];
    }

    /**
     * A series' colour: its mode's ({@link #baseMode}); a shared job's alone run ("ina (alone)", the
     * reference of its slowdown) a paler tint of it, so that the mix reads first.
     */
    static Color seriesColour(String series) {
        Color c = colour(baseMode(series));
        if (!series.endsWith(ALONE)) {
            return c;
        }
        return new Color((c.getRed() + 2 * 255) / 3, (c.getGreen() + 2 * 255) / 3, (c.getBlue() + 2 * 255) / 3);
    }

    /** How the page names a shared job's alone run after its mode; its mix run says {@code (mix)}. */
    static final String ALONE = " (alone)";

    /**
     * Grouped bars: one group per category (a job), one bar per series (a mode) in each, each bar
     * with its value in the metric's unit; the value axis logarithmic when the values span a factor
     * of 100 or more (else the small bars vanish beside a large one).
     *
     * @param unit {@code us} (drawn as ns, µs, ms, s), {@code bytes} (B, KiB, MiB) or a count
     * @param values series -> category -> value; a missing value draws no bar
     */
    static String bars(
            String id, String title, String unit, List<String> categories, Map<String, Map<String, Double>> values) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        values.forEach((series, byCategory) -> {
            for (String c : categories) {
                Double v = byCategory.get(c);
                if (v != null) {
                    data.addValue(v, series, c);
                }
            }
        });
        JFreeChart chart = ChartFactory.createBarChart(
                title, null, axisLabel(unit), data, PlotOrientation.VERTICAL, true, true, false);
        style(chart);
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer r = (BarRenderer) plot.getRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setItemMargin(0.05);
        r.setMaximumBarWidth(0.12);
        for (int i = 0; i < data.getRowCount(); i++) {
            r.setSeriesPaint(i, seriesColour(data.getRowKey(i).toString()));
        }
        NumberFormat format = format(unit);
        valueLabels(r, format, data.getRowCount() * Math.max(1, categories.size()) > 8);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        double[] span =
                span(values.values().stream().flatMap(m -> m.values().stream()).toList());
        if (span[0] > 0 && span[1] / span[0] >= 100) {
            LogAxis axis = new LogAxis(axisLabel(unit) + " (log scale)");
            axis.setNumberFormatOverride(format);
            axis.setLowerBound(span[0] / 2);
            axis.setUpperBound(span[1] * 8);
            plot.setRangeAxis(axis);
            r.setBase(span[0] / 2);
        } else {
            NumberAxis axis = (NumberAxis) plot.getRangeAxis();
            axis.setNumberFormatOverride(format);
            axis.setUpperMargin(0.25); // room for the value over the tallest bar
        }
        return svg(chart, id, 520, 300);
    }

    /**
     * A bar per category at its mean, the error bar its confidence interval (JFreeChart's
     * statistical renderer draws mean ± the value given as its deviation: here the half width).
     *
     * @param bars category -> {mean, half width}
     */
    static String errorBars(String id, String title, String unit, Map<String, double[]> bars) {
        DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
        bars.forEach((category, v) -> data.add(v[0], v[1], title, category));
        JFreeChart chart = ChartFactory.createBarChart(
                title, null, axisLabel(unit), data, PlotOrientation.VERTICAL, false, true, false);
        style(chart);
        CategoryPlot plot = chart.getCategoryPlot();
        StatisticalBarRenderer r = new StatisticalBarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setMaximumBarWidth(0.12);
        r.setSeriesPaint(0, PALETTE[0]);
        r.setErrorIndicatorPaint(Color.BLACK);
        plot.setRenderer(r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        NumberAxis axis = (NumberAxis) plot.getRangeAxis();
        axis.setNumberFormatOverride(format(unit));
        axis.setUpperMargin(0.15);
        return svg(chart, id, 520, 300);
    }

    /**
     * INA over each baseline, per metric: a group per metric, a bar per baseline, each with its
     * ratio on it ({@code 0.52x}), a line at 1 (as good as the baseline); log scale past a factor of 100.
     *
     * @param ratios baseline -> metric -> INA's value over the baseline's
     */
    static String ratios(String id, String title, List<String> metrics, Map<String, Map<String, Double>> ratios) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        ratios.forEach((mode, byMetric) -> {
            for (String m : metrics) {
                Double v = byMetric.get(m);
                if (v != null && v > 0) {
                    data.addValue(v, mode, m);
                }
            }
        });
        JFreeChart chart = ChartFactory.createBarChart(
                title, null, "ina / baseline", data, PlotOrientation.VERTICAL, true, true, false);
        style(chart);
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer r = (BarRenderer) plot.getRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setItemMargin(0.05);
        r.setMaximumBarWidth(0.1);
        for (int i = 0; i < data.getRowCount(); i++) {
            r.setSeriesPaint(i, seriesColour(data.getRowKey(i).toString()));
        }
        NumberFormat format = new HumanNumberFormat(v -> Answer.times(v).replace(".00x", "x"));
        valueLabels(r, format, data.getRowCount() * metrics.size() > 8);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        List<Double> all = ratios.values().stream()
                .flatMap(m -> m.values().stream())
                .filter(v -> v > 0)
                .toList();
        double[] span = span(all);
        if (span[0] > 0 && span[1] / span[0] >= 100) {
            LogAxis axis = new LogAxis("ina / baseline (log scale)");
            axis.setNumberFormatOverride(format);
            axis.setLowerBound(Math.min(span[0], 1) / 2);
            axis.setUpperBound(Math.max(span[1], 1) * 8);
            plot.setRangeAxis(axis);
            r.setBase(Math.min(span[0], 1) / 2);
        } else {
            NumberAxis axis = (NumberAxis) plot.getRangeAxis();
            axis.setNumberFormatOverride(format);
            axis.setUpperMargin(0.25);
            axis.setAutoRangeIncludesZero(true);
            if (span[1] < 1.1) {
                axis.setUpperBound(1.3); // the line at 1 always on the chart
            }
        }
        ValueMarker one = new ValueMarker(1, new Color(0x555555), new BasicStroke(1.2f));
        one.setLabel("1 = as the baseline");
        one.setLabelFont(LABEL);
        one.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        one.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
        plot.addRangeMarker(one);
        return svg(chart, id, 520, 300);
    }

    /** Each bar's value over it, turned upright when the bars are many and narrow. */
    private static void valueLabels(BarRenderer r, NumberFormat format, boolean upright) {
        r.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", format));
        r.setDefaultItemLabelsVisible(true);
        r.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 9));
        r.setDefaultPositiveItemLabelPosition(
                upright
                        ? new ItemLabelPosition(
                                ItemLabelAnchor.OUTSIDE12, TextAnchor.CENTER_LEFT, TextAnchor.CENTER_LEFT, -Math.PI / 2)
                        : new ItemLabelPosition(ItemLabelAnchor.OUTSIDE12, TextAnchor.BOTTOM_CENTER));
    }

    /** The smallest positive and the largest value, or {0, 0}. */
    private static double[] span(List<Double> values) {
        double lo = values.stream()
                .mapToDouble(Double::doubleValue)
                .filter(v -> v > 0)
                .min()
                .orElse(0);
        double hi = values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return new double[] {lo, hi};
    }

    private static String axisLabel(String unit) {
        return switch (unit) {
            case "us" -> "modelled time";
            case "bytes" -> "bytes";
            default -> unit;
        };
    }

    /** Numbers in a unit as people read them: times as 1.6 ms and 2.5 s, bytes as 4.07 MiB, counts as 1.5K. */
    static NumberFormat format(String unit) {
        return switch (unit) {
            case "us" -> new HumanNumberFormat(v -> v == 0 ? "0" : Units.micros(v));
            case "bytes" -> new HumanNumberFormat(v -> v == 0 ? "0" : Units.bytes(Math.round(v)));
            default -> new HumanNumberFormat(SvgCharts::human);
        };
    }

    /**
     * Lines over modelled time, one per series, with the faults as vertical markers.
     *
     * @param step draw each series as steps (a CDF, a level held until the next point) instead of straight segments
     */
    static String lines(
            String id,
            String title,
            String xLabel,
            String yLabel,
            Map<String, List<double[]>> series,
            List<Report.FaultMark> faults,
            boolean step,
            int width,
            int height) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey(), false, true);
            e.getValue().forEach(p -> s.add(p[0], p[1]));
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, true, false);
        style(chart);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = step ? new XYStepRenderer() : new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            String key = data.getSeriesKey(i).toString();
            r.setSeriesPaint(i, seriesColour(key));
            r.setSeriesStroke(
                    i,
                    key.endsWith(ALONE)
                            ? new BasicStroke(
                                    1.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 3f}, 0f)
                            : new BasicStroke(1.8f));
            r.setSeriesShapesVisible(i, false);
        }
        plot.setRenderer(r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        // the x axis is modelled time in µs: its ticks as 1.6 ms, 2.5 s, never "1.60K us"
        ((NumberAxis) plot.getDomainAxis()).setNumberFormatOverride(format("us"));
        for (Report.FaultMark f : faults) {
            ValueMarker m = new ValueMarker(
                    f.atMicros(),
                    new Color(0xc0392b),
                    new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {4f, 3f}, 0f));
            m.setLabel(f.what());
            m.setLabelFont(LABEL);
            m.setLabelPaint(new Color(0xc0392b));
            m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            m.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            plot.addDomainMarker(m);
        }
        return svg(chart, id, width, height);
    }

    /**
     * A metric against a swept parameter: a line with points per series. Numeric values on a
     * number axis (logarithmic when they span a factor of 100 or more), others as named positions.
     */
    static String sweep(
            String id,
            String title,
            String xLabel,
            String yLabel,
            List<String> xValues,
            Map<String, Map<String, Double>> series) {
        double[] x = new double[xValues.size()];
        boolean numeric = true;
        for (int i = 0; i < x.length; i++) {
            // 4096 or 4K (a count as a scenario writes it): numbers on the axis
            Long count = org.bitina.scenario.ConfigReader.wholeCount(xValues.get(i));
            if (count != null) {
                x[i] = count;
            } else {
                try {
                    x[i] = Double.parseDouble(xValues.get(i));
                } catch (NumberFormatException e) {
                    numeric = false;
                }
            }
        }
        double lo = Arrays.stream(x).min().orElse(1);
        double hi = Arrays.stream(x).max().orElse(1);
        boolean log = numeric && lo > 0 && hi / lo >= 100;
        XYSeriesCollection data = new XYSeriesCollection();
        for (Map.Entry<String, Map<String, Double>> e : series.entrySet()) {
            XYSeries s = new XYSeries(e.getKey(), false, true);
            for (int i = 0; i < x.length; i++) {
                Double v = e.getValue().get(xValues.get(i));
                if (v != null) {
                    s.add(numeric ? x[i] : i, v);
                }
            }
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, true, false);
        style(chart);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
            r.setSeriesStroke(
                    i,
                    new BasicStroke(
                            1.8f,
                            BasicStroke.CAP_ROUND,
                            BasicStroke.JOIN_ROUND,
                            1f,
                            i < PALETTE.length ? null : new float[] {5f, 3f},
                            0f));
        }
        plot.setRenderer(r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        if (!numeric) {
            plot.setDomainAxis(new SymbolAxis(xLabel, xValues.toArray(new String[0])));
        } else if (log) {
            LogAxis axis = new LogAxis(xLabel);
            axis.setNumberFormatOverride(new HumanNumberFormat());
            plot.setDomainAxis(axis);
        } else {
            NumberAxis axis = (NumberAxis) plot.getDomainAxis();
            if (Arrays.stream(x).allMatch(v -> v == Math.rint(v))) {
                // a whole-number parameter (k, a window) gets whole-number ticks, never k = 4.5
                axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
            }
            axis.setNumberFormatOverride(new HumanNumberFormat());
        }
        ((NumberAxis) plot.getRangeAxis()).setNumberFormatOverride(new HumanNumberFormat());
        return svg(chart, id, 520, 320);
    }

    /** "ina #2" (an elastic job's second iteration) is drawn in INA's colour. */
    private static String baseMode(String series) {
        int space = series.indexOf(' ');
        String first = space < 0 ? series : series.substring(0, space);
        int slash = first.lastIndexOf('/');
        return slash < 0 ? first : first.substring(slash + 1);
    }

    private static void style(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(TITLE);
        if (chart.getLegend() != null) {
            chart.getLegend().setItemFont(LABEL);
            chart.getLegend().setFrame(BlockBorder.NONE);
        }
        chart.setAntiAlias(true);
    }

    private static String svg(JFreeChart chart, String id, int width, int height) {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        g.setDefsKeyPrefix(id + "-");
        chart.draw(g, new Rectangle(0, 0, width, height));
        return g.getSVGElement(id);
    }

    /** Axis numbers as people read them: 1.5K, 2M, 3G, and plain below a thousand (or in a unit, {@link #format}). */
    static final class HumanNumberFormat extends NumberFormat {
        private final DoubleFunction<String> text;

        HumanNumberFormat() {
            this(SvgCharts::human);
        }

        HumanNumberFormat(DoubleFunction<String> text) {
            this.text = text;
        }

        @Override
        public StringBuffer format(double v, StringBuffer b, FieldPosition pos) {
            return b.append(text.apply(v));
        }

        @Override
        public StringBuffer format(long v, StringBuffer b, FieldPosition pos) {
            return b.append(text.apply(v));
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            throw new UnsupportedOperationException("for display only");
        }
    }

    static String human(double v) {
        double a = Math.abs(v);
        String[] suffix = {"", "K", "M", "G", "T"};
        int i = 0;
        while (a >= 1000 && i < suffix.length - 1) {
            a /= 1000;
            v /= 1000;
            i++;
        }
        if (a < 1 && a > 0) {
            return String.format(Locale.ROOT, "%.2g", v);
        }
        String s = a >= 100 || a == Math.rint(a)
                ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, a >= 10 ? "%.1f" : "%.2f", v);
        return s + suffix[i];
    }

    /** A modelled time axis from x0 to x1 just below row y: 0 at its left, {@code maxMicros} at its right. */
    static void timeAxis(StringBuilder b, int x0, int x1, int y, double maxMicros) {
        b.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>"
                        + "<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                x0,
                y + 2,
                x1,
                y + 2,
                x0,
                y + 16,
                x1,
                y + 16,
                HtmlReport.micros(maxMicros)));
    }
}

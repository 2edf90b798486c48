package io.ferry.rates.model;

import java.util.Arrays;
import java.util.List;

/** The statistics behind regression and before/after comparisons. */
public final class Stats {

    private Stats() {
    }

    /** Least-squares line y = intercept + slope x, with R^2 and the sample count. */
    public record Fit(double slope, double intercept, double r2, int n) {
    }

    public static Fit linear(double[] x, double[] y) {
        int n = x.length;
        double mx = Arrays.stream(x).average().orElse(0);
        double my = Arrays.stream(y).average().orElse(0);
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
            syy += (y[i] - my) * (y[i] - my);
        }
        double slope = sxx == 0 ? 0 : sxy / sxx;
        double r2 = sxx == 0 || syy == 0 ? 0 : (sxy * sxy) / (sxx * syy);
        return new Fit(slope, my - slope * mx, r2, n);
    }

    /** Two-sided Mann-Whitney U test (normal approximation with tie correction). */
    public record MannWhitney(double u, double z, double pValue) {
    }

    public static MannWhitney mannWhitney(List<Double> a, List<Double> b) {
        int n1 = a.size();
        int n2 = b.size();
        if (n1 == 0 || n2 == 0) {
            return new MannWhitney(0, 0, 1);
        }
        double[][] all = new double[n1 + n2][2];
        for (int i = 0; i < n1; i++) {
            all[i] = new double[]{a.get(i), 0};
        }
        for (int i = 0; i < n2; i++) {
            all[n1 + i] = new double[]{b.get(i), 1};
        }
        Arrays.sort(all, (p, q) -> Double.compare(p[0], q[0]));
        double rankSumA = 0;
        double tieTerm = 0;
        int i = 0;
        while (i < all.length) {
            int j = i;
            while (j + 1 < all.length && all[j + 1][0] == all[i][0]) {
                j++;
            }
            double rank = (i + j) / 2.0 + 1;
            int t = j - i + 1;
            tieTerm += (double) t * t * t - t;
            for (int k = i; k <= j; k++) {
                if (all[k][1] == 0) {
                    rankSumA += rank;
                }
            }
            i = j + 1;
        }
        double u = rankSumA - n1 * (n1 + 1) / 2.0;
        double mean = n1 * (double) n2 / 2;
        int n = n1 + n2;
        double variance = n1 * (double) n2 / 12 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
        if (variance <= 0) {
            return new MannWhitney(u, 0, 1);
        }
        double z = (u - mean) / Math.sqrt(variance);
        return new MannWhitney(u, z, Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))));
    }

    /** Standard normal CDF (Abramowitz-Stegun 7.1.26 via erf; error below 1.5e-7). */
    static double normalCdf(double z) {
        double t = 1 / (1 + 0.3275911 * Math.abs(z) / Math.sqrt(2));
        double erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
                * Math.exp(-z * z / 2);
        return 0.5 * (1 + Math.signum(z) * erf);
    }

    public static double median(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        double[] s = values.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}

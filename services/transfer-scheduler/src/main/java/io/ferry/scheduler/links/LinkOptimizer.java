package io.ferry.scheduler.links;

import java.util.Locale;

/**
 * How many transfers a link runs at once, decided round by round in the spirit of FTS3's optimizer: throughput is
 * smoothed (EMA) per active count, a lower success rate backs the link off, and the count climbs one step at a time
 * while each step pays. A step that does not pay is undone and the link settles on the best count it has seen; it
 * probes one step up again only after {@code holdRounds} steady rounds, so a steady link does not oscillate.
 * A link with a rate cap ({@code max_rate}) that moves {@link #AT_CAP} of it or more holds its count: more
 * transfers could only share the same capped bytes, and each one added would be kept by the noise of a throughput
 * that can no longer grow.
 */
public final class LinkOptimizer {

    /** What the link did since the last decision. */
    public record Observation(double throughput, Double successRate, int samples, int running, int queued) {
    }

    /** What the optimizer remembers between rounds (stored per link). */
    public record State(int target, Double ema, Integer bestActive, Double bestEma, int holdRounds) {
        public static State initial(int min) {
            return new State(min, null, null, null, 0);
        }
    }

    public record Params(double emaAlpha, double minSuccessRate, double minGain, int holdRounds) {
    }

    public record Decision(State next, int previous, double ema, String rationale) {
        public boolean changed() {
            return next.target() != previous;
        }
    }

    /** The share of its cap at which a capped link gains nothing from more transfers. */
    static final double AT_CAP = 0.95;

    private LinkOptimizer() {
    }

    public static Decision decide(State s, Observation o, int min, int max, Params p) {
        return decide(s, o, min, max, p, null);
    }

    /** {@link #decide(State, Observation, int, int, Params)} for a link capped at {@code maxRate} bytes per second (null: no cap). */
    public static Decision decide(State s, Observation o, int min, int max, Params p, Long maxRate) {
        int n = clamp(s.target(), min, max);
        if (o.samples() == 0 && o.running() == 0) {
            return new Decision(new State(n, s.ema(), s.bestActive(), s.bestEma(), s.holdRounds()), s.target(), value(s.ema()),
                    "no transfers finished or running; keeping " + n);
        }
        double ema = s.ema() == null ? o.throughput() : p.emaAlpha() * o.throughput() + (1 - p.emaAlpha()) * s.ema();
        if (o.successRate() != null && o.samples() >= 3 && o.successRate() < p.minSuccessRate()) {
            int next = Math.max(min, n - 1);
            return new Decision(new State(next, null, null, null, p.holdRounds()), s.target(), ema,
                    String.format(Locale.ROOT, "success rate %.0f%% is below %.0f%% over %d attempts: %s", 100 * o.successRate(),
                            100 * p.minSuccessRate(), o.samples(), next < n ? "one transfer fewer (" + next + ")" : "already at min_active " + n));
        }
        if (o.running() + o.queued() < n) {
            return new Decision(new State(n, ema, s.bestActive(), s.bestEma(), s.holdRounds()), s.target(), ema,
                    "only " + (o.running() + o.queued()) + " file(s) running or queued: the target " + n + " is not what limits the link");
        }
        if (maxRate != null && ema >= AT_CAP * maxRate) {
            int hold = s.bestActive() != null && s.bestActive() < n && s.bestEma() != null && s.bestEma() >= AT_CAP * maxRate
                    ? clamp(s.bestActive(), min, max) : n;
            return new Decision(new State(hold, ema, hold, ema, p.holdRounds()), s.target(), ema,
                    String.format(Locale.ROOT, "%s with %d active is at %.0f%% of the link's max_rate %s: more transfers cannot gain, holding %d",
                            rate(ema), n, 100 * ema / maxRate, rate(maxRate), hold));
        }
        if (s.bestActive() == null || s.bestEma() == null) {
            return climb(n, ema, ema, max, p, s.target(), String.format(Locale.ROOT, "first measurement %s with %d active", rate(ema), n));
        }
        if (n > s.bestActive()) {
            if (ema > s.bestEma() * (1 + p.minGain())) {
                return climb(n, ema, ema, max, p, s.target(), String.format(Locale.ROOT, "%s with %d active beats %s with %d",
                        rate(ema), n, rate(s.bestEma()), s.bestActive()));
            }
            int back = clamp(s.bestActive(), min, max);
            return new Decision(new State(back, null, back, s.bestEma(), p.holdRounds()), s.target(), ema,
                    String.format(Locale.ROOT, "%d active gave %s, not more than %.0f%% over %s with %d: back to %d and holding %d rounds",
                            n, rate(ema), 100 * p.minGain(), rate(s.bestEma()), s.bestActive(), back, p.holdRounds()));
        }
        // At the best count seen (or below it after a back-off): follow the link's drift, probe again after a while.
        if (s.holdRounds() > 0) {
            return new Decision(new State(n, ema, n, ema, s.holdRounds() - 1), s.target(), ema,
                    String.format(Locale.ROOT, "steady at %d active, %s; probing again in %d round(s)", n, rate(ema), s.holdRounds() - 1));
        }
        return climb(n, ema, ema, max, p, s.target(), String.format(Locale.ROOT, "held %d active at %s", n, rate(ema)));
    }

    private static Decision climb(int n, double ema, double bestEma, int max, Params p, int previous, String why) {
        if (n >= max) {
            return new Decision(new State(n, ema, n, bestEma, p.holdRounds()), previous, ema, why + "; at max_active " + max);
        }
        return new Decision(new State(n + 1, null, n, bestEma, 0), previous, ema, why + "; trying " + (n + 1));
    }

    private static int clamp(int n, int min, int max) {
        return Math.max(min, Math.min(max, n));
    }

    private static double value(Double d) {
        return d == null ? 0 : d;
    }

    static String rate(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.1f MB/s", bytesPerSecond / 1e6);
    }
}

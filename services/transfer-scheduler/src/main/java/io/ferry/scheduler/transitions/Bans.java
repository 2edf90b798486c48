package io.ferry.scheduler.transitions;

/**
 * SQL for FTS3's bans ({@code banned_se}): the one definition of "this file touches a banned SE", used by the
 * claims (a banned SE's files are not taken) and by the ban sweeps.
 */
public final class Bans {

    private Bans() {
    }

    /**
     * True when the SE named by {@code source} or {@code dest} (SQL expressions) is banned for {@code vo}, by a ban
     * ({@code b}) that also meets {@code condition}, or by any ban when that is null.
     */
    public static String banned(String source, String dest, String vo, String condition) {
        return "EXISTS (SELECT 1 FROM banned_se b WHERE (" + source + " = ANY(b.se_names) OR " + dest + " = ANY(b.se_names)) "
                + "AND b.vo IN ('*', " + vo + ")" + (condition == null ? "" : " AND " + condition) + ")";
    }
}

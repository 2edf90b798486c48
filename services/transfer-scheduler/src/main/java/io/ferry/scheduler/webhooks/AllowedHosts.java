package io.ferry.scheduler.webhooks;

import io.ferry.problem.Problem;

import java.net.IDN;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A VO's webhook hosts as its administrator wrote them: exact host names ({@code hooks.example.org}) or every name
 * under a domain ({@code *.example.org}, not the domain itself). Compared in lower case; an IDN is written in its
 * ASCII ({@code xn--}) form, as {@link #FORM} states for the API's document.
 */
public record AllowedHosts(List<String> patterns) {

    public static final int MAX_PATTERNS = 100;
    /** What a pattern looks like, for the API's document: the rule {@link #parse} applies, no address among them. */
    public static final String FORM = "^(?![0-9.*]+$)(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$";
    private static final Pattern NAME = Pattern.compile("(\\*\\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    public boolean allows(String host) {
        String h = normal(host);
        for (String p : patterns) {
            if (p.startsWith("*.") ? h.endsWith(p.substring(1)) && h.length() > p.length() - 1 : h.equals(p)) {
                return true;
            }
        }
        return false;
    }

    /** The patterns an administrator gave, normalised; a field error for each unusable one. */
    public static AllowedHosts parse(List<String> given, String field, List<Problem.FieldError> errors) {
        List<String> out = new ArrayList<>();
        if (given == null) {
            errors.add(new Problem.FieldError(field, "required: a list of host names or *.domain patterns"));
            return new AllowedHosts(out);
        }
        if (given.size() > MAX_PATTERNS) {
            errors.add(new Problem.FieldError(field, "at most " + MAX_PATTERNS + " entries"));
        }
        for (int i = 0; i < given.size(); i++) {
            String p = given.get(i) == null ? "" : given.get(i).toLowerCase(Locale.ROOT);
            if (p.length() > 253 || !NAME.matcher(p).matches() || p.equals("*.") || p.matches("[0-9.*]+")) {
                // names only: a receiver is reached by name, its certificate verified against it
                errors.add(new Problem.FieldError(field + "[" + i + "]", "a host name or *.domain (no address, port or scheme)"));
            } else {
                out.add(p);
            }
        }
        return new AllowedHosts(List.copyOf(out));
    }

    private static String normal(String host) {
        try {
            return IDN.toASCII(host.trim(), IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return host.trim().toLowerCase(Locale.ROOT);
        }
    }
}

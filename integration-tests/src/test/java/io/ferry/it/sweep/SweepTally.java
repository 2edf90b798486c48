package io.ferry.it.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What one service answered to the sweep: counts by status class, and every answer that breaks the rules. */
public final class SweepTally {

    private final String service;
    private final Map<String, Integer> byClass = new TreeMap<>();
    private final Map<Integer, Integer> byStatus = new TreeMap<>();
    private final List<String> serverErrors = new ArrayList<>();
    private final List<String> dropped = new ArrayList<>();
    private final List<String> notProblems = new ArrayList<>();
    private int requests;
    private int ownShaped;
    private int refusedBeforeRouting;

    public SweepTally(String service) {
        this.service = service;
    }

    public synchronized void answered(String request, int status, boolean problemWithCode, boolean ownErrorShape) {
        requests++;
        byClass.merge(status / 100 + "xx", 1, Integer::sum);
        byStatus.merge(status, 1, Integer::sum);
        if (status >= 500) {
            serverErrors.add(request + " -> " + status);
        } else if (status >= 400 && ownErrorShape) {
            ownShaped++;
        } else if (status >= 400 && !problemWithCode) {
            notProblems.add(request + " -> " + status);
        }
    }

    /** A request the HTTP layer refused (bare 400) before any route: its target is not a URI. */
    public synchronized void refusedBeforeRouting(String request) {
        requests++;
        refusedBeforeRouting++;
        byClass.merge("4xx", 1, Integer::sum);
        byStatus.merge(400, 1, Integer::sum);
    }

    public synchronized void dropped(String request, Exception e) {
        requests++;
        dropped.add(request + " -> " + e);
    }

    public List<String> serverErrors() {
        return serverErrors;
    }

    public List<String> dropped() {
        return dropped;
    }

    public List<String> notProblems() {
        return notProblems;
    }

    public int requests() {
        return requests;
    }

    /** The line CI logs show, then one line per offender. */
    public String report() {
        StringBuilder out = new StringBuilder(String.format("sweep: %s %d requests, %d 5xx, %d dropped, %d 4xx without problem+json code %s",
                service, requests, serverErrors.size(), dropped.size(), notProblems.size(), byClass));
        if (ownShaped > 0) {
            out.append(", ").append(ownShaped).append(" 4xx in their API's own error shape (Handle.net's, ALTO's)");
        }
        if (refusedBeforeRouting > 0) {
            out.append(", ").append(refusedBeforeRouting).append(" targets that are no URI refused before routing");
        }
        out.append("\n  by status ").append(byStatus);
        serverErrors.forEach(o -> out.append("\n  5xx     ").append(o));
        dropped.forEach(o -> out.append("\n  dropped ").append(o));
        notProblems.forEach(o -> out.append("\n  no problem+json ").append(o));
        return out.toString();
    }
}

package io.ferry.profiles.model;

import java.util.ArrayList;
import java.util.List;

/** Warnings that depend on where a host sits rather than on the path: its pool and its receivers. */
public final class HostWarnings {

    private HostWarnings() {
    }

    public static List<Recommendation.Warning> forContext(int nicMbps, String pool, Integer receiverNicMbps, Integer txqueuelen,
                                                    Long bufferMax) {
        List<Recommendation.Warning> out = new ArrayList<>();
        if ("internal".equals(pool)) {
            out.add(new Recommendation.Warning("INTERNAL_POOL", "hosts of an internal pool serve hundreds of local connections "
                    + "(worker nodes to the SE); buffers of " + BdpRecommender.human(bufferMax == null ? 0 : bufferMax)
                    + " each can exhaust memory there, and LAN RTTs do not need them: keep WAN tuning to wan-in/wan-out pools"));
        }
        if (receiverNicMbps != null && txqueuelen != null && receiverNicMbps * 4 <= nicMbps && txqueuelen >= 5_000) {
            out.add(new Recommendation.Warning("TXQUEUE_TOWARDS_SLOWER_RECEIVERS", "a " + NicSpeed.format(nicMbps)
                    + " sender with txqueuelen " + txqueuelen + " towards " + NicSpeed.format(receiverNicMbps)
                    + " receivers builds long queues and bursts that the slower side drops; pace with fq or keep txqueuelen near 1000"));
        }
        return out;
    }
}

package io.ferry.rates.alto;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.altopids.PidNames;
import io.ferry.rates.alto.api.CostMap;
import io.ferry.rates.alto.api.NetworkMap;
import io.ferry.rates.alto.api.VersionTag;
import io.ferry.rates.api.Cell;
import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.model.Window;
import io.ferry.rates.repository.LinkCostSources;
import io.ferry.rates.service.CostMatrix;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The cost matrix as ALTO maps (docs/alto.md): every SE a stored link names is a PID ({@link PidNames}); a cost map
 * holds the links that transfers or measurements price, as {@link CostMatrix} does for {@code /cost}.
 */
@ApplicationScoped
public class AltoMaps {

    public static final String NETWORK_MAP_ID = "ferry-network-map";

    final LinkCostSources sources;
    final CostMatrix matrix;
    final ObjectMapper mapper;
    final long referenceSize;
    final int maxRequestBytes;

    @Inject
    public AltoMaps(LinkCostSources sources, CostMatrix matrix, ObjectMapper mapper, RatesConfig config) {
        this.sources = sources;
        this.matrix = matrix;
        this.mapper = mapper;
        this.referenceSize = Window.parseBytes("ferry.rates.alto.filesize", config.alto().filesize());
        this.maxRequestBytes = config.alto().maxRequestBytes();
    }

    /** The PIDs of one reading of the SEs, each with its SE, and the network map's version. */
    record Pids(SortedMap<String, String> seByPid, VersionTag vtag) {
    }

    @WithSpan
    public Uni<NetworkMap> networkMap() {
        return pids().map(p -> new NetworkMap(new NetworkMap.Meta(p.vtag()), groups(p.seByPid())));
    }

    /** The full cost map of a metric. */
    public Uni<CostMap> costMap(AltoMetric metric) {
        return costMap(new CostFilter(metric, java.util.Set.of(), java.util.Set.of(), List.of()));
    }

    /** The filtered cost map of a request body (RFC 7285 §11.3.2); a fault in it is an {@link AltoException}. */
    public Uni<CostMap> filteredCostMap(byte[] body) {
        if (body.length > maxRequestBytes) {
            throw AltoException.tooLarge(body.length, maxRequestBytes);
        }
        return costMap(CostFilter.parse(mapper, body));
    }

    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    @WithSpan
    Uni<CostMap> costMap(CostFilter filter) {
        return pids().flatMap(p -> {
            // Requested PIDs the network map does not define are left out of the answer (RFC 7285 §11.3.2), not refused.
            List<String> froms = ses(p.seByPid(), filter.srcs());
            List<String> tos = ses(p.seByPid(), filter.dsts());
            if (froms.isEmpty() || tos.isEmpty()) {
                return Uni.createFrom().item(costMap(filter, p, List.of()));
            }
            return matrix.pricedLinks(froms, tos, referenceSize).map(cells -> costMap(filter, p, cells));
        });
    }

    private CostMap costMap(CostFilter filter, Pids p, List<Cell> cells) {
        SortedMap<String, Map<String, Double>> costs = new TreeMap<>();
        for (Cell c : cells) {
            double cost = filter.metric().value.applyAsDouble(c);
            // A link whose finished files moved no bytes has no finite cost: it is not priced.
            if (Double.isFinite(cost) && filter.admits(cost)) {
                costs.computeIfAbsent(PidNames.pid(c.from()), k -> new TreeMap<>()).put(PidNames.pid(c.to()), cost);
            }
        }
        return new CostMap(new CostMap.Meta(List.of(p.vtag()), filter.metric().costType()), costs);
    }

    private static List<String> ses(SortedMap<String, String> seByPid, java.util.Set<String> requested) {
        if (requested.isEmpty()) {
            return new ArrayList<>(seByPid.values());
        }
        return requested.stream().map(seByPid::get).filter(java.util.Objects::nonNull).toList();
    }

    Uni<Pids> pids() {
        return sources.ses().map(ses -> {
            SortedMap<String, String> seByPid = new TreeMap<>();
            for (String se : ses) {
                seByPid.put(PidNames.pid(se), se);
            }
            return new Pids(seByPid, new VersionTag(NETWORK_MAP_ID, contentHash(groups(seByPid))));
        });
    }

    /**
     * Each PID's endpoint address group. The aggregator knows SEs by name only (records carry no addresses; their
     * URLs name hosts, not prefixes, and only while raw records are kept), so no group claims addresses it cannot
     * vouch for: each is empty, and a client finds an SE's PID by {@link PidNames#pid}, not by address.
     */
    private static SortedMap<String, Map<String, List<String>>> groups(SortedMap<String, String> seByPid) {
        SortedMap<String, Map<String, List<String>>> groups = new TreeMap<>();
        for (String pid : seByPid.keySet()) {
            groups.put(pid, Map.of());
        }
        return groups;
    }

    /** The vtag: SHA-256 (64 hex digits, §10.3's limit) of the map's JSON, which is sorted, so equal maps agree. */
    private String contentHash(SortedMap<String, Map<String, List<String>>> groups) {
        try {
            byte[] json = mapper.writeValueAsString(groups).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash the network map", e);
        }
    }
}

package io.ferry.rates.repository;

import io.ferry.rates.api.TransferRecord;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ids of rollup keys ({@code rollup_key}: a link, a site pair, a VO and activity). Rollups and queued increments
 * store the id (migration V7 says why). Keys are few and never deleted, so each replica remembers the ids it has
 * seen; a new key costs one statement, shared by a whole batch. A {@code @Singleton}, not {@code @ApplicationScoped}:
 * {@link #id} is called three times per ingested record, and the client proxy's context lookup on each call was 4-5 %
 * of the service's CPU in a profile of a backfill ingest.
 */
@Singleton
public class RollupKeys {

    /**
     * Not a rollup: the key (SE, site) records that an SE belongs to a site, so that {@code /compare?site=} finds the
     * site's links among the keys instead of scanning raw records. No rollup row ever names it.
     */
    public static final String SE_SITE = "se";

    /** A key by name: {@code dim} is link, site or vo (or {@link #SE_SITE}). */
    public record Name(String dim, String k1, String k2) {
    }

    /**
     * Creates the missing keys and answers every id. {@code DO UPDATE} (which changes nothing) rather than
     * {@code DO NOTHING}: it returns the id of a key that already exists, even one another replica has just
     * committed. Sorted, so that two replicas creating the same keys lock them in the same order.
     */
    static final String CREATE = "INSERT INTO rollup_key (dim, k1, k2) SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) "
            + "ORDER BY 1, 2, 3 ON CONFLICT (dim, k1, k2) DO UPDATE SET dim = EXCLUDED.dim RETURNING id, dim, k1, k2";

    final Pool pool;

    @Inject
    public RollupKeys(Pool pool) {
        this.pool = pool;
    }

    private final Map<Name, Integer> ids = new ConcurrentHashMap<>();

    /** Makes sure every key of these records has an id this replica knows. */
    public Uni<Void> register(List<TransferRecord> records) {
        Set<Name> missing = new LinkedHashSet<>();
        for (TransferRecord r : records) {
            addIfUnknown(missing, link(r));
            addIfUnknown(missing, site(r));
            addIfUnknown(missing, vo(r));
            if (r.source_site() != null) {
                addIfUnknown(missing, new Name(SE_SITE, r.source_se(), r.source_site()));
            }
            if (r.dest_site() != null) {
                addIfUnknown(missing, new Name(SE_SITE, r.dest_se(), r.dest_site()));
            }
        }
        if (missing.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] dim = new String[missing.size()], k1 = new String[missing.size()], k2 = new String[missing.size()];
        int i = 0;
        for (Name n : missing) {
            dim[i] = n.dim();
            k1[i] = n.k1();
            k2[i++] = n.k2();
        }
        return pool.preparedQuery(CREATE).execute(Tuple.of(dim, k1, k2)).invoke(rows -> {
            for (Row row : rows) {
                ids.put(new Name(row.getString(1), row.getString(2), row.getString(3)), row.getInteger(0));
            }
        }).replaceWithVoid();
    }

    /** The id of a key {@link #register} has seen. */
    public int id(Name name) {
        Integer id = ids.get(name);
        if (id == null) {
            throw new IllegalStateException("rollup key not registered: " + name);
        }
        return id;
    }

    private void addIfUnknown(Set<Name> missing, Name name) {
        if (!ids.containsKey(name)) {
            missing.add(name);
        }
    }

    public static Name link(TransferRecord r) {
        return new Name("link", r.source_se(), r.dest_se());
    }

    /** Records without sites roll up under the site 'unknown'. */
    public static Name site(TransferRecord r) {
        return new Name("site", r.source_site() == null ? "unknown" : r.source_site(), r.dest_site() == null ? "unknown" : r.dest_site());
    }

    public static Name vo(TransferRecord r) {
        return new Name("vo", r.vo(), r.activity() == null ? TransferRecordStore.DEFAULT_ACTIVITY : r.activity());
    }
}

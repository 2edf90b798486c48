package io.ferry.scheduler.storage;

import io.ferry.storageurl.StorageUrl;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;

/**
 * Which VOs may read and write where on one SE. {@code open}: any VO may read and write anywhere under the SE (how
 * SEs behaved before rights existed; an operator must say so). Otherwise only what a rule grants: a rule names a
 * VO, whether it may read and/or write, and optionally a path prefix relative to the SE's base URL (the same for
 * every protocol's base), matched segment-wise on the decoded canonical path — {@code /atlas/} covers
 * {@code <base>/atlas/x} but neither {@code <base>/atlas2/x} nor {@code <base>/atlas} itself. No rules: closed.
 */
@RegisterForReflection  // a JSON column of the SE entity and part of the SE API: Jackson reads and writes it
public record StorageAccess(boolean open, List<Rule> rules) {

    public static final StorageAccess CLOSED = new StorageAccess(false, List.of());

    public StorageAccess {
        rules = rules == null ? List.of() : List.copyOf(rules);
    }

    /** One grant; {@code path} null or "/" for the whole SE. */
    @RegisterForReflection
    public record Rule(String vo, boolean read, boolean write, String path) {
    }

    public enum Operation {
        READ, WRITE;

        public String verb() {
            return this == READ ? "read" : "write";
        }
    }

    /** Whether {@code vo} may do {@code op} on {@code url}, which must lie below the SE's {@code base}. */
    public boolean allows(String vo, Operation op, StorageUrl url, StorageUrl base) {
        return at(base).allows(vo, op, url);
    }

    /** These rights at one base URL of the SE; the rules' places below it are resolved once each, when first needed. */
    public AtBase at(StorageUrl base) {
        return new AtBase(base);
    }

    /** The SE's rights at one of its base URLs, for checking many URLs below it. */
    public final class AtBase {

        private final StorageUrl base;
        private final StorageUrl[] ruleBases = new StorageUrl[rules.size()];

        private AtBase(StorageUrl base) {
            this.base = base;
        }

        /** Whether {@code vo} may do {@code op} on {@code url}, which must lie below this base. */
        public boolean allows(String vo, Operation op, StorageUrl url) {
            if (vo == null || !url.isWithin(base)) {
                return false;
            }
            if (open) {
                return true;
            }
            for (int i = 0; i < rules.size(); i++) {
                Rule r = rules.get(i);
                if (vo.equals(r.vo()) && (op == Operation.READ ? r.read() : r.write()) && url.isWithin(ruleBase(i))) {
                    return true;
                }
            }
            return false;
        }

        private StorageUrl ruleBase(int i) {
            if (ruleBases[i] == null) {
                String path = rules.get(i).path();
                ruleBases[i] = base.resolve(path == null ? "" : path);
            }
            return ruleBases[i];
        }
    }
}

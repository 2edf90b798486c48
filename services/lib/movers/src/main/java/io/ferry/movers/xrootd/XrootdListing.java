package io.ferry.movers.xrootd;

import io.ferry.movers.DirectoryListing;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;

import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

import static io.ferry.movers.xrootd.XrootdProtocol.*;

/**
 * A directory tree on an XRootD server, listed one directory at a time with kXR_dirlist (Depth 1 of a walk Ferry
 * drives), each entry's stat asked along ({@code kXR_dstat}; a server without it is asked kXR_stat per entry).
 * XRootD follows links on the server, so a link loop would list forever: the walk stops at {@value #MAX_DEPTH}
 * levels and at {@value #MAX_ENTRIES} entries, failing the listing rather than cutting it short.
 */
final class XrootdListing {

    static final int MAX_DEPTH = 64;
    static final int MAX_ENTRIES = 1_000_000;
    /** What a kXR_dstat answer starts with: the directory's own entry, no stat of its own (all of it for an empty one). */
    private static final String DSTAT_LEAD = ".\n0 0 0 0";

    private final XrootdRequests requests;

    XrootdListing(XrootdRequests requests) {
        this.requests = requests;
    }

    private record Pending(String path, int depth) {
    }

    DirectoryListing.Listing list(URI dir, StorageCredential credential, Predicate<String> keep, int limit) throws MoverException {
        XrootdTarget top = XrootdTarget.of(dir, "list");
        List<DirectoryListing.ListedFile> kept = new ArrayList<>();
        long matching = 0;
        long entries = 0;
        Deque<Pending> todo = new ArrayDeque<>();
        todo.add(new Pending("", 0));
        while (!todo.isEmpty()) {
            Pending d = todo.poll();
            XrootdTarget target = new XrootdTarget(top.host(), top.port(), top.tls(), top.path() + (d.path().isEmpty() ? "" : "/" + d.path()));
            for (Entry e : entries(target, credential, dir)) {
                if (++entries > MAX_ENTRIES) {
                    throw new MoverException(MoverException.Code.HTTP_ERROR, "list", dir + " has more than " + MAX_ENTRIES + " entries");
                }
                String path = d.path().isEmpty() ? e.name() : d.path() + "/" + e.name();
                if ((e.flags() & STAT_IS_DIR) != 0) {
                    if (d.depth() + 1 >= MAX_DEPTH) {
                        throw new MoverException(MoverException.Code.HTTP_ERROR, "list",
                                dir + " is deeper than " + MAX_DEPTH + " levels (a link loop?) at " + path);
                    }
                    todo.add(new Pending(path, d.depth() + 1));
                } else if ((e.flags() & STAT_OTHER) == 0 && keep.test(path) && matching++ < limit) {
                    kept.add(new DirectoryListing.ListedFile(path, e.size()));
                }
            }
        }
        return new DirectoryListing.Listing(kept, matching);
    }

    private record Entry(String name, long size, int flags) {
    }

    private List<Entry> entries(XrootdTarget target, StorageCredential credential, URI dir) throws MoverException {
        byte[] body = new byte[16];
        body[15] = (byte) DIRLIST_DSTAT;
        String text = requests.ask(target, credential, DIRLIST, body, null, "kXR_dirlist", dir, XrootdErrors.Role.SOURCE, "list").text();
        List<Entry> out = new ArrayList<>();
        if (text.startsWith(DSTAT_LEAD)) {
            String rest = text.substring(DSTAT_LEAD.length());
            String[] lines = rest.isEmpty() ? new String[0] : rest.substring(1).split("\n");
            for (int i = 0; i + 1 < lines.length; i += 2) {
                out.add(entry(lines[i], lines[i + 1], dir));
            }
            return out;
        }
        for (String name : text.split("\n")) {
            if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                continue;
            }
            XrootdTarget child = new XrootdTarget(target.host(), target.port(), target.tls(), target.path() + "/" + name);
            String stat = requests.ask(child, credential, STAT, new byte[16], null, "kXR_stat", dir, XrootdErrors.Role.SOURCE, "list").text();
            out.add(entry(name, stat, dir));
        }
        return out;
    }

    /** An entry from its name and its stat line "id size flags modtime". */
    private static Entry entry(String name, String stat, URI dir) throws MoverException {
        if (name.equals(".") || name.equals("..") || name.contains("/")) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, "list", dir + ": the server listed an entry named '" + name + "'");
        }
        String[] f = stat.trim().split("\\s+");
        try {
            return new Entry(name, Long.parseLong(f[1]), Integer.parseInt(f[2]));
        } catch (RuntimeException e) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, "list", dir + ": unreadable stat of '" + name + "': '" + stat + "'");
        }
    }
}

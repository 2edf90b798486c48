"""`gfal-copy ARGS... --from-file LIST DEST_COLLECTION` for transfer-bench.sh (b): gfal-copy's own code (gfal2_util),
its per-file steps (stat the source, look at the destination, copy) unchanged, with one exception. gfal-copy learns
that DEST_COLLECTION is a collection, and so names each copy after its source, only from a stat of it, which nginx's
WebDAV module cannot answer (no PROPFIND): without the exception it copies every file onto the collection itself and
is refused (403). That one stat is answered here as "a collection"; every other call goes to gfal2.

  python3 gfal-copy-from-file.py [gfal-copy options] --from-file LIST DEST_COLLECTION
"""
import stat
import sys

import gfal2
from gfal2_util.shell import Gfal2Shell

collection = sys.argv[-1].rstrip("/")


class Collection:
    st_mode = stat.S_IFDIR | 0o755
    st_size = 0


class Context:
    """gfal2's context, but for the stat of the destination collection."""

    def __init__(self, context):
        self._context = context

    def stat(self, url):
        return Collection() if url.rstrip("/") == collection else self._context.stat(url)

    def __getattr__(self, name):
        return getattr(self._context, name)


create_context = gfal2.creat_context
gfal2.creat_context = lambda: Context(create_context())
sys.exit(Gfal2Shell().main(["gfal-copy"] + sys.argv[1:]))

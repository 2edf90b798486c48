"""gfal2's own bulk copy, streamed, for transfer-bench.sh (b): every source of LIST into DEST_COLLECTION in one
filecopy call of one gfal2 context, the copy mode set as `gfal-copy --copy-mode streamed` sets it.

`gfal-copy --from-file LIST DEST` drives the same copies, but finds the file names only by a stat of DEST that tells
it is a collection; nginx's WebDAV module answers no PROPFIND, so gfal-copy copies every file onto DEST itself (403).

  python3 gfal-bulk.py [-D GROUP:KEY=VALUE]... LIST DEST_COLLECTION

-D sets a gfal2 option as gfal-copy's -D does (the S3 plugin's keys: -D S3:ACCESS_KEY=… -D S3:SECRET_KEY=…).
"""
import os
import sys

import gfal2

args = sys.argv[1:]
options = []
while len(args) > 2 and args[0] == "-D":
    group, _, setting = args[1].partition(":")
    key, _, value = setting.partition("=")
    options.append((group, key, value))
    args = args[2:]
sources = [line.strip() for line in open(args[0]) if line.strip()]
collection = args[1].rstrip("/") + "/"
context = gfal2.creat_context()
for group, key, value in options:
    context.set_opt_string(group, key, value)
context.set_opt_boolean("HTTP PLUGIN", "ENABLE_REMOTE_COPY", False)
context.set_opt_string("HTTP PLUGIN", "DEFAULT_COPY_MODE", "streamed")
errors = context.filecopy(context.transfer_parameters(), sources, [collection + os.path.basename(s) for s in sources])
failed = [(s, e) for s, e in zip(sources, errors) if e is not None]
for source, error in failed[:5]:
    print("gfal-bulk: %s: %s" % (source, error), file=sys.stderr)
sys.exit(1 if failed else 0)

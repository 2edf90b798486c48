"""Prints, as one JSON object, what Rucio knows of a dataset's replication to an RSE: the rule, each file with its
checksums, its latest transfer request and its replica's state on the RSE, and the transfer links of Rucio's
transfer events (the `transfer_link` its FTS3 transfertool builds to FTS3's web monitor), and the files' replicas the
finisher declared suspicious.

Usage: inspect-rule.py SCOPE DATASET RSE, with RUCIO_CONFIG and RUCIO_CLIENT_MODE=1 as setup.sh prints them. The
events are read from Rucio's database (its `messages` table, which hermes would empty), the rest through the client.
"""
import json
import sys

from rucio.client import Client
from rucio.common.exception import RequestNotFound

scope, dataset, rse = sys.argv[1:4]
client = Client()
rules = [r for r in client.list_did_rules(scope, dataset) if r['rse_expression'] == rse]
out = {'rule': None, 'files': [], 'transfer_events': []}
if rules:
    r = rules[0]
    out['rule'] = {'id': r['id'], 'state': r['state'], 'priority': r['priority'], 'locks_ok': r['locks_ok_cnt'],
                   'locks_replicating': r['locks_replicating_cnt'], 'locks_stuck': r['locks_stuck_cnt']}
names = [c['name'] for c in client.list_content(scope, dataset)]
replicas = {x['name']: x for x in client.list_replicas([{'scope': scope, 'name': n} for n in names], all_states=True)}
for name in sorted(names):
    rep = replicas.get(name, {})
    f = {'name': name, 'bytes': rep.get('bytes'), 'adler32': rep.get('adler32'), 'md5': rep.get('md5'),
         'replica_state': (rep.get('states') or {}).get(rse), 'request': None}
    try:
        q = client.list_request_by_did(name, rse, scope)
        f['request'] = {k: q.get(k) for k in ('id', 'state', 'external_id', 'external_host', 'source_rse', 'dest_url',
                                               'err_msg', 'retry_count', 'priority')}
    except RequestNotFound:
        pass
    out['files'].append(f)

# Rucio's own events for these files (transfer-submitted, -queued, -done, -failed), as hermes would send them
from rucio.core.message import retrieve_messages  # noqa: E402 (the server side's API, same configuration)

for m in retrieve_messages(bulk=10000):
    p = m['payload']
    if m['event_type'].startswith('transfer-') and p.get('scope') == scope and p.get('name') in names \
            and p.get('dst-rse') == rse:
        out['transfer_events'].append({'event_type': m['event_type'], 'name': p.get('name'),
                                       'transfer_id': p.get('transfer-id'), 'transfer_link': p.get('transfer_link'),
                                       'reason': p.get('reason')})
# replicas the finisher declared suspicious ([conveyor] suspicious_pattern matched a failed transfer's reason)
from rucio.core.replica import list_bad_replicas_status  # noqa: E402
from rucio.db.sqla.constants import BadFilesStatus  # noqa: E402

out['suspicious'] = [{'name': b['name'], 'rse': b['rse']} for b in list_bad_replicas_status(state=BadFilesStatus.SUSPICIOUS)
                     if b['scope'].external == scope and b['name'] in names]
print(json.dumps(out, default=str))

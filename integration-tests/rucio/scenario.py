"""Rucio's side of "Rucio moves data through Ferry", with rucio-clients' Python API as an operator would use it.

Creates (each step idempotent, so it can run again):
  - RSEs FERRY_A and FERRY_B (deterministic disk RSEs), and FERRY_TAPE when SE_TAPE_URL is set, each with one WebDAV
    protocol parsed from SE_A_URL / SE_B_URL / SE_TAPE_URL (scheme://host:port/prefix, scheme davs, https, dav or http)
    and the RSE attribute `fts` = FERRY_FTS3_URL (how Rucio's FTS3 transfertool picks the FTS3 host for a transfer:
    the destination RSE's `fts`, both RSEs need one)
  - distances A->B, B->A (and A->TAPE): without a distance the submitter finds no source
  - the root account's local limits on every RSE, and the scope SCOPE
  - a dataset SCOPE:DATASET with FILES files registered as replicas on FERRY_A (bytes, adler32, md5); when SE_A_DIR
    names the directory the SE at SE_A_URL serves, the files are written there at the paths Rucio computes
  - a replication rule of the dataset to FERRY_B (RULE_RSE), one copy
Prints what it made and the dataset's transfer requests as the server shows them.

Environment: RUCIO_CONFIG and RUCIO_CLIENT_MODE=1 as setup.sh prints them; FERRY_FTS3_URL, SE_A_URL, SE_B_URL,
optional SE_TAPE_URL (with TAPE_ARCHIVE_TIMEOUT, 86400), MORE_RSES (more disk RSEs, each NAME=URL or NAME=URL#checksums
with the RSE attribute supported_checksums, e.g. "FERRY_MD5=http://127.0.0.1:8081/se-md5/rucio#md5": Rucio then
sends the transfers to it with that algorithm; distances from FERRY_A), MULTIHOP_VIA and MULTIHOP_TO (two of MORE_RSES:
the first gets available_for_multihop, the second a distance from it only, none from FERRY_A, so that Rucio reaches it
through the first in one multihop job), ALSO_ON (an RSE of SE_*_URL or MORE_RSES that holds the files too, at
distance 2 from RULE_RSE, and SE_ALSO_DIR the directory its SE serves, to write them there), SE_A_DIR, SCOPE (ferry), DATASET (dataset1), FILES (2), FILE_BYTES (1048576), RULE_RSE (FERRY_B),
ACTIVITY (User Subscriptions), TOKEN_RSES (RSEs given the attribute oidc_support: a transfer between two of them over
davs is submitted in Rucio's token mode, with a bearer token toward FTS3 and one per source and destination, all
from the IdP of [oidc] admin_issuer), SOURCE_RSE (FERRY_A: the RSE that holds the dataset, SE_SOURCE_DIR the
directory its SE serves; with another, a distance from it to RULE_RSE).
"""
import hashlib
import json
import os
import sys
import zlib
from urllib.parse import urlparse

from rucio.client import Client
from rucio.common.exception import DataIdentifierAlreadyExists, Duplicate, FileAlreadyExists, RSEProtocolPriorityError

env = os.environ.get
fts = env('FERRY_FTS3_URL', 'https://127.0.0.1:8446')
scope = env('SCOPE', 'ferry')
dataset = env('DATASET', 'dataset1')
nfiles = int(env('FILES', '2'))
file_bytes = int(env('FILE_BYTES', str(1024 * 1024)))
rule_rse = env('RULE_RSE', 'FERRY_B')
activity = env('ACTIVITY', 'User Subscriptions')
rses = {'FERRY_A': (env('SE_A_URL', 'davs://127.0.0.1:8081/se-a/rucio'), 'DISK'),
        'FERRY_B': (env('SE_B_URL', 'davs://127.0.0.1:8081/se-b/rucio'), 'DISK')}
if env('SE_TAPE_URL'):
    rses['FERRY_TAPE'] = (env('SE_TAPE_URL'), 'TAPE')
checksums = {}
for more in env('MORE_RSES', '').split():
    name, _, url = more.partition('=')
    url, _, algorithms = url.partition('#')
    rses[name] = (url, 'DISK')
    if algorithms:
        checksums[name] = algorithms

client = Client()
account = client.account


def quietly(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except (DataIdentifierAlreadyExists, Duplicate, FileAlreadyExists, RSEProtocolPriorityError):
        return None


all_ops = {'read': 1, 'write': 1, 'delete': 1, 'third_party_copy_read': 1, 'third_party_copy_write': 1}
for rse, (url, rse_type) in rses.items():
    u = urlparse(url)
    quietly(client.add_rse, rse, deterministic=True, rse_type=rse_type)
    quietly(client.add_protocol, rse, {
        'scheme': u.scheme, 'hostname': u.hostname, 'port': u.port or (443 if u.scheme in ('davs', 'https') else 80),
        'prefix': u.path.rstrip('/') + '/', 'impl': 'rucio.rse.protocols.webdav.Default',
        'domains': {'lan': {'read': 1, 'write': 1, 'delete': 1}, 'wan': all_ops}})
    client.add_rse_attribute(rse, 'fts', fts)
    if rse_type == 'TAPE':
        # a tape destination's job gets params.archive_timeout (and dst_file_report) from this attribute
        client.add_rse_attribute(rse, 'archive_timeout', int(env('TAPE_ARCHIVE_TIMEOUT', '86400')))
    if rse in env('TOKEN_RSES', '').split():
        # Rucio's token mode: a transfer whose RSEs all support OIDC (over davs) is submitted with tokens
        client.add_rse_attribute(rse, 'oidc_support', True)
    if rse in checksums:
        # the algorithms Rucio may ask the transfertool to verify on this RSE (default: adler32 and md5)
        client.add_rse_attribute(rse, 'supported_checksums', checksums[rse])
    client.set_local_account_limit(account, rse, 10 ** 12)
via, behind = env('MULTIHOP_VIA'), env('MULTIHOP_TO')
if via:
    # Rucio plans multihop paths through the RSEs matching [transfers] multihop_rse_expression (this attribute by default)
    client.add_rse_attribute(via, 'available_for_multihop', True)
links = [('FERRY_A', 'FERRY_B'), ('FERRY_B', 'FERRY_A')] + [('FERRY_A', r) for r in rses if r not in ('FERRY_A', 'FERRY_B', behind)]
if via and behind:
    links.append((via, behind))
source_rse = env('SOURCE_RSE', 'FERRY_A')
if source_rse != 'FERRY_A':
    links.append((source_rse, rule_rse))
for src, dst in links:
    quietly(client.add_distance, src, dst, {'distance': 1})
quietly(client.add_scope, account, scope)

files = []
for i in range(1, nfiles + 1):
    name = f'{dataset}.file{i}'
    data = hashlib.sha256(f'{scope}:{name}'.encode()).digest() * (file_bytes // 32 + 1)
    data = data[:file_bytes]
    files.append({'scope': scope, 'name': name, 'bytes': len(data),
                  'adler32': '%08x' % zlib.adler32(data), 'md5': hashlib.md5(data).hexdigest(), '_data': data})
quietly(client.add_dataset, scope, dataset)
holders = {source_rse: env('SE_SOURCE_DIR') if source_rse != 'FERRY_A' else env('SE_A_DIR')}
if env('ALSO_ON'):
    holders[env('ALSO_ON')] = env('SE_ALSO_DIR')
for rse in holders:
    quietly(client.add_replicas, rse, [{k: v for k, v in f.items() if k != '_data'} for f in files])
quietly(client.attach_dids, scope, dataset, [{'scope': scope, 'name': f['name']} for f in files])
if env('ALSO_ON'):
    # the second copy is the farther source: Rucio tries FERRY_A's first
    quietly(client.add_distance, env('ALSO_ON'), rule_rse, {'distance': 2})

for rse, directory in holders.items():
    base = urlparse(rses[rse][0])
    for rep in client.list_replicas([{'scope': scope, 'name': f['name']} for f in files], schemes=[base.scheme]):
        pfn = next(iter(rep['rses'].get(rse, [])), None)
        print(json.dumps({'name': rep['name'], 'bytes': rep['bytes'], 'adler32': rep['adler32'], 'md5': rep['md5'], 'rse': rse, 'pfn': pfn}))
        if directory and pfn:
            path = os.path.join(directory, urlparse(pfn).path[len(base.path.rstrip('/')) + 1:])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'wb') as out:
                out.write(next(f['_data'] for f in files if f['name'] == rep['name']))

rules = [r for r in client.list_did_rules(scope, dataset) if r['rse_expression'] == rule_rse]
if rules:
    rule_id = rules[0]['id']
else:
    rule_id = client.add_replication_rule([{'scope': scope, 'name': dataset}], 1, rule_rse, activity=activity)[0]
rule = client.get_replication_rule(rule_id)
print(json.dumps({'rule': rule_id, 'state': rule['state'], 'locks_ok': rule['locks_ok_cnt'],
                  'locks_replicating': rule['locks_replicating_cnt'], 'locks_stuck': rule['locks_stuck_cnt']}))
for f in files:
    try:
        req = client.list_request_by_did(f['name'], rule_rse, scope)  # the latest request, a dict
        print(json.dumps({'request': req['id'], 'name': req['name'], 'state': req['state'], 'retry_count': req['retry_count'],
                          'external_host': req['external_host'], 'external_id': req['external_id'], 'dest_url': req['dest_url']}))
    except Exception as e:  # no request (yet) for this file
        print(f"{f['name']}: no request to {rule_rse}: {type(e).__name__}", file=sys.stderr)

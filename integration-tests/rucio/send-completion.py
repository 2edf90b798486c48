"""Publishes, for each file of the dataset, an FTS3 completion message shaped as Ferry (and FTS3) sends it, to the
broker of rucio.cfg's [messaging-fts3], for the file's latest SUBMITTED request to RULE_RSE: a check of Rucio's
receiver and finisher without Ferry. STATE is Ok (default) or Error. Environment as scenario.py's, plus BROKER_VO.
"""
import json
import os
import time

import stomp

from rucio.client import Client
from rucio.common.config import config_get, config_get_int

env = os.environ.get
scope, dataset, rule_rse = env('SCOPE', 'ferry'), env('DATASET', 'dataset1'), env('RULE_RSE', 'FERRY_B')
state = env('STATE', 'Ok')
client = Client()
conn = stomp.Connection12(host_and_ports=[(config_get('messaging-fts3', 'brokers'), config_get_int('messaging-fts3', 'port'))])
conn.connect(wait=True)
now = int(time.time() * 1000)
for did in client.list_content(scope, dataset):
    req = client.list_request_by_did(did['name'], rule_rse, scope)
    if req['state'] != 'SUBMITTED':
        print(did['name'], 'request', req['id'], 'is', req['state'], '- nothing sent')
        continue
    job_id = req['external_id']
    msg = {
        'endpnt': req['external_host'], 'vo': env('BROKER_VO', 'atlas'), 'job_id': job_id, 'file_id': 1,
        'tr_id': time.strftime('%Y-%m-%d-%H%M', time.gmtime()) + f'__127.0.0.1__127.0.0.1__1__{job_id}',
        'src_url': 'davs://source', 'dst_url': req['dest_url'],
        't_final_transfer_state': state, 't__error_message': '' if state == 'Ok' else 'stand-in failure',
        'job_state': 'FINISHED' if state == 'Ok' else 'FAILED', 'job_multihop': False, 'is_archiving': False,
        'tr_timestamp_start': now - 1000, 'tr_timestamp_complete': now,
        'job_metadata': {'issuer': 'rucio', 'multi_sources': False, 'overwrite_when_only_on_disk': False},
        'file_metadata': {'request_id': req['id'], 'scope': scope, 'name': did['name'], 'activity': req['activity'],
                          'src_rse': req['source_rse'], 'dst_rse': req['dest_rse'], 'src_type': 'DISK', 'dst_type': 'DISK',
                          'filesize': req['bytes'], 'md5': req['md5'], 'adler32': req['adler32']},
    }
    conn.send(destination=config_get('messaging-fts3', 'destination'), body=json.dumps(msg), headers={'vo': msg['vo']})
    print(did['name'], 'request', req['id'], 'job', job_id, '->', state)
conn.disconnect()

"""A stand-in FTS3 REST server that records what Rucio's FTS3 transfertool sends: every request (method, path,
headers, JSON body) is appended as one JSON line to the file named by argv[2] and answered STATUS (argv[3], default
500, so that the submitter marks the requests SUBMISSION_FAILED and tries again later; 200 answers a POST /jobs with a
new job_id, as FTS3 does, and anything else, such as the poller's GET /jobs/..., with 500). Plain HTTP on 127.0.0.1:argv[1]; with FAKE_FTS3_TLS_CERT (a PEM with the server's certificate and key) HTTPS,
asking for a client certificate, which FAKE_FTS3_TLS_CA (a CA file) must have signed, and recording its subject.
  python fake-fts3.py 8446 /tmp/fts3-requests.jsonl 500
"""
import json
import os
import ssl
import sys
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, log, status = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 500


class Handler(BaseHTTPRequestHandler):
    def _record(self):
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length).decode() if length else ''
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        with open(log, 'a') as out:
            peer = self.connection.getpeercert() if hasattr(self.connection, 'getpeercert') else None
            client = ','.join('='.join(x) for rdn in (peer or {}).get('subject', ()) for x in rdn) or None
            out.write(json.dumps({'method': self.command, 'path': self.path, 'headers': dict(self.headers),
                                  'client_certificate': client, 'body': body}) + '\n')
        code = status
        if status == 200 and self.command == 'POST' and self.path.rstrip('/') == '/jobs':
            answer = json.dumps({'job_id': str(uuid.uuid4())}).encode()  # as FTS3 answers a submission
        else:
            code = 500 if status == 200 else status
            answer = json.dumps({'status': f'{code} stand-in', 'message': 'fake-fts3 records requests only'}).encode()
        self.send_response(code)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_GET = do_POST = do_PUT = do_DELETE = _record


server = ThreadingHTTPServer(('127.0.0.1', port), Handler)
if os.environ.get('FAKE_FTS3_TLS_CERT'):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.environ['FAKE_FTS3_TLS_CERT'])
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(os.environ['FAKE_FTS3_TLS_CA'])
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()

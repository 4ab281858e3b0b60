"""The TV page and its JSON: `/`, `/api/tables`, `/api/leaderboard`, `/api/stats` (the
service's counters), `/api/events` (Server-Sent Events: the tables and the leaderboard on every
change, at most ten a second, and a comment every 15 s)."""

import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from venue import host_api

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tv.html')
KEEPALIVE = 15
MIN_GAP = 0.1   # at most ten pushes a second to a TV: a busy night is coalesced, not queued


def snapshot(svc):
    return {'tables': svc.table_list(), 'leaderboard': svc.leaderboard()}


class Handler(BaseHTTPRequestHandler):
    svc = None
    page = b''
    protocol_version = 'HTTP/1.1'

    def log_message(self, fmt, *args):   # the service logs what matters; no line per request
        pass

    def _send(self, code, body, ctype='application/json'):
        self.send_response(code)
        self.send_header('Content-Type', ctype)
        self.send_header('Content-Length', str(len(body)))
        self.send_header('Cache-Control', 'no-store')
        self.end_headers()
        self.wfile.write(body)

    def _json(self, obj):
        self._send(200, json.dumps(obj).encode())

    def do_GET(self):
        path = self.path.split('?', 1)[0]
        if path == '/':
            self._send(200, self.page, 'text/html; charset=utf-8')
        elif path == '/api/tables':
            self._json({'tables': self.svc.table_list()})
        elif path == '/api/leaderboard':
            self._json(self.svc.leaderboard())
        elif path == '/api/stats':
            self._json(dict(self.svc.stats, tables=len(self.svc.tables),
                            version=self.svc.version, per_venue=self.svc.per_venue,
                            subscribed=self.svc.subscribed.is_set()))
        elif path == '/api/events':
            self._events()
        elif not host_api.get(self, path):     # the tournaments (host_api.py)
            self._send(404, b'{"error": "not found"}')

    def do_POST(self):
        if not host_api.post(self, self.path.split('?', 1)[0]):
            self.close_connection = True
            self._send(404, b'{"error": "not found"}')

    def _events(self):
        svc = self.svc
        self.send_response(200)
        self.send_header('Content-Type', 'text/event-stream')
        self.send_header('Cache-Control', 'no-store')
        self.send_header('Connection', 'close')
        self.end_headers()
        self.close_connection = True
        seen = -1
        try:
            while not self.server.closing:
                with svc.changed:
                    if svc.version == seen:
                        svc.changed.wait(KEEPALIVE)
                    version = svc.version
                if version != seen:
                    seen = version
                    data = json.dumps(snapshot(svc))
                    self.wfile.write(('data: %s\n\n' % data).encode())
                else:
                    self.wfile.write(b': keepalive\n\n')
                self.wfile.flush()
                time.sleep(MIN_GAP)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    closing = False

    def server_close(self):
        self.closing = True
        super().server_close()


def serve(svc, host, port):
    """The server bound (port 0: any free one); run serve_forever() in a thread or in main."""
    with open(PAGE, 'rb') as f:
        page = f.read()
    handler = type('VenueHandler', (Handler,), {'svc': svc, 'page': page})
    return Server((host, port), handler)


def serve_in_thread(svc, host='127.0.0.1', port=0):
    server = serve(svc, host, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server

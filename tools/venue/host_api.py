"""The tournaments' HTTP side (DESIGN section 13), for web.py's handler: the JSON API, the
host's page `/host` and the TV's tournament panel script `/tournament.js`.

    GET  /api/tournaments                   the tournaments, newest first (summaries)
    GET  /api/tournaments/<id>              rounds, matches (id, red, blue, table, state
                                            waiting|playing|done, winner), standings, next
    POST /api/tournaments                   (host) create: name, format, doubles, draw, seed,
                                            game, options, players, tables, venue, start
    POST /api/tournaments/<id>/players      (host) {"name"}: sign a player up
    POST /api/tournaments/<id>/start        (host) {}: the draw, the first matches out
    POST /api/tournaments/<id>/withdraw     (host) {"name"}
    POST /api/matches/<id>/result           (host) {"winner", "red", "blue"}: a result or a
                                            correction
    POST /api/matches/<id>/move             (host) {"table": name or null}

The host's calls need `Authorization: Bearer <HOST_PASSWORD>` (the service's environment; 401
without or wrong, 403 when the service has none set), `Content-Type: application/json` (415), a
body of at most MAX_BODY bytes (413) that is a JSON object (400). A refusal is 400 (404 for an
unknown tournament or match) with {"error": a sentence}.
"""

import hmac
import json
import os
import re

from venue.night import NotFound
from venue.tournament import TournamentError

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_BODY = 16 * 1024
_T = re.compile(r'^/api/tournaments/(\d{1,9})(/(players|start|withdraw))?$')
_M = re.compile(r'^/api/matches/([A-Za-z0-9]{1,40})/(result|move)$')


def _file(name):
    with open(os.path.join(HERE, name), 'rb') as f:
        return f.read()


def _error(h, code, text):
    h._send(code, json.dumps({'error': text}).encode())


def get(h, path):
    """A GET web.py does not know; True when answered here."""
    night = h.svc.night
    if path == '/host':
        h._send(200, _file('host.html'), 'text/html; charset=utf-8')
        return True
    if path == '/tournament.js':
        h._send(200, _file('tournament.js'), 'text/javascript; charset=utf-8')
        return True
    if night is None or not path.startswith('/api/tournaments'):
        return False
    if path == '/api/tournaments':
        h._json({'tournaments': night.summaries()})
        return True
    m = _T.match(path)
    if not m or m.group(2):
        return False
    try:
        h._json(night.view(int(m.group(1))))
    except NotFound as e:
        _error(h, 404, str(e))
    return True


def _authorised(h):
    want = os.environ.get('HOST_PASSWORD')
    if not want:
        _error(h, 403, 'the host page needs HOST_PASSWORD set where the service starts')
        return False
    got = h.headers.get('Authorization', '')
    if not got.startswith('Bearer ') or not hmac.compare_digest(
            got[7:].encode('utf-8', 'replace'), want.encode()):
        _error(h, 401, 'wrong or missing host password')
        return False
    return True


def _body(h):
    ctype = h.headers.get('Content-Type', '').split(';')[0].strip().lower()
    if ctype != 'application/json':
        _error(h, 415, 'send JSON (Content-Type: application/json)')
        return None
    try:
        n = int(h.headers.get('Content-Length', ''))
    except ValueError:
        _error(h, 411, 'a body needs its Content-Length')
        return None
    if n > MAX_BODY or n < 0:
        _error(h, 413, 'at most %d bytes' % MAX_BODY)
        return None
    raw = h.rfile.read(n)
    try:
        d = json.loads(raw.decode('utf-8'), object_pairs_hook=_no_repeats)
    except (UnicodeDecodeError, ValueError) as e:
        _error(h, 400, 'not JSON: %s' % str(e)[:80])
        return None
    if not isinstance(d, dict):
        _error(h, 400, 'the body is a JSON object')
        return None
    return d


def _no_repeats(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError('the key %r is repeated' % k[:20])
        d[k] = v
    return d


def post(h, path):
    """A POST; True when answered here (everything under /api/tournaments and /api/matches)."""
    night = h.svc.night
    if night is None or not path.startswith(('/api/tournaments', '/api/matches/')):
        return False
    h.close_connection = True         # a refused body is not read: no keep-alive after it
    if not _authorised(h):
        return True
    body = _body(h)
    if body is None:
        return True
    try:
        if path == '/api/tournaments':
            t = night.create(body)
            h._send(201, json.dumps(night.view(t.id)).encode())
            return True
        m = _T.match(path)
        if m and m.group(2):
            tid, what = int(m.group(1)), m.group(3)
            if what == 'players':
                night.add_player(tid, body.get('name'))
            elif what == 'start':
                night.start(tid)
            else:
                night.withdraw(tid, body.get('name'))
            h._json(night.view(tid))
            return True
        m = _M.match(path)
        if m:
            mid, what = m.group(1), m.group(2)
            if what == 'result':
                t = night.host_result(mid, body)
            else:
                if set(body) != {'table'}:
                    raise TournamentError('a move is {"table": name or null}')
                t = night.move(mid, body['table'])
            h._json(night.view(t.id))
            return True
        _error(h, 404, 'not found')
    except NotFound as e:
        _error(h, 404, str(e))
    except TournamentError as e:
        _error(h, 400, str(e))
    return True

"""A mosquitto configuration for one bar: `make venue-broker VENUE=name TABLES=N [DIR=folder]`.

Writes into the folder (default build/broker/):
- `mosquitto.conf`: one listener, no anonymous clients, the password file and the ACL below,
  persistence (the service's queued games survive a broker restart), and each client's id taken
  from its user name, so no client can take over another's session (the service's above all);
- `passwd`: one user per table, `<venue>-<table>`, one for the service, `<venue>-service`, and
  one for Home Assistant, `<venue>-homeassistant`, hashed as mosquitto's own (PBKDF2-SHA512,
  `$7$`), by Debian's `mosquitto_passwd` when it is installed;
- `acl`: each table publishes only its own `state`, `status` and `game` under
  `shuffleboard/<venue>/<table>/` (and its own Home Assistant configs) and reads only its
  `match` topic; the service reads every table and publishes the `match` topics; Home Assistant
  reads.

A password is printed once, when it is made; users already in `passwd` keep theirs (run it
again with more TABLES to add tables). Passwords are never passed on a command line.
"""

import argparse
import base64
import hashlib
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile

ITERATIONS = 101   # what mosquitto_passwd 2.0 uses
_LEVEL = re.compile(r'^[A-Za-z0-9_-]{1,32}$')


def pbkdf2_line(user, password, salt=None):
    """`user:$7$101$salt$hash`, the format mosquitto 2.0 reads."""
    salt = salt or os.urandom(12)
    h = hashlib.pbkdf2_hmac('sha512', password.encode(), salt, ITERATIONS)
    return '%s:$7$%d$%s$%s' % (user, ITERATIONS, base64.b64encode(salt).decode(),
                               base64.b64encode(h).decode())


def hash_lines(pairs):
    """{user: password} -> [password file line], through mosquitto_passwd -U (which hashes a
    file of plain `user:password` lines in place: nothing on its command line) when there is
    one, else in Python in the same format."""
    tool = shutil.which('mosquitto_passwd')
    if tool and pairs:
        fd, tmp = tempfile.mkstemp(prefix='passwd-')
        try:
            with os.fdopen(fd, 'w') as f:
                for u, p in pairs.items():
                    f.write('%s:%s\n' % (u, p))
            r = subprocess.run([tool, '-U', tmp], capture_output=True)
            if r.returncode == 0:
                with open(tmp) as f:
                    lines = [ln.strip() for ln in f if ln.strip()]
                if len(lines) == len(pairs) and all('$7$' in ln for ln in lines):
                    return lines
        finally:
            os.remove(tmp)
    return [pbkdf2_line(u, p) for u, p in pairs.items()]


def users(venue, tables):
    return (['%s-%s' % (venue, t) for t in tables] + ['%s-service' % venue,
                                                       '%s-homeassistant' % venue])


def acl(venue, tables):
    out = ['# Written by make venue-broker: who may publish and read what (DESIGN section 10).',
           '', '# The venue service: every table of the bar; the tournament matches.',
           'user %s-service' % venue,
           'topic read shuffleboard/%s/#' % venue,
           'topic write shuffleboard/%s/+/match' % venue, '',
           '# Home Assistant: the tables and their discovery configs, read only.',
           'user %s-homeassistant' % venue,
           'topic read shuffleboard/%s/#' % venue,
           'topic read homeassistant/#', '']
    for t in tables:
        base = 'shuffleboard/%s/%s/' % (venue, t)
        out += ['# Table %s: its own topics only.' % t, 'user %s-%s' % (venue, t)]
        out += ['topic write %s%s' % (base, what) for what in ('state', 'status', 'game')]
        out += ['topic read %smatch' % base,
                'topic write homeassistant/+/shuffleboard_%s_%s/#' % (venue, t), '']
    return '\n'.join(out)


def conf(folder, port, bind=None):
    folder = os.path.abspath(folder)
    data = os.path.join(folder, 'data')
    return '\n'.join([
        '# Written by make venue-broker. Start it with: mosquitto -c %s'
        % os.path.join(folder, 'mosquitto.conf'),
        'per_listener_settings false',
        'listener %d%s' % (port, ' ' + bind if bind else ''),
        'allow_anonymous false',
        'password_file %s' % os.path.join(folder, 'passwd'),
        'acl_file %s' % os.path.join(folder, 'acl'),
        '# A client id is its user name: nobody can take over the service\'s session.',
        'use_username_as_clientid true',
        'persistence true',
        'persistence_location %s/' % data,
        '# The games queued for the service while it is away (and the boards\' states).',
        'max_queued_messages 10000',
        'max_inflight_messages 20',
        'log_dest stderr',
        'log_type error',
        'log_type warning',
        'log_type notice',
        ''])


def read_passwd(path):
    out = {}
    try:
        with open(path) as f:
            for ln in f:
                ln = ln.strip()
                if ln and not ln.startswith('#') and ':' in ln:
                    out[ln.split(':', 1)[0]] = ln
    except FileNotFoundError:
        pass
    return out


def write(path, text, mode=0o644):
    tmp = path + '.tmp'
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, 'w') as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def make(venue, tables, folder, port=1883, bind=None):
    """Write the three files; returns {user: password} of the users made now."""
    if not _LEVEL.match(venue):
        raise ValueError('VENUE is 1..32 letters, digits, _ or -')
    for t in tables:
        if not _LEVEL.match(t):
            raise ValueError('a table is 1..32 letters, digits, _ or -: %r' % t)
    os.makedirs(os.path.join(folder, 'data'), exist_ok=True)
    path = os.path.join(folder, 'passwd')
    have = read_passwd(path)
    new = {u: secrets.token_urlsafe(12) for u in users(venue, tables) if u not in have}
    for line in hash_lines(new):
        have[line.split(':', 1)[0]] = line
    write(path, ''.join(have[u] + '\n' for u in sorted(have)), 0o600)
    write(os.path.join(folder, 'acl'), acl(venue, tables) + '\n', 0o600)
    write(os.path.join(folder, 'mosquitto.conf'), conf(folder, port, bind))
    return new


def table_names(spec):
    """TABLES=N -> '1'..'N'; TABLES=a,b,c -> those names."""
    if spec.isdigit():
        return [str(i) for i in range(1, int(spec) + 1)]
    return [t.strip() for t in spec.split(',') if t.strip()]


def main(argv=None):
    p = argparse.ArgumentParser(prog='venue-broker', description=__doc__.split('\n\n')[0])
    p.add_argument('--venue', required=True)
    p.add_argument('--tables', required=True, help='a number N (tables 1..N) or names a,b,c')
    p.add_argument('--dir', default='build/broker')
    p.add_argument('--port', type=int, default=1883)
    p.add_argument('--bind', default=None, help='listen on this address only (default: all)')
    p.add_argument('--host', default='BROKER-IP', help='the address boards use, for the hints')
    args = p.parse_args(argv)
    try:
        tables = table_names(args.tables)
        new = make(args.venue, tables, args.dir, args.port, args.bind)
    except ValueError as e:
        print('venue-broker: %s' % e, file=sys.stderr)
        return 2
    folder = os.path.abspath(args.dir)
    print('venue-broker: %s/mosquitto.conf, passwd and acl for venue %s, tables %s'
          % (folder, args.venue, ', '.join(tables)))
    if not new:
        print('every user already had a password (kept; not shown again)')
    for user, password in sorted(new.items()):
        print('new user %s password %s' % (user, password))
        t = user[len(args.venue) + 1:]
        if t in tables:
            print('  make deploy BOARD=... MQTT=%s:%d,venue=%s,table=%s,user=%s'
                  % (args.host, args.port, args.venue, t, user))
        elif t == 'service':
            print('  make venue MQTT=%s:%d MQTT_USER=%s' % (args.host, args.port, user))
    if new:
        print('(each password is shown this once: note them now; the file keeps only hashes.\n'
              ' Give one to make as MQTT_PASSWORD in the environment, typed unseen:\n'
              ' read -rs MQTT_PASSWORD && export MQTT_PASSWORD)')
    print('start the broker: mosquitto -c %s/mosquitto.conf' % folder)
    return 0


if __name__ == '__main__':
    sys.exit(main())

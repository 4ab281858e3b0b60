"""Banked game records on flash until the broker has acknowledged them.

One file per record, `<dir>/<seq>.json`, written to a temporary name and renamed, so a power cut
leaves either the whole record or none. Records go out oldest first. The outbox is bounded
(`limit` records): when it is full a new record is NOT kept (the oldest are kept first, since
they are the ones the venue has waited on longest) and `dropped` counts it; the game itself is
still on the board's own tally. The file `<dir>/seq` holds a random tag chosen when the outbox
was first made and the next sequence number, so a record's id stays unique on this board across
reboots, and a board whose flash was wiped does not reuse an old id.
"""

import json
import os

from ..files import join, replace
from ..store import room

LIMIT = 32


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Outbox:
    def __init__(self, root='', name='outbox', limit=LIMIT):
        self.dir = join(root, name)
        self.limit = limit
        self.dropped = 0
        if not _exists(self.dir):
            os.mkdir(self.dir)
        self._tag, self._seq = self._read_seq()
        self._names = []
        for n in os.listdir(self.dir):
            if n.endswith('.tmp'):
                os.remove(self.dir + '/' + n)
            elif n.endswith('.json'):
                self._names.append(n)
        self._names.sort()   # zero-padded numbers: the sort is the order of banking

    def _read_seq(self):
        try:
            with open(self.dir + '/seq') as f:
                tag, seq = f.read().split()
            return tag, int(seq)
        except (OSError, ValueError):
            b = os.urandom(4)
            return '%02x%02x%02x%02x' % (b[0], b[1], b[2], b[3]), 1

    def _write(self, name, text):
        replace(join(self.dir, name), join(self.dir, name + '.tmp'), text)

    def next_id(self):
        """A new id suffix, `<tag>-<seq>`; the counter is on flash before it is used."""
        seq = self._seq
        self._seq = seq + 1
        self._write('seq', '%s %d' % (self._tag, self._seq))
        return '%s-%d' % (self._tag, seq)

    def add(self, record):
        """Keep one record (a JSON-safe dict with an `id`). False when full, or when the
        flash has no room beside the saved game (store.room: the game comes first): not kept."""
        if len(self._names) >= self.limit or not room(self.dir, 512):
            self.dropped += 1
            return False
        seq = int(self._names[-1][:-5]) + 1 if self._names else 1
        name = '%08d.json' % seq
        self._write(name, json.dumps(record))
        self._names.append(name)
        return True

    def __len__(self):
        return len(self._names)

    def peek(self):
        """(name, payload bytes) of the oldest record, or None. A file that cannot be read is
        removed (it could never be sent)."""
        while self._names:
            name = self._names[0]
            try:
                with open(self.dir + '/' + name, 'rb') as f:
                    return name, f.read()
            except OSError:
                self._names.pop(0)
        return None

    def remove(self, name):
        if name in self._names:
            self._names.remove(name)
        try:
            os.remove(self.dir + '/' + name)
        except OSError:
            pass

"""Banked game records on flash until the broker has acknowledged them.

One file per record, `<dir>/<seq>.json`, written to a temporary name and renamed, so a power cut
leaves either the whole record or none. Records go out oldest first. The outbox holds LIMIT
(256) records, or fewer when the flash is fuller: a record is kept only while RESERVE bytes stay
free beside it for the game's own saves. When it cannot keep a new record, that one is NOT kept
(the oldest are kept first, since they are the ones the venue has waited on longest) and
`dropped` counts it, on flash too: the venue link says so on the display (`not sent N`), on
the `status` topic and on the console. The game itself is still on the board's own tally.
The file `<dir>/seq` holds a random tag chosen when the outbox was first made, the next
sequence number and the count of records dropped, so a record's id stays unique on this board
across reboots, and a board whose flash was wiped does not reuse an old id.
"""

import json
import os

LIMIT = 256
RESERVE = 24 * 1024   # bytes left free for the store's slots, the fault log and settings


def _free(path):
    """Free bytes on the filesystem of path, or None where the port cannot say."""
    try:
        st = os.statvfs(path)
    except (AttributeError, OSError):
        return None
    return st[0] * st[4]   # f_bsize * f_bavail (as a tuple on MicroPython)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Outbox:
    def __init__(self, root='', name='outbox', limit=LIMIT, reserve=RESERVE):
        self.dir = (root.rstrip('/') + '/' + name) if root else name
        self.limit = limit
        self.reserve = reserve
        if not _exists(self.dir):
            os.mkdir(self.dir)
        self._tag, self._seq, self.dropped = self._read_seq()
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
                words = f.read().split()
            # `tag seq`, and since the outbox says what it dropped, `tag seq dropped`
            return words[0], int(words[1]), int(words[2]) if len(words) > 2 else 0
        except (OSError, ValueError, IndexError):
            b = os.urandom(4)
            return '%02x%02x%02x%02x' % (b[0], b[1], b[2], b[3]), 1, 0

    def _write_seq(self):
        self._write('seq', '%s %d %d' % (self._tag, self._seq, self.dropped))

    def _write(self, name, text):
        tmp = self.dir + '/' + name + '.tmp'
        with open(tmp, 'w') as f:
            f.write(text)
        os.rename(tmp, self.dir + '/' + name)

    def next_id(self):
        """A new id suffix, `<tag>-<seq>`; the counter is on flash before it is used."""
        seq = self._seq
        self._seq = seq + 1
        self._write_seq()
        return '%s-%d' % (self._tag, seq)

    def add(self, record, text=None):
        """Keep one record (a JSON-safe dict with an `id`; `text`: its JSON, if made already).
        False when it cannot be kept (full, or the flash too full): not kept, counted."""
        if text is None:
            text = json.dumps(record)
        free = _free(self.dir)
        if len(self._names) >= self.limit or (
                free is not None and free < self.reserve + len(text)):
            return self._drop()
        seq = int(self._names[-1][:-5]) + 1 if self._names else 1
        name = '%08d.json' % seq
        try:
            self._write(name, text)
        except OSError:          # the flash filled up under us: the record is not kept
            try:
                os.remove(self.dir + '/' + name + '.tmp')
            except OSError:
                pass
            return self._drop()
        self._names.append(name)
        return True

    def _drop(self):
        self.dropped += 1
        try:
            self._write_seq()
        except OSError:
            pass
        return False

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

"""Banked game records on flash until the broker has acknowledged them.

Records are packed PER_FILE to a file, `<dir>/<n>.jsonl`, one JSON record a line, appended: on
littlefs a file that was closed is whole, so a power cut leaves the record in or out, never
half (a torn last line, as FAT may leave one, is not a record and the file takes no more). One
file per record would spend a 4 KB flash block on each and fit about 200 games on a bare Pico W;
packed, the outbox holds LIMIT (256) records, or fewer only when the flash is fuller: a record is
kept only while RESERVE bytes stay free beside it for the game's own saves. Records go out
oldest first; `<dir>/seq` says how many lines of the oldest file were sent already.

When it cannot keep a new record, that one is NOT kept (the oldest are kept first, since they
are the ones the venue has waited on longest) and `dropped` counts it, on flash too: the venue
link says so on the display (`not sent N`), on the `status` topic and on the console. The game
itself is still on the board's own tally.

`<dir>/seq` holds a random tag chosen when the outbox was first made, the next sequence number
(so a record's id stays unique on this board across reboots, and a board whose flash was wiped
does not reuse an old id), the count of records dropped, and the oldest file with the lines of
it already sent. Records of the first firmware, one a file (`<n>.json`), are sent first.
"""

import json
import os

from ..files import join
from ..store import room

LIMIT = 256
PER_FILE = 16         # records a file: 16 games of about 500 bytes, two flash blocks
RESERVE = 24 * 1024   # bytes left free for the store's slots, the fault log and settings


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _free(path):
    """Free bytes on the filesystem of path, or None where the port cannot say."""
    try:
        st = os.statvfs(path)
    except (AttributeError, OSError):
        return None
    return st[0] * st[4]   # f_bsize * f_bavail (as a tuple on MicroPython)


class Outbox:
    def __init__(self, root='', name='outbox', limit=LIMIT, reserve=RESERVE):
        self.dir = join(root, name)
        self.limit = limit
        self.reserve = reserve
        if not _exists(self.dir):
            os.mkdir(self.dir)
        self._tag, self._seq, self.dropped, head, done = self._read_seq()
        self._singles = []   # records of the first firmware, one a file, sent first
        self._files = []     # numbers of the packed files, oldest first
        self._lines = {}     # file number -> records in it
        self._full = {}      # file number -> True when it takes no more (full, or torn)
        for n in os.listdir(self.dir):
            if n.endswith('.tmp'):
                os.remove(self.dir + '/' + n)
            elif n.endswith('.jsonl'):
                self._files.append(int(n[:-6]))
            elif n.endswith('.json'):
                self._singles.append(n)
        self._singles.sort()   # zero-padded numbers: the sort is the order of banking
        self._files.sort()
        for f in self._files:
            self._lines[f], torn = self._count(f)
            self._full[f] = torn or self._lines[f] >= PER_FILE
        # The lines of the oldest file already sent (kept with that file's number, so a
        # power cut between removing a file and saying so never skips a record).
        self._done = done if self._files and head == self._files[0] else 0

    def _path(self, f):
        return '%s/%d.jsonl' % (self.dir, f)

    def _count(self, f):
        # (whole lines, whether the file ends in a torn line)
        n = 0
        last = b'\n'
        with open(self._path(f), 'rb') as fh:
            while True:
                line = fh.readline()
                if not line:
                    break
                last = line
                if line[-1:] == b'\n':
                    n += 1
        return n, last[-1:] != b'\n'

    def _read_seq(self):
        try:
            with open(self.dir + '/seq') as f:
                w = f.read().split()
            # `tag seq`, then `tag seq dropped`, now `tag seq dropped head done`
            return (w[0], int(w[1]), int(w[2]) if len(w) > 2 else 0,
                    int(w[3]) if len(w) > 4 else -1, int(w[4]) if len(w) > 4 else 0)
        except (OSError, ValueError, IndexError):
            b = os.urandom(4)
            return '%02x%02x%02x%02x' % (b[0], b[1], b[2], b[3]), 1, 0, -1, 0

    def _write_seq(self):
        head = self._files[0] if self._files else -1
        tmp = self.dir + '/seq.tmp'
        with open(tmp, 'w') as f:
            f.write('%s %d %d %d %d' % (self._tag, self._seq, self.dropped, head, self._done))
        os.rename(tmp, self.dir + '/seq')   # over the old one in one step (littlefs, FAT)

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
        if len(self) >= self.limit or (free is not None and free < self.reserve + len(text)) \
                or not room(self.dir, len(text)):    # store.room: the saved game comes first
            return self._drop()
        f = self._files[-1] if self._files else None
        if f is None or self._full[f]:
            f = f + 1 if f is not None else 1
            new = True
        else:
            new = False
        try:
            with open(self._path(f), 'a') as fh:
                fh.write(text + '\n')   # json.dumps never writes a bare newline
        except OSError:          # the flash filled up under us: the record is not kept
            if new:
                try:
                    os.remove(self._path(f))
                except OSError:
                    pass
            else:
                self._full[f] = True   # it may end in a torn line now: no more appends
            return self._drop()
        if new:
            self._files.append(f)
            self._lines[f] = 0
            self._full[f] = False
        self._lines[f] += 1
        if self._lines[f] >= PER_FILE:
            self._full[f] = True
        return True

    def _drop(self):
        self.dropped += 1
        try:
            self._write_seq()
        except OSError:
            pass
        return False

    def __len__(self):
        n = len(self._singles) - self._done
        for f in self._files:
            n += self._lines[f]
        return n

    def peek(self):
        """(name, payload bytes) of the oldest record, or None. A record that cannot be read
        is passed over (it could never be sent)."""
        while self._singles:
            name = self._singles[0]
            try:
                with open(self.dir + '/' + name, 'rb') as f:
                    return name, f.read()
            except OSError:
                self._singles.pop(0)
        while self._files:
            f = self._files[0]
            if self._done < self._lines[f]:
                try:
                    with open(self._path(f), 'rb') as fh:
                        for _ in range(self._done):
                            fh.readline()
                        line = fh.readline()
                    if line[-1:] == b'\n':
                        return '%d:%d' % (f, self._done), line[:-1]
                except OSError:
                    pass
                self._lines[f] = self._done   # unreadable from here: nothing more in it
            if not self._full[f] and f == self._files[-1]:
                return None                   # the file being written: empty for now
            self._retire()
        return None

    def _retire(self):
        # The oldest file is sent: said on flash first, then removed.
        f = self._files.pop(0)
        self._done = 0
        self._write_seq()
        try:
            os.remove(self._path(f))
        except OSError:
            pass
        del self._lines[f]
        del self._full[f]

    def remove(self, name):
        """The record `name` (from peek) was acknowledged: it goes."""
        if name in self._singles:
            self._singles.remove(name)
            try:
                os.remove(self.dir + '/' + name)
            except OSError:
                pass
            return
        if not self._files or name != '%d:%d' % (self._files[0], self._done):
            return
        f = self._files[0]
        self._done += 1
        if self._done >= self._lines[f]:
            self._retire()       # (the next record then starts a new file)
        else:
            self._write_seq()

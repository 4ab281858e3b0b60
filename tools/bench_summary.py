# The figures `make bench` prints at its end beside their goals (issue 26): each bench script
# notes what it measured into build/bench-summary.json (note()), and tools/bench.py prints
# them all once every section has run (show()). A script run alone still notes its figures,
# so `python tools/bench_summary.py` prints what the last runs measured.
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, 'build', 'bench-summary.json')

# MicroPython v1.28.0's stock images, built from its source (ports/rp2, the linker map's
# __GcHeapStart..__GcHeapEnd): the GC heap each one reserves, and what gc.mem_free() says on an
# RPI_PICO at a bare REPL (the runtime's own objects take the difference).
RPI_PICO_W_GC_HEAP = 210016
RPI_PICO_GC_HEAP = 251688
RPI_PICO_REPL_FREE = 236848
# So a Pico W has about this much free before the firmware's first import (its REPL's own
# objects taken as the Pico's): 195,176 bytes.
PICO_W_FREE = RPI_PICO_W_GC_HEAP - (RPI_PICO_GC_HEAP - RPI_PICO_REPL_FREE)

KB = 1024
GOALS = {
    'code': 40 * KB,        # firmware code + board + chip model, pico_tm1637
    'frames': 2 * KB,       # 100 frames
    'run': 72 * KB,         # the whole 100-frame run
    'keeps': 96 * KB,       # what a Pico W keeps: network part, 4 streams, the venue link
    'idle': 0,              # bytes per idle pass
    'point': KB,            # bytes per point (a committed frame, its save included)
}


def load():
    try:
        with open(PATH) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def note(key, value):
    """Keep `value` (JSON data) under `key` for the summary."""
    got = load()
    got[key] = value
    os.makedirs(os.path.dirname(PATH), exist_ok=True)
    with open(PATH, 'w') as f:
        json.dump(got, f, indent=1, sort_keys=True)


def clear():
    try:
        os.remove(PATH)
    except OSError:
        pass


def _verdict(got, goal, most=True):
    if got is None:
        return 'not measured'
    ok = got <= goal if most else got >= goal
    if ok:
        return 'met'
    return ('over by {:,}' if most else 'short by {:,}').format(abs(got - goal))


def _line(what, got, goal=None, most=True):
    shown = '%9s' % ('-' if got is None else '{:,}'.format(got))
    if goal is None:
        return '  %-58s %s' % (what, shown)
    return '  %-58s %s   goal %s %s: %s' % (what, shown, '<=' if most else '>=',
                                           '{:,}'.format(goal), _verdict(got, goal, most))


def show(out=sys.stdout):
    got = load()
    w = out.write
    w('32-bit live heap (WebAssembly port: 4-byte objects, 16-byte blocks; the .mpy build), '
      'bytes, with the goals of issue 26 (the harness: the stand-in machine, the script engine, '
      'the virtual board and receivers, counted apart; its chips, built with the app, are in '
      'the boot figure):\n')
    for board in ('pico_tm1637', 'pico_w_tm1637'):
        h = got.get('h32 ' + board)
        if not h:
            w('  %s: not measured (the 32-bit runs need node and npm)\n' % board)
            continue
        w('  %s%s\n' % (board, ' (its IR receiver and buzzer)' if board == 'pico_tm1637'
                        else ' (the board alone, no network part: as the simulator plays it)'))
        main = board == 'pico_tm1637'
        w(_line('firmware code + board + chip model', h['code'],
                GOALS['code'] if main else None) + '\n')
        if main and got.get('h32 romfs') is not None:
            w(_line('  the same, bytecode run in place (ROMFS image, as frozen)',
                    got['h32 romfs'], GOALS['code']) + '\n')
        w(_line('app objects after boot', h['boot']) + '\n')
        w(_line('the setup through the menu (its code let go of after)', h.get('setup')) + '\n')
        w(_line('100 frames (the virtual buzzer recording no tones)', h['frames'],
                GOALS['frames']) + '\n')
        w(_line('whole 100-frame run (harness %s included)' % '{:,}'.format(h['harness']),
                h['total'], GOALS['run'] if main else None) + '\n')
        own = h['total'] - h['harness'] - h.get('chips', 0)
        w(_line('  the firmware\'s own (harness and its chips, %s, off)'
                % '{:,}'.format(h.get('chips', 0)), own, GOALS['run'] if main else None) + '\n')
        r = got.get('h32 in place ' + board)
        if r:
            w('    with the firmware run in place from a ROMFS image (its bytecode in flash, as '
              'frozen; the image not counted):\n')
            w(_line('  code + board + chip model / boot / setup / 100 frames',
                    r['code']) + '   / %s / %s / %s\n' % tuple(
                        '{:,}'.format(r[k]) for k in ('boot', 'setup', 'frames')))
            w(_line('  whole 100-frame run (harness %s included)' % '{:,}'.format(r['harness']),
                    r['total'], GOALS['run'] if main else None) + '\n')
            w(_line('  the firmware\'s own (harness and its chips off)',
                    r['total'] - r['harness'] - r.get('chips', 0),
                    GOALS['run'] if main else None) + '\n')
    n = got.get('net32')
    w('  pico_w_tm1637 with its network part (from before the firmware\'s first import):\n')
    if not n:
        w('  not measured (bench_net\'s 32-bit run)\n')
    else:
        w(_line('the network part running', n['idle']) + '\n')
        w(_line('with 4 event streams (phones), after a game from the phone', n['played']) + '\n')
        w(_line('  and the venue link\'s code loaded (its objects not counted)',
                n['played'] + n['venue']) + '\n')
        w(_line('asyncio\'s own objects (64-bit bound, added)', n['asyncio']) + '\n')
        w(_line('Pico W free before the firmware (v1.28.0, see below)', n['free']) + '\n')
        w(_line('what a Pico W keeps: network part, 4 streams, venue link', n['keeps'],
                GOALS['keeps'], most=False) + '\n')
        r = got.get('net32 in place')
        if r:
            w(_line('  the same, the code run in place (ROMFS image, as frozen)', r['keeps'],
                    GOALS['keeps'], most=False) + '\n')
        w('    (RPI_PICO_W v1.28.0 reserves %s bytes of GC heap, __GcHeapStart..__GcHeapEnd; '
          'RPI_PICO %s, of which gc.mem_free() at a bare REPL says %s: so about %s free on a '
          'Pico W)\n' % tuple('{:,}'.format(x) for x in (
              RPI_PICO_W_GC_HEAP, RPI_PICO_GC_HEAP, RPI_PICO_REPL_FREE, PICO_W_FREE)))
    p = got.get('perf')
    w('  on the 64-bit unix port (tools/bench_perf.py):\n')
    if not p:
        w('  not measured\n')
    else:
        w(_line('bytes per idle pass, worst board', p['idle'], GOALS['idle']) + '\n')
        w(_line('bytes per committed frame, its save included (a point)', p['point'],
                GOALS['point']) + '\n')
    s = got.get('soak')
    if s:
        w('  soak (tools/bench_soak.py, 64-bit): %s games of %s frames, live heap after each '
          'bank from bank 2 on: spread %s bytes, last - second %+d\n' % (
              s['games'], s['frames'], s['spread'], s['drift']))


if __name__ == '__main__':
    show()

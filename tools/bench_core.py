# Budgets of the scoring core, measured on mpy-cross output under the MicroPython unix port:
# the smallest heap that plays a 100-frame knock-off game and a whole shove ha'penny game, and
# the bytes a committed frame allocates.
import os
import sys

from mpy_tools import ROOT, compile_tree, onboard, run, smallest_heap

# The runs are files of tools/onboard/, run on the unix port with the build on the path.


def main():
    build = os.path.join(ROOT, 'build', 'bench')
    n = compile_tree(os.path.join(ROOT, 'firmware'), build)
    path = [build]
    print('core: %d modules compiled with mpy-cross' % n)
    for name, script in (('100-frame knock-off', onboard('core_knockoff_100')),
                         ("whole shove ha'penny game", onboard('core_shove_game'))):
        heap = smallest_heap(script, path)
        print('core: smallest heap for a %s: %s bytes (goal 16384)' % (name, heap))
    r = run(onboard('core_per_frame'), path)
    parts = r.stdout.split()
    if r.returncode or parts[:1] != ['OK']:
        print('core: per-frame measurement failed:', r.stdout, r.stderr)
        return 1
    print('core: bytes allocated per committed frame: %s (garbage included), %s retained '
          '(the undo log entry)' % (parts[1], parts[2]))
    return 0


if __name__ == '__main__':
    sys.exit(main())

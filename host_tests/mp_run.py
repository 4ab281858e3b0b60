# Runs the portable host tests under the MicroPython unix port.
#
#   .venv/bin/micropython host_tests/mp_run.py [test_file.py ...]
#
# A test file takes part when one of its first lines is the marker `# runs-on: micropython`.
# Each module-level function named test_* that takes no arguments is called; a parametrised
# table is written as a plain loop inside one test so that both interpreters see the same cases.
# The closing line is the plain 'N passed, N failed' that CI reads.
import gc
import os
import sys
import time

HERE = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
# (HERE's parent spelled as tools/paths.py spells it, without '..' where it can be)
ROOT = HERE.rsplit('/', 1)[0] if '/' in HERE else ('.' if HERE != '.' else '..')


def pythonpath():
    """pyproject.toml's `pythonpath` (the test path pytest uses), as folders from here."""
    with open(ROOT + '/pyproject.toml') as f:
        for line in f:
            if line.startswith('pythonpath'):
                return [p if ROOT == '.' else ROOT + '/' + p for p in
                        [q.strip().strip('"') for q in
                         line.split('[', 1)[1].split(']', 1)[0].split(',')] if p]
    raise ValueError('no pythonpath in pyproject.toml')


for p in reversed(pythonpath()):
    if p not in sys.path:
        sys.path.insert(0, p)

MARKER = '# runs-on: micropython'


def marked(path):
    with open(path) as f:
        for _ in range(12):
            line = f.readline()
            if not line:
                break
            if line.strip() == MARKER:
                return True
    return False


def discover(names):
    if names:
        return [n.rsplit('/', 1)[-1] for n in names]
    found = [n for n in os.listdir(HERE) if n.startswith('test_') and n.endswith('.py')]
    found.sort()
    return [n for n in found if marked(HERE + '/' + n)]


def main(argv):
    verbose = '-v' in argv
    slow = [] if '-d' in argv else None     # -d: the slowest tests, as pytest's --durations
    names = discover([a for a in argv if not a.startswith('-')])
    passed = failed = 0
    for fname in names:
        modname = fname[:-3]
        try:
            mod = __import__(modname)
        except Exception as e:  # a module that does not import is one failure, reported
            failed += 1
            print('FAIL', modname, '(import)', repr(e))
            sys.print_exception(e)
            continue
        tests = [k for k in dir(mod) if k.startswith('test_')]
        tests.sort()
        for k in tests:
            fn = getattr(mod, k)
            if not callable(fn):
                continue
            # Each test starts on a collected heap (the sweeps need 80 KB blocks) and with the
            # collector's default policy: a test that booted the firmware set a threshold
            # (scoreboard.prepare_heap), which would make the next test's big images slow.
            gc.threshold(-1)
            gc.collect()
            t0 = time.ticks_ms()
            try:
                fn()
            except Exception as e:
                failed += 1
                print('FAIL', modname + '.' + k, repr(e))
                sys.print_exception(e)
            else:
                passed += 1
                if verbose:
                    print('ok', modname + '.' + k)
            if slow is not None:
                slow.append((time.ticks_diff(time.ticks_ms(), t0), modname + '.' + k))
        # A finished module lets go of what it kept (flash images, caches) before the next one.
        del mod
        sys.modules.pop(modname, None)
    if slow:
        slow.sort()
        print('slowest:')
        for ms, name in slow[-20:][::-1]:
            print('  %7.2fs %s' % (ms / 1000, name))
    print('micropython: %d passed, %d failed' % (passed, failed))
    return failed


if __name__ == '__main__':
    sys.exit(1 if main(sys.argv[1:]) else 0)

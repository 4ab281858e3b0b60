# Host tests import the device tree and the host tools as top-level packages, exactly as the
# MicroPython runner (mp_run.py) does, so one test file serves both interpreters.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ('tools', 'firmware', 'host_tests'):
    p = os.path.join(ROOT, sub)
    if p not in sys.path:
        sys.path.insert(0, p)

# The update key (tools/package.py) of the test runs: a folder of their own, never the
# developer's ~/.config/scoreboard.
if 'SCOREBOARD_KEYS' not in os.environ:
    import tempfile
    os.environ['SCOREBOARD_KEYS'] = tempfile.mkdtemp(prefix='sb-test-keys-')

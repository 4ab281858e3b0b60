# pytest's own file for host_tests/. The test path (host_tests/, firmware/, tools/ as top-level
# modules and packages) is pyproject.toml's `pythonpath`, which the MicroPython runner
# (mp_run.py) reads too; anything more goes through tools/paths.py (docs/tools.md). Fixtures
# shared by many test files would go here.
import os

# The update key (tools/package.py) of the test runs: a folder of their own, never the
# developer's ~/.config/scoreboard.
if 'SCOREBOARD_KEYS' not in os.environ:
    import tempfile
    os.environ['SCOREBOARD_KEYS'] = tempfile.mkdtemp(prefix='sb-test-keys-')

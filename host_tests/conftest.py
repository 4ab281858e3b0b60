# pytest's own file for host_tests/. The test path (host_tests/, firmware/, tools/ as top-level
# modules and packages) is pyproject.toml's `pythonpath`, which the MicroPython runner
# (mp_run.py) reads too; anything more goes through tools/paths.py (docs/tools.md). Fixtures
# shared by many test files would go here.

# The pty board's watchdog is the RP2040's (DESIGN section 12): not fed within its timeout it
# resets the board (RAM lost, flash kept, main.py runs again, reset_cause() == WDT_RESET); a
# second WDT() does not change its timeout; a soft reset (what mpremote does) does not stop it.
# And the firmware keeps USB sessions alive (wdtfeed.py): an mpremote session longer than the
# watchdog's timeout against a running scoreboard is never cut, with or without mpremote's soft
# reset, while a loop that hangs with nobody connected is reset.
import os
import time

import pytest

import deploy
from test_vboard import ROOT, VBoardProcess, mpremote

serial = pytest.importorskip('serial')
pytestmark = pytest.mark.flaky(reruns=1)

COUNTING_MAIN = '''\
import machine, time
try:
    n = int(open('boots').read())
except OSError:
    n = 0
open('boots', 'w').write(str(n + 1))
open('causes', 'a').write('%d ' % machine.reset_cause())
w = machine.WDT(timeout=1500)
w = machine.WDT(timeout=60000)      # the second: the first timeout stays (rp2)
while True:
    time.sleep_ms(50)
'''


def resets(vb):
    return vb.messages().count('vboard: watchdog reset')


def wait_for(cond, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.1)
    return False


def test_a_watchdog_not_fed_resets_the_board_and_keeps_its_first_timeout(tmp_path):
    flash = tmp_path / 'flash'
    flash.mkdir()
    (flash / 'main.py').write_text(COUNTING_MAIN)
    vb = VBoardProcess(flash)
    try:
        assert wait_for(lambda: resets(vb) >= 2, 12), vb.messages()
        # RAM lost, flash kept: main.py counted its boots on the flash, each one after the
        # first says the watchdog reset it
        boots = int((flash / 'boots').read_text())
        assert boots >= 2
        causes = (flash / 'causes').read_text().split()
        assert causes[0] == '1' and set(causes[1:]) == {'3'}, causes
    finally:
        vb.stop()


def test_a_soft_reset_does_not_stop_the_watchdog(tmp_path):
    flash = tmp_path / 'flash'
    flash.mkdir()
    (flash / 'main.py').write_text('import machine\nmachine.WDT(timeout=3000)\n')
    vb = VBoardProcess(flash)
    try:
        time.sleep(0.5)
        t0 = time.monotonic()
        # mpremote's soft reset, then a session that feeds nothing: cut by the watchdog
        r = mpremote(vb.path, 'exec', 'print("in")', timeout=20)
        assert r.returncode == 0 and r.stdout.strip() == 'in', r.stdout + r.stderr
        assert wait_for(lambda: resets(vb) >= 1, 8), vb.messages()
        assert time.monotonic() - t0 < 8
    finally:
        vb.stop()


@pytest.fixture(scope='module')
def scoreboard(tmp_path_factory):
    """The real firmware deployed (pico_tm1637, watchdog 8 s) and running on a pty board, for
    the two tests below (deployed once: the second, the control, runs last)."""
    tmp_path = tmp_path_factory.mktemp('scoreboard')
    flash = tmp_path / 'flash'
    flash.mkdir()
    vb = VBoardProcess(flash)
    deploy.deploy('pico_tm1637', vb.path, out=str(tmp_path / 'build'))
    time.sleep(2)
    yield vb, flash
    vb.stop()


def app_runs(vb):
    r = mpremote(vb.path, 'resume', 'exec',
                 "import sys\nprint('app' if 'scoreboard.app' in sys.modules else 'no app')")
    return r.stdout.strip()


def test_mpremote_sessions_longer_than_the_watchdog_are_never_cut(scoreboard):
    vb, flash = scoreboard
    t0 = time.monotonic()
    # mpremote's soft reset (boot.py hands the watchdog to the feeder) ...
    r = mpremote(vb.path, 'exec', 'import time; time.sleep(12); print("slept")', timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == 'slept', r.stdout + r.stderr
    # ... and `resume`, no soft reset: the Ctrl-C that stops the loop hands it over
    r = mpremote(vb.path, 'reset')
    time.sleep(2)
    r = mpremote(vb.path, 'resume', 'exec', 'import time; time.sleep(12); print("slept")',
                 timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == 'slept', r.stdout + r.stderr
    assert resets(vb) == 0, vb.messages()
    print('two 12 s sessions in %.1fs, no watchdog reset' % (time.monotonic() - t0))


def test_without_the_feeder_the_same_session_is_cut(scoreboard):
    # The control: boot.py taken away, mpremote's soft reset leaves the watchdog unfed.
    vb, flash = scoreboard
    os.remove(flash / 'boot.py')
    try:
        mpremote(vb.path, 'exec', 'import time; time.sleep(12); print("slept")', timeout=16)
        cut = False
    except Exception:       # subprocess.TimeoutExpired: the board reset under mpremote
        cut = True
    assert cut or resets(vb) >= 1
    assert resets(vb) >= 1, vb.messages()


HANG = '''

# The test's fault: after 3 s the loop hangs in a refresh (nobody is connected).
_displays = displays


def displays():
    import time
    t0 = time.ticks_ms()
    ds = _displays()

    class Hang:
        def __init__(self, d):
            self.d = d
            self.lamp = getattr(d, 'lamp', None)

        def show(self, view, phase):
            while time.ticks_diff(time.ticks_ms(), t0) > 3000:
                pass
            self.d.show(view, phase)

        def brightness(self, level):
            self.d.brightness(level)

        def power(self, on):
            self.d.power(on)
    return [Hang(d) for d in ds]
'''


def test_a_loop_that_hangs_is_reset_by_the_watchdog(tmp_path):
    boards = tmp_path / 'boards'
    boards.mkdir()
    text = open(os.path.join(ROOT, 'boards', 'pico_tm1637.py')).read()
    (boards / 'hanging.py').write_text(text + HANG)
    flash = tmp_path / 'flash'
    flash.mkdir()
    vb = VBoardProcess(flash)
    try:
        deploy.deploy('hanging', vb.path, out=str(tmp_path / 'build'), boards_dir=str(boards))
        t0 = time.monotonic()       # the deploy's reset: the firmware starts
        assert wait_for(lambda: resets(vb) >= 1, 30), vb.messages()
        took = time.monotonic() - t0
        # hung 3 s after it built its displays, reset 8 s after its last feed; then it boots
        # and runs again (and hangs again)
        assert 8 < took < 25, took
        assert wait_for(lambda: resets(vb) >= 2, 16), vb.messages()
    finally:
        vb.stop()

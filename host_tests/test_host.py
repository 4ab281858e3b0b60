# The host (firmware/scoreboard/host.py) on its own, with a stand-in App: the fault policy
# (logged, the App built again, the safe screen after three faults within a minute, never a
# hot loop), the services kept running and stopped, the plain loop's waits.
import asyncio

import app_probe  # noqa: F401  (puts firmware/ on the path)
from scoreboard import host as H
from scoreboard import services as S
from scoreboard.faultlog import FaultLog


class Stop(BaseException):
    pass


def fake_app(fail_at=None):
    class App:
        LOOP_MS = 5
        built = []

        def __init__(self, board, store, now, safe=False, clock=None, note=None):
            App.built.append((now, safe))
            self.ctl = object()
            self.steps = 0

        def step(self, now):
            self.steps += 1
            if fail_at is not None and self.steps == fail_at:
                raise OSError('display gone %d' % len(App.built))

        def pause(self, now):
            return 50 if self.steps % 2 else 5
    return App


def test_faults_are_logged_and_three_in_a_minute_bring_the_safe_screen(tmp_path):
    App = fake_app(fail_at=3)
    t = [0]
    waits = []

    def sleep_ms(ms):
        waits.append(ms)
        t[0] += ms
        if len(App.built) > 4:
            raise Stop()

    h = H.Host(None, None, str(tmp_path), clock=lambda: t[0], make=App)
    try:
        h.run(sleep_ms)
    except Stop:
        pass
    assert [s for _, s in App.built] == [False, False, False, True, True]
    log = FaultLog(str(tmp_path)).read()
    assert log.count('OSError: display gone') == 4
    assert H.RESTART_PAUSE_MS in waits        # never a hot loop
    assert 50 in waits and 5 in waits         # App.pause() decides the wait


def test_faults_spread_over_more_than_a_minute_do_not(tmp_path):
    h = H.Host(None, None, str(tmp_path), clock=lambda: t[0], make=fake_app())
    t = [0]
    for k in range(6):
        t[0] = k * (H.CRASH_WINDOW_MS // 2 + 1)
        h.fault(OSError('now and then'))
    assert not h.safe


def test_services_are_kept_running_and_stop_ends_them_all(tmp_path):
    runs = []
    swallowed = []

    async def flaky():
        runs.append(1)
        raise OSError('broker gone')

    async def server():
        # as microdot's server: it swallows the cancel of its task and returns
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            swallowed.append(1)

    logs = []
    h = S.ServiceHost(None, None, str(tmp_path), make=fake_app(), log=logs.append)
    S.SERVICE_RETRY_MS, keep_ms = 20, S.SERVICE_RETRY_MS
    h.add(flaky)
    h.add(server)
    stopped = []
    h.on_stop.append(lambda: stopped.append(1))

    async def main():
        h.start()
        await asyncio.sleep(0.2)
        assert h.passes > 5
        h.stop()
        done, pending = await asyncio.wait(h.tasks, timeout=2)
        return pending

    try:
        pending = asyncio.run(main())
    finally:
        S.SERVICE_RETRY_MS = keep_ms
    assert not pending
    assert len(runs) >= 2 and any('broker gone' in x for x in logs)
    assert swallowed == [1] and stopped == [1]

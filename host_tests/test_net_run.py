# runs-on: micropython
# The runner (scoreboard.net.run): the scoring loop as an asyncio task beside the network. Its
# idle pass allocates nothing with the server listening and the Wi-Fi up (measured under
# MicroPython); it keeps its period; a fault in a pass is logged and the loop starts again as
# app.main does; a network task that fails starts again without the scoring noticing.
import gc

import net_harness as nh
import network
from scoreboard import app as appmod

try:
    from micropython import mem_total  # noqa: F401
    MICRO = True
except ImportError:
    MICRO = False


def test_the_idle_runner_allocates_nothing():
    settings = {'ssid': 'bar', 'password': 'password1'}

    async def check(h):
        await nh.until(lambda: h.runner.wifi.state == 'up', what='the Wi-Fi never came up')
        await nh.sleep_ms(100)
        passes = h.runner.passes
        if MICRO:
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
        await nh.sleep_ms(400)
        if MICRO:
            grew = gc.mem_alloc() - before
            gc.enable()
            assert grew == 0, '%d bytes in %d idle passes' % (grew, h.runner.passes - passes)
        assert h.runner.passes - passes >= 400 // appmod.LOOP_MS // 2
    nh.run(check, tag='idle', wifi=True, settings=settings)


def test_the_loop_keeps_its_period():
    async def check(h):
        await nh.sleep_ms(100)
        passes = h.runner.passes
        await nh.sleep_ms(500)
        n = h.runner.passes - passes
        # 100 passes in 500 ms at 5 ms; a loaded machine loses some, none run ahead.
        assert 20 <= n <= 102, n
    nh.run(check, tag='period')


def test_a_fault_in_a_pass_is_logged_and_the_loop_starts_again():
    from scoreboard.faultlog import FaultLog

    async def check(h):
        first = h.runner.app

        def broken(now):
            raise RuntimeError('display fell off')
        first.step = broken
        await nh.until(lambda: h.runner.app is not first, what='the app was never rebuilt')
        assert 'display fell off' in str(FaultLog(h.flash).read())
        passes = h.runner.passes
        await nh.until(lambda: h.runner.passes > passes + 5, what='the loop did not go on')
        assert (await h.get('/api/view')).status == 200
    nh.run(check, tag='fault')


def test_a_failing_network_task_starts_again():
    async def check(h):
        w = h.runner.wifi
        calls = []

        async def broken():
            calls.append(1)
            raise OSError('radio on fire')
        w.run = broken
        import asyncio
        t = asyncio.create_task(h.runner.keep(w.run))
        try:
            await nh.until(lambda: calls and any('radio on fire' in x for x in h.logs),
                           what=lambda: 'calls %r, log %r' % (calls, h.logs[-5:]))
        finally:
            t.cancel()
        assert len(calls) >= 1 and any('radio on fire' in x for x in h.logs)
        assert (await h.get('/api/view')).status == 200
    network.reset()
    nh.run(check, tag='keep', wifi=True, settings={'ssid': 'bar'})


def test_app_main_hands_a_wifi_board_to_the_runner():
    import wlan_bare
    from scoreboard.net import run
    seen = []
    real = run.main
    run.main = lambda board, root, clock, make, trial=None: seen.append((board, root, make))
    try:
        appmod.main(board=wlan_bare, root='/tmp/nowhere')
    finally:
        run.main = real
    assert seen == [(wlan_bare, '/tmp/nowhere', appmod.App)]


def test_more_services_start_with_the_runner_and_start_again_when_they_fail():
    runs = []

    async def service():
        runs.append(1)
        raise OSError('broker gone')

    async def check(h):
        await nh.until(lambda: runs and any('broker gone' in x for x in h.logs),
                       what=lambda: 'runs %r, log %r' % (runs, h.logs[-5:]))
        assert runs == [1] and any('broker gone' in x for x in h.logs)
        assert (await h.get('/api/view')).status == 200

    h = nh.Harness(tag='services')
    h.runner.services.append(service)
    nh.run_on(h, check)

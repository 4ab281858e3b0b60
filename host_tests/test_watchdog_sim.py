# runs-on: micropython
# The virtual board's watchdog as the RP2040's (DESIGN section 12), on the simulator's virtual
# time: it resets the board when not fed within its timeout (RAM lost, flash kept, the firmware
# boots again and resumes its game), it cannot be stopped or given another timeout, and the
# firmware feeds it on every board however long it idles. The USB feeder (wdtfeed.py) keeps it
# fed for a bounded time only.
import app_probe
import machine
import wdtfeed


def test_a_second_wdt_keeps_the_first_timeout_and_nothing_stops_it():
    machine.reset_all()
    machine.set_clock(None)
    w = machine.WDT(timeout=2000)
    assert machine.WDT(timeout=60000) is w and w.timeout == 2000
    assert not hasattr(w, 'deinit') and not hasattr(w, 'stop')
    assert machine.mem32[0x40058000] & (1 << 30)
    machine.reset_all()
    assert machine.watchdog().timeout is None and not machine.mem32[0x40058000]


def test_an_idle_board_is_fed_however_long_it_waits():
    import sweep
    wait = sweep.pick(600000, 7200000)      # 10 minutes; two hours in `make fuzz`
    for board in ('pico_tm1637', 'pico_max7219_matrix', 'esp32_ws2812'):
        sim = app_probe.new_sim(board, tag='wdt-idle')
        app_probe.play(sim, ['tap OK', 'tap RED', 'wait 20000', 'tap OK', 'tap BLUE',
                             'wait %d' % wait, 'state'])
        assert machine.watchdog().timeout == 8000
        assert sim.resets == [], (board, sim.resets)
        assert sim.boots == 1


def test_a_hung_loop_is_reset_and_the_game_comes_back():
    sim = app_probe.new_sim('pico_tm1637', tag='wdt-hang')
    app_probe.play(sim, ['tap OK', 'tap RED', 'tap RED', 'tap OK'])
    before = sim.app.ctl.view
    assert before['red'] == 2
    fed = machine.watchdog().fed_at     # its last feed, before the loop hangs

    def hung(now):
        pass        # the loop is stuck: nothing is scanned, drawn or fed
    sim.app.step = hung
    app_probe.play(sim, ['wait 7000'])
    assert sim.resets == []
    app_probe.play(sim, ['wait 2000'])
    assert len(sim.resets) == 1 and sim.boots == 2
    at = sim.resets[0][0]
    assert 8000 < at - fed <= 8000 + 25, at - fed     # the first pass after the timeout
    assert machine.reset_cause() == machine.WDT_RESET
    app_probe.play(sim, ['wait 1500'])
    assert sim.app.ctl.view['red'] == 2 and sim.app.ctl.view['screen'] == before['screen']


def test_the_usb_feeder_feeds_for_a_bounded_time_only():
    sim = app_probe.new_sim('pico_tm1637', tag='wdt-feeder')
    app_probe.play(sim, ['tap OK'])
    t0 = sim.now
    wdtfeed.start(machine.watchdog(), for_ms=30000)
    assert wdtfeed.feeding()
    sim.app.step = lambda now: None     # the loop ended (Ctrl-C): only the feeder feeds
    app_probe.play(sim, ['wait 37000'])
    assert sim.resets == []
    app_probe.play(sim, ['wait 2000'])
    assert len(sim.resets) == 1
    assert 30000 + 8000 <= sim.resets[0][0] - t0 <= 30000 + 9000 + 1000
    wdtfeed.stop()


def test_the_app_takes_the_watchdog_back_from_the_feeder():
    sim = app_probe.new_sim('pico_tm1637', tag='wdt-takeback')
    wdtfeed.start(machine.watchdog())
    assert wdtfeed.feeding()
    app_probe.play(sim, ['power-cut'])      # the App starts again: it feeds, the feeder stops
    assert not wdtfeed.feeding()


def test_after_a_soft_reset_boot_py_hands_a_running_watchdog_to_the_feeder():
    import sys
    sys.modules.pop('board', None)
    sim = app_probe.new_sim('pico_tm1637', tag='wdt-boot')
    sys.modules['board'] = sim.board
    try:
        wdtfeed.stop()
        wdtfeed.after_soft_reset()          # running (the App started it): fed
        assert wdtfeed.feeding()
        wdtfeed.stop()
        machine.reset_all()                 # a power-on: not running, no feeder
        wdtfeed.after_soft_reset()
        assert not wdtfeed.feeding() and machine.watchdog().timeout is None
    finally:
        sys.modules.pop('board', None)


def test_on_an_esp32_boot_py_always_hands_the_watchdog_to_the_feeder():
    # Nothing on an ESP32 says whether the task watchdog runs after a soft reset: boot.py
    # starts the feeder at every boot of a board with a watchdog; the app takes it over.
    import sys
    sys.modules.pop('board', None)
    sim = app_probe.new_sim('esp32_ws2812', tag='wdt-esp32')
    sys.modules['board'] = sim.board
    try:
        assert wdtfeed.running(sim.board) is None
        machine.reset_all()                 # a power-on: nothing runs yet
        wdtfeed.after_soft_reset()
        assert wdtfeed.feeding() and machine.watchdog().timeout == sim.board.WATCHDOG_MS
        app_probe.play(sim, ['power-cut'])  # the app starts: it feeds, the feeder stops
        assert not wdtfeed.feeding()
        wdtfeed.after_soft_reset()          # a soft reset (mpremote): fed again, bounded
        assert wdtfeed.feeding()
        sim.app.step = lambda now: None     # the loop ended (Ctrl-C): only the feeder feeds
        app_probe.play(sim, ['wait 60000'])
        assert sim.resets == []
    finally:
        wdtfeed.stop()
        sys.modules.pop('board', None)

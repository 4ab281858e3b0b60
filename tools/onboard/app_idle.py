# tools/bench_app.py: every board's idle pass (bytes allocated) and the loop passes from a
# release to the changed digits at the chip, on the virtual board of host_tests/app_probe.py.
import app_probe

for board in app_probe.boards():
    sim = app_probe.sim_for(board)
    b = app_probe.idle_bytes_per_step(sim)
    lat = app_probe.latency_ms(sim)
    # latency_ms steps the loop once per virtual ms: the count is loop passes, and the device
    # runs one pass every LOOP_MS (5 ms)
    print('app: %-22s idle pass allocates %s bytes; release to changed digits at the chip: '
          '%s loop pass(es), <= %s ms' % (board, b, lat, lat and lat * 5))

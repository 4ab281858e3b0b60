# tools/bench_perf.py: every board's idle pass on the virtual board, heap-locked, a point
# blinking; prints `idle N_BOARDS` and the boards whose pass allocated (board bytes;...) or '-'.
# The host puts a checkout's host_tests/ on the path (MICROPYPATH): its app_probe is measured.
import app_probe

bad = []
for board in app_probe.boards():
    sim = app_probe.sim_for(board)
    b = app_probe.idle_bytes_per_step(sim)
    if b != 0:
        bad.append('%s %s' % (board, b))
print('idle', len(app_probe.boards()), ';'.join(bad) or '-')

# What one save costs, and how long the flash lasts: the store on the real littlefs and FAT
# drivers over a RAM block device shaped like a Raspberry Pi Pico's filesystem.
#
#   .venv/bin/micropython -X heapsize=8M tools/bench_store.py
#
# Times are host times of the unix port (not an RP2040's); the flash time on a board is
# estimated from the counted erases and page programs with a W25Q16JV's typical figures.
import gc
import os
import sys

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython: the bench needs the MicroPython drivers anyway
    ticks_us = ticks_diff = None

import paths  # noqa: E402

paths.setup()

PARTITION = 1441792  # a Pico's littlefs partition: 1.4 MB of its 2 MB flash
LFS_BLOCKS = PARTITION // 4096  # 352 sectors of 4 KB
FAT_SECTORS = PARTITION // 512
CYCLES = 100000  # erase cycles per sector (W25Q16JV datasheet minimum)
FRAMES_PER_DAY = 500  # a busy bar
T_ERASE_MS = 45  # W25Q16JV typical 4 KB sector erase (max 400)
T_PAGE_MS = 0.4  # typical 256-byte page program (max 3)
GAMES = 5  # games of 100 frames played for the wear figures
FRAMES = 100


def game_state(frames, extra=0):
    # A knock-off game the way the app saves it (shaped like core's to_dict(), inside the
    # app's state): the entry log grows by one frame per save; one entry sits in redo now and
    # then, and the host moved the line at frame 40.
    log = []
    for k in range(frames):
        who = (k * 7 + 3) % 5
        pts = (k * 5 + 1) % 16 + 1
        if who == 0:
            log.append(['f', 0, 0])
        elif who in (1, 3):
            log.append(['f', pts, 0])
        else:
            log.append(['f', 0, pts])
        if k == 40:
            log.append(['t', 21])
    redo = [['f', 0, 2]] if frames % 9 == 4 else []
    return {
        'game': {
            'kind': 'knockoff',
            'options': {'target': 15, 'hammer': 'blue', 'doubles': False, 'blank': 'switch',
                        'hanger': 4, 'handicap': None},
            'log': log,
            'redo': redo,
        },
        'games': {'red': 0, 'blue': 1 + extra},
        'legs': {'red': 0, 'blue': 0},
        'settings': {'best_of': 3, 'brightness': 5},
    }


def firmware_state_size(frames):
    """JSON bytes of the state the controller really saves after `frames` committed frames."""
    import json
    from scoreboard.ui.controller import Controller
    c = Controller(0)
    c.settings['opts']['knockoff'] = {'target': 99}
    c.start()
    for k in range(frames):
        # small frames, so that 100 of them stay below the line of 99
        c.game.enter_frame(red=k % 2, blue=(k + 1) % 2 if k % 3 else 0)
    return len(json.dumps(c.state()))


def firmware_controller(frames):
    # the controller after `frames` committed frames of a knock-off game to 99
    from scoreboard.ui.controller import Controller
    c = Controller(0)
    c.settings['opts']['knockoff'] = {'target': 99}
    c.start()
    for k in range(frames):
        c.game.enter_frame(red=k % 2, blue=(k + 1) % 2 if k % 3 else 0)
    return c


SAVE_GOAL = 1024  # bytes per committed frame, the save included (issue 17)


def save_bytes(kind, frames=FRAMES, saves=16):
    # Bytes one save of the firmware's own state allocates (gc.mem_alloc around save(), the
    # collector off), averaged over `saves` commits after `frames`; and a save of the same
    # state again (a held key), which writes nothing. kind: 'dir' (the unix port's own files,
    # as the simulator's flash folder), 'lfs' or 'fat' (the drivers over a RAM device: their
    # per-file caches are the drivers' own allocation, not the store's).
    from scoreboard.store import Store
    from virtual import flash
    c = firmware_controller(frames)
    path = '/tmp/bench_store_dir'
    if kind == 'dir':
        try:
            os.mkdir(path)
        except OSError:
            for n in os.listdir(path):
                os.remove(path + '/' + n)
    else:
        dev = flash.lfs_device(64) if kind == 'lfs' else flash.fat_device(512)
        flash.format_fs(dev, kind)
        path = '/bench_alloc_' + kind
        flash.mount(dev, kind, path)
    st = Store(path)
    st.load()
    st.save(c.state())
    size = 0
    total = same = 0
    for _ in range(saves):
        c.game.enter_frame(red=1, blue=0)
        state = c.state()
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        st.save(state)
        b = gc.mem_alloc()
        size = st.written
        st.save(state)
        d = gc.mem_alloc()
        gc.enable()
        total += b - a
        same += d - b
    if kind != 'dir':
        flash.umount(path)
    return total // saves, same // saves, size


def run(kind):
    from scoreboard.store import Store
    from virtual import flash
    gc.collect()
    if kind == 'lfs':
        dev = flash.lfs_device(LFS_BLOCKS)
    else:
        dev = flash.fat_device(FAT_SECTORS)
    flash.format_fs(dev, kind)
    path = '/bench_' + kind
    flash.mount(dev, kind, path)
    st = Store(path)
    st.load()
    r = {'kind': kind}
    # one save of the 100-frame state, on a filesystem that has seen a game already
    for f in range(FRAMES + 1):
        st.save(game_state(f))
    dev.reset_counters()
    state = game_state(FRAMES, 1)
    t0 = ticks_us()
    st.save(state)
    r['file'] = st.written
    r['us'] = ticks_diff(ticks_us(), t0)
    r['one'] = dev.counters()
    # steady state: GAMES games of FRAMES frames, one save per committed frame
    dev.reset_counters()
    wear = dev.track_wear()
    saves = 0
    t0 = ticks_us()
    for g in range(GAMES):
        for f in range(1, FRAMES + 1):
            st.save(game_state(f, g))
            saves += 1
    r['us_avg'] = ticks_diff(ticks_us(), t0) // saves
    r['saves'] = saves
    r['all'] = dev.counters()
    r['hot'] = max(wear)
    r['worn'] = len([1 for w in wear if w])
    flash.umount(path)
    return r


def fmt(x, places=2):
    # a float with a fixed number of decimals, without str.format's ports differences
    m = 10 ** places
    n = int(x * m + 0.5)
    s = str(n // m)
    if places:
        s += '.' + ('0' * places + str(n % m))[-places:]
    return s


def main():
    from scoreboard.store import payload_size, HEADER_SIZE
    js = payload_size(game_state(FRAMES))
    print('state of a %d-frame knock-off game: %d bytes of JSON (limit 4096; the store streams '
          'it, no cap)' % (FRAMES, js))
    print('slot file: %d-byte header + payload = %d bytes' % (HEADER_SIZE, HEADER_SIZE + js))
    print('  (that state spells each entry out as a list, as to_dict() does; the firmware saves '
          'the compact log: %d bytes for the same 100 frames, so the figures below are an upper '
          'bound)' % firmware_state_size(100))
    assert js < 4096
    print()
    print('bytes one save allocates (the firmware\'s state after %d frames, one save per '
          'committed frame; goal: %d per committed frame with the save, issue 17):'
          % (FRAMES, SAVE_GOAL))
    for kind, what in (('dir', 'the unix port\'s files (the simulator\'s flash folder)'),
                       ('lfs', 'littlefs (its per-file cache included)'),
                       ('fat', 'FAT (its per-file buffer included)')):
        one, same, n = save_bytes(kind)
        print('  %-52s %5d bytes a save (%d-byte file); the same state again: %d bytes, '
              'nothing written' % (what, one, n, same))
    lfs = run('lfs')
    fat = run('fat')
    for r in (lfs, fat):
        one = r['one']
        print()
        print('%s (%s): one save of the %d-frame state' % (
            r['kind'], '4096-byte sectors, 256-byte pages, like an RP2040' if r['kind'] == 'lfs'
            else '512-byte sectors', FRAMES))
        print('  file %d bytes; device: %d bytes written in %d block writes, %d erases, '
              '%d bytes read' % (r['file'], one['bytes_written'], one['writes'], one['erases'],
                                 one['bytes_read']))
        print('  host time %d us (average over a game: %d us)' % (r['us'], r['us_avg']))
        a = r['all']
        n = r['saves']
        print('  over %d games (%d saves, one per committed frame): %s bytes, %s block writes, '
              '%s erases per frame' % (GAMES, n, fmt(a['bytes_written'] / n, 0),
                                       fmt(a['writes'] / n, 1), fmt(a['erases'] / n, 3)))
        print('  blocks touched: %d of %d; the most worn one: %d %s in %d saves' % (
            r['worn'], LFS_BLOCKS if r['kind'] == 'lfs' else FAT_SECTORS, r['hot'],
            'erases' if r['kind'] == 'lfs' else 'writes', n))
    # flash time on the board, from the counts
    one = lfs['one']
    pages = one['bytes_written'] // 256
    est = one['erases'] * T_ERASE_MS + pages * T_PAGE_MS
    print()
    print('RP2040 flash time for that save (estimate): %d erases x %d ms + %d pages x %s ms '
          '= %s ms (typical; datasheet maxima are ~9x)' % (one['erases'], T_ERASE_MS, pages,
                                                           fmt(T_PAGE_MS, 1), fmt(est, 1)))
    # flash life with littlefs
    a = lfs['all']
    n = lfs['saves']
    e_frame = a['erases'] / n
    b_frame = a['bytes_written'] / n
    per_day = e_frame * FRAMES_PER_DAY
    budget = LFS_BLOCKS * CYCLES
    print()
    print('flash life, littlefs on a Pico (%d sectors x %d erase cycles = %d sector erases, '
          'spread by littlefs wear levelling):' % (LFS_BLOCKS, CYCLES, budget))
    print('  %s erases per frame x %d frames a day = %s erases a day' % (
        fmt(e_frame, 3), FRAMES_PER_DAY, fmt(per_day, 1)))
    if per_day:
        days = budget / per_day
        print('  %d / %s = %d days = %s years' % (budget, fmt(per_day, 1), int(days),
                                                  fmt(days / 365, 0)))
    # bound from bytes alone: each erase makes room for at most 4096 bytes of programs
    b_day = b_frame * FRAMES_PER_DAY
    floor = b_day / 4096
    print('  cross-check from bytes: %s bytes per frame x %d = %s bytes a day need at least '
          '%s erases a day; littlefs, rewriting its metadata logs, takes %s times that'
          % (fmt(b_frame, 0), FRAMES_PER_DAY, fmt(b_day, 0), fmt(floor, 1),
             fmt(per_day / floor, 1) if floor else '-'))
    hot = lfs['hot'] / n * FRAMES_PER_DAY
    if hot:
        print('  without any levelling, the most worn sector seen (%s erases a day) would '
              'last %s years' % (fmt(hot, 2), fmt(CYCLES / hot / 365, 1)))
    # FAT on raw flash has no levelling: its FAT and directory sectors take every save
    fhot = fat['hot'] / fat['saves'] * FRAMES_PER_DAY
    print()
    print('FAT: its hottest sector is rewritten %s times a day; on an SD card (wear levelled '
          'inside) that is harmless, on raw NOR flash with no levelling it would last %s days: '
          'use littlefs on flash' % (fmt(fhot, 0), fmt(CYCLES / fhot, 0) if fhot else '-'))


if __name__ == '__main__':
    if not hasattr(os, 'VfsLfs2'):
        print('bench_store.py needs MicroPython: .venv/bin/micropython -X heapsize=8M '
              'tools/bench_store.py')
        sys.exit(1)
    try:
        main()
    except MemoryError:
        print('out of memory: run with -X heapsize=8M (the two 1.4 MB RAM disks need room)')
        sys.exit(1)

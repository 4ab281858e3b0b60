# runs-on: micropython
# The bar boards of big WS2812 strip digits play seed 000's worked game through the buttons, and
# what the strip pieces show is read back from the LEDs: Alice (red) and Ben (blue) level 8-8
# after four frames, red's 8 in red on the left, blue's 8 in blue on the right, and the hammer
# marker (a digit cell of its own, its bottom bar lit) at red's outer end.
import app_probe
from app_probe import Out, new_sim, play

BIG = ('pico_ws2812_digits', 'pico_w_ws2812_digits', 'esp32_ws2812_digits')
EIGHT = 0x7F        # a..g, written out here rather than taken from the firmware's font

SEED_000 = (['tap OK'] + ['tap BLUE'] * 5 + ['tap OK'] + ['tap RED'] * 4 + ['tap OK'] +
            ['tap RED'] * 4 + ['tap OK'] + ['tap BLUE'] * 3 + ['tap OK', 'state'])


def test_the_big_digit_boards_are_in_the_board_list():
    names = app_probe.boards()
    for b in BIG:
        assert b in names, b


def test_big_digits_play_seed_000():
    import json
    for board in BIG:
        sim = play(new_sim(board, 'big', Out()), SEED_000)
        v = json.loads(sim.out.lines[-1])
        assert (v['red'], v['blue'], v['hammer'], v['frame']) == (8, 8, 'red', 5), (board, v)
        assert v['winner'] is None and v['screen'] == 'play'
        (chip,), = sim.chips
        segs = chip.digits()
        # Six digits: red's field on the left, blue's on the right, each with its marker cell at
        # the outer end; red has the hammer, so red's marker cell shows its bottom bar only.
        assert segs == [0x08, EIGHT, 0, 0, EIGHT, 0], (board, segs)
        cols = chip.colours()
        assert cols[1] == 'red' and cols[4] == 'blue', (board, cols)
        # The marker is a whole segment piece: digit 0's piece 5 (segment d in the board's
        # order f, a, b, g, e, d, c) is lit, every other piece of digit 0 dark.
        per = chip.per_digit
        assert per == 7 * chip.leds + chip.dp_leds and chip.dp_leds == chip.leds
        for piece in range(7):
            lit = max(chip.led(piece * chip.leds)) > 0
            assert lit == (piece == 5), (board, piece)


def test_big_digits_segment_order_is_the_board_files():
    # The board file's SEGMENT_ORDER is how the pieces are glued: the LEDs of piece 0 belong to
    # segment f (the left upper side), so a '1' (segments b, c) leaves piece 0 dark and lights
    # pieces 2 and 6 (b and c in the order f, a, b, g, e, d, c).
    for board in BIG:
        sim = new_sim(board, 'big1', Out())
        mod = sim.board
        assert mod.SEGMENT_ORDER == b'\x05\x00\x01\x06\x04\x03\x02'
        drv = sim.app.displays[0].drivers[0]
        assert drv.seg_order == mod.SEGMENT_ORDER and drv.leds == mod.LEDS_PER_SEGMENT
        for i in range(drv.width):
            drv.buf[i] = 0
        drv.buf[0] = 0x06
        drv.show()
        (chip,), = sim.chips
        lit = [p for p in range(7) if max(chip.led(p * drv.leds)) > 0]
        assert lit == [2, 6], (board, lit)

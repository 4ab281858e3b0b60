#!/usr/bin/env python3
"""A PNG of a board's display after a press script, drawn from the virtual chips.

  tools/render.py --board pico_tm1637 --script game.txt --out display.png
  tools/render.py --pictures docs/pictures      every board at the sample game (the README's)

The firmware runs on the virtual board under CPython (Pillow draws), exactly as in the
simulator; only what reached the chips is drawn. Several displays (one at each end) are stacked.
"""
import argparse
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import paths  # noqa: E402
import sim_engine  # noqa: E402

# The README's sample: seed 000's worked game after four frames (8-8), red about to score 3.
SAMPLE = """\
tap OK
tap BLUE
tap BLUE
tap BLUE
tap BLUE
tap BLUE
tap OK
tap RED
tap RED
tap RED
tap RED
tap OK
tap RED
tap RED
tap RED
tap RED
tap OK
tap BLUE
tap BLUE
tap BLUE
tap OK
tap RED
tap RED
tap RED
wait 20
"""


class Null:
    def write(self, s):
        pass


def chip_image(chip, scale):
    if chip.kind == 'pixels':
        from virtual import draw_pixels as d
        return d.png(chip, scale=max(3, scale * 2))
    from virtual import draw_segments as d
    return d.png(chip, scale=scale)


def picture(sim, scale=4, gap=24, bg=(20, 20, 20)):
    from PIL import Image
    rows = []
    for group in sim.chips:
        imgs = [chip_image(c, scale) for c in group]
        if not imgs:
            continue
        w = sum(i.size[0] for i in imgs) + gap * (len(imgs) - 1)
        h = max(i.size[1] for i in imgs)
        row = Image.new('RGB', (w, h), bg)
        x = 0
        for i in imgs:
            row.paste(i, (x, (h - i.size[1]) // 2))
            x += i.size[0] + gap
        rows.append(row)
    if not rows:
        raise SystemExit('board %s has no display' % sim.board_name)
    w = max(r.size[0] for r in rows) + 2 * gap
    h = sum(r.size[1] for r in rows) + gap * (len(rows) + 1)
    out = Image.new('RGB', (w, h), bg)
    y = gap
    for r in rows:
        out.paste(r, ((w - r.size[0]) // 2, y))
        y += r.size[1] + gap
    return out


def render(board, script_text, out_path, scale=4):
    paths.virtual()
    with tempfile.TemporaryDirectory() as flash:
        sim = sim_engine.Sim(board, flash, Null())
        for _, op, args in sim_engine.parse(script_text.splitlines(), sim.board.BUTTONS):
            sim.run(op, args)
        img = picture(sim, scale)
        img.save(out_path)
        return sim.app.ctl.view


def boards():
    return sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, 'boards')) if n.endswith('.py'))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--board', default='pico_tm1637')
    p.add_argument('--script', help='press script (default: the README sample game)')
    p.add_argument('--out', default='display.png')
    p.add_argument('--scale', type=int, default=4)
    p.add_argument('--pictures', metavar='DIR', help='render every board at the sample game')
    a = p.parse_args(argv)
    if a.pictures:
        os.makedirs(a.pictures, exist_ok=True)
        for b in boards():
            path = os.path.join(a.pictures, b + '.png')
            render(b, SAMPLE, path, a.scale)
            print(path)
        return 0
    if a.board not in boards():
        print('unknown board %r; known: %s' % (a.board, ', '.join(boards())), file=sys.stderr)
        return 2
    text = SAMPLE
    if a.script:
        with open(a.script) as f:
            text = f.read()
    try:
        view = render(a.board, text, a.out, a.scale)
    except sim_engine.ScriptError as e:
        print('%s: %s' % (a.script, e), file=sys.stderr)
        return 2
    print('%s: %s' % (a.out, sim_engine.dumps(view)))
    return 0


if __name__ == '__main__':
    sys.exit(main())

# A virtual board's displays as text (the simulator's `draw`, the pty board's picture()): one
# block per display (headed 'end N' where there are several), its chips side by side; loaded
# only when something draws.


def picture(groups, colour=False):
    """Text lines of every display; colour: ANSI colour codes (for a terminal only)."""
    lines = []
    for i in range(len(groups)):
        if len(groups) > 1:
            lines.append('end %d' % (i + 1))
        blocks = [term(c, colour) for c in groups[i]]
        height = max([len(b) for b in blocks]) if blocks else 0
        for r in range(height):
            row = ''
            for b in blocks:
                row += (b[r] if r < len(b) else '') + '   '
            lines.append(row.rstrip())
    return lines


def term(chip, colour=False):
    """Text lines of one chip: seven-segment art with exactly the module's segments, or pixel
    rows ('#'/'.' without colour, half blocks in 24-bit colour with it)."""
    if chip.kind == 'pixels':
        if colour:
            import draw_pixels
            return draw_pixels.term(chip)
        return chip.rows()
    import draw_segments
    return draw_segments.term(chip, colour)

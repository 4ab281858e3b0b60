# The colours of the matrix layouts, in one place: the layout draws these indices, a colour
# panel's driver turns them into LED bytes (drivers/ws2812_panel.py takes PALETTE as its
# default), a mono panel lights every index but OFF (and DIM, which it cannot show).
OFF = 0
RED = 1
BLUE = 2
AMBER = 3      # everything that is not a side's: labels, info, the cursor
DIM = 4        # empty bed slots

# (r, g, b) at full scale for the indices above.
PALETTE = ((0, 0, 0), (255, 0, 0), (0, 60, 255), (255, 150, 0), (40, 40, 40))

# Seven-segment font: canonical segment bytes (bit0 = a, bit1 = b, bit2 = c, bit3 = d, bit4 = e,
# bit5 = f, bit6 = g, bit7 = dp), the TM1637 order; other chips remap in their drivers.
#
#      a
#    f   b
#      g
#    e   c
#      d   dp
#
# ASCII 32..127, one byte a glyph. Letters are the usual seven-segment approximations: upper case
# where the capital is readable (A C E F G H J L O P S U), lower case shapes otherwise (b c d h
# i n o r t u); M is drawn as an arch, W as three bars, K and X like H. 'g' is drawn as 'G': the
# lower-case shape is a 9, and a word must not put a digit on the display. '+' is the left half
# of a plus (e, f, g); the layouts' pending sign is PLUS, segments d and g, which is no letter.
from ..compat import const

FIRST = const(32)
BLANK = const(0x00)
MINUS = const(0x40)
DP = const(0x80)
BAR = const(0x08)      # segment d alone: the '_' marker
PLUS = const(0x48)      # the pending sign ('12=2'): no letter's shape

FONT = (
    b'\x00\x82\x22\x76\x6d\x64\x5b\x20\x39\x0f\x63\x70\x04\x40\x80\x52'
    b'\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x48\x0c\x68\x48\x4a\x53'
    b'\x7b\x77\x7c\x39\x5e\x79\x71\x3d\x76\x30\x1e\x75\x38\x37\x54\x3f'
    b'\x73\x67\x50\x6d\x78\x3e\x1c\x2a\x76\x6e\x5b\x39\x64\x0f\x23\x08'
    b'\x02\x5f\x7c\x58\x5e\x7b\x71\x3d\x74\x10\x0e\x75\x30\x37\x54\x5c'
    b'\x73\x67\x50\x6d\x78\x1c\x1c\x2a\x76\x6e\x5b\x46\x30\x70\x01\xff'
)

# Digits 0..9 (the same bytes as FONT[16:26], kept apart so number drawing is one index).
DIGITS = b'\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f'

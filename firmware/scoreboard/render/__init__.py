# Layouts draw text by indexing str objects. MicroPython turns a one-character string into an
# interned qstr, and the first time a character is seen that may allocate room in the qstr pool.
# The displays are refreshed with the heap locked, so every printable character is interned
# here, once, when the layouts are imported.
for _c in range(32, 127):
    chr(_c)

# The scoreboard firmware: core (the rules), ui (buttons and screens), render, drivers, store
# and app. main.py calls prepare_heap() before it imports the app; so does the simulator.

GC_EVERY = 4096   # bytes allocated between automatic collections (gc.threshold)


def prepare_heap():
    """Collect every GC_EVERY bytes allocated, not only when the heap is full. Loading the
    firmware leaves garbage (the .mpy loader's buffers, class dicts outgrown while a class is
    built) between the code objects that stay; collected early, those holes are reused by the
    next module instead of spreading the live heap out (`make bench` shows the smallest heap
    with and without). The idle loop allocates nothing, so while the board waits this costs
    nothing; a commit with its save triggers about one collection."""
    import gc
    if not hasattr(gc, 'threshold'):   # CPython (the host tests): nothing to prepare
        return
    gc.collect()
    gc.threshold(GC_EVERY)

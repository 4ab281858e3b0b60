# Runs at every start and after every soft reset (mpremote makes one before its commands): the
# app folder that runs goes on sys.path (a REPL imports that version: apps.py), and a watchdog
# the firmware started, still running then, is fed while the USB session lasts (wdtfeed.py).
try:
    import apps

    apps.enter(count=False)
    import wdtfeed

    wdtfeed.after_soft_reset()
except Exception as e:  # never stop the board from starting
    print('boot.py: %r' % (e,))

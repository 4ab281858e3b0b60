# Runs at every start and after every soft reset (mpremote makes one before its commands): a
# watchdog the firmware started is still running then, and is fed while the USB session lasts
# (wdtfeed.py says how, and for how long).
try:
    import wdtfeed
    wdtfeed.after_soft_reset()
except Exception as e:  # never stop the board from starting
    print('boot.py: %r' % (e,))

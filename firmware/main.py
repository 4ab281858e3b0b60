# Shuffleboard scoreboard: start the app (board.py on this device names its pins and displays).
import apps

apps.enter()        # the app folder the pointer names, first on sys.path (DESIGN section 12)
try:
    import scoreboard

    scoreboard.prepare_heap()
    __import__('scoreboard.boardpick').boardpick.ensure()  # first boot after mip: board.py
    from scoreboard import app
except Exception as e:
    apps.broken(e)  # a version on trial that does not even load: back to the previous one
    raise
app.main()

# Shuffleboard scoreboard: start the app (board.py on this device names its pins and displays).
import scoreboard

scoreboard.prepare_heap()
__import__('scoreboard.boardpick').boardpick.ensure()   # first boot after mip: choose board.py
from scoreboard import app  # noqa: E402  (after the heap policy, so loading benefits from it)

app.main()

# Shuffleboard scoreboard: start the app (board.py on this device names its pins and displays).
import scoreboard

scoreboard.prepare_heap()
from scoreboard import app  # noqa: E402  (after the heap policy, so loading benefits from it)

app.main()

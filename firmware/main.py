# Shuffleboard scoreboard: start the app (board.py on this device names its pins and displays).
from scoreboard import app

app.main()

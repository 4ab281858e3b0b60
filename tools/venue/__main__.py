import sys

from venue.service import main

sys.exit(main(sys.argv[1:]))

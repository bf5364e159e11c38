import sys

from navlaw.cli import main

sys.exit(main())

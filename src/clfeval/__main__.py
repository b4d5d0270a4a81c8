"""``python -m clfeval``."""

import sys

from clfeval.cli import main

sys.exit(main())

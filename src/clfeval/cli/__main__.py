"""``python -m clfeval.cli``: the command line, as when it was one module (the console script and
``python -m clfeval`` start it through :mod:`clfeval.__main__`, which keeps Ctrl-C quiet while it starts)."""

import sys

from clfeval.cli import main

sys.exit(main())

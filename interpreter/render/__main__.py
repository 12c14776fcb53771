"""`python -m interpreter.render`: regenerate every committed rulebook."""

import sys

from .book import main

sys.exit(main(sys.argv[1:]))

"""`python -m interpreter.diff` regenerates the committed pages in generated_docs/diffs/."""

import sys

from .variants import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

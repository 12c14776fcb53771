"""`python -m interpreter ...` is the `cardrules` command."""

from .cli import main

if __name__ == "__main__":
    main()

"""`python -m interpreter ...` is the `cardrules` command."""

from .commands.launch import main

if __name__ == "__main__":
    main()

"""`python -m interpreter.lsp` starts the language server on stdio (as `cardrules lsp` does)."""

from . import main

if __name__ == "__main__":
    main()

"""The `cardrules` command line, one module a command family: `launch` (the front door, which
answers a `check` already made from the cache), `cli` (the Typer application: check, play,
replay, rulebook and the terminal game), `args` (what several commands parse alike), and the
commands of a room of their own: `balance`, `diff`, `fuzz`, `solve`, `serve`, `studio`. Each
reads its arguments, calls its room and prints; nothing below imports this package."""

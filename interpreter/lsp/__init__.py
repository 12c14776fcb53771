"""`cardrules lsp`: a language server for `.cards` files (diagnostics, hover, go to definition,
references, completion, outline, rename), on pygls.

`analysis` does the work without the protocol (and needs only the rest of cardrules); `server`
speaks the protocol and needs the `lsp` extra (pygls, lsprotocol)."""

from __future__ import annotations


def main() -> None:
    """Serve the protocol on stdin and stdout until the client says exit."""
    from .server import serve
    serve()

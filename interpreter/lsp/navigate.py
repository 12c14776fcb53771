"""What is under the cursor, and where else it is: go to definition, references and rename
across a variant's family. A mixin of analysis.Workspace."""

from __future__ import annotations

from pathlib import Path


from .index import Ref, Span, Symbol
from .text import NAME_FULL, line_tokens, token_at
from .model import BUILTIN, RENAMABLE, Analysis, RenameError, norm, _keywords, _value_names


class _Navigation:
    """Workspace methods that find names and their occurrences (see analysis.Workspace)."""

    # ---- what is under the cursor
    def target(self, path: str, line: int, col: int):
        """(namespace, name, local symbol or None, span) of the name at the position, or None.
        From the index when the chunk parsed, else from the text."""
        a = self.analysis(path)
        hit = a.at(line, col)
        if isinstance(hit, Ref):
            return (hit.ns, hit.name, hit.local, hit.span)
        if isinstance(hit, Symbol):
            return (hit.ns, hit.name, hit if hit.ns == "local" else None, hit.sel)
        if a.index.base_ref is not None and a.index.base_ref[1].contains(line, col):
            return ("file", a.index.base_ref[0], None, a.index.base_ref[1])
        tok = token_at(a.lines, line, col)
        if tok is None or tok.kind != "name":
            return None
        toks = line_tokens(a.lines[line], line)
        before = [t for t in toks if t.end <= tok.col]
        prev = before[-1].text if before else ""
        ns = "value"
        if prev == "perform":
            ns = "procedure"
        elif prev == "then" and toks and toks[0].text == "phase":
            ns = "phase"
        elif prev == "." and not (len(before) > 1 and before[-2].kind == "int"):
            ns = "attr"
        elif prev in ("procedure", "phase", "rule", "advice", "interpretation", "action"):
            ns = prev
        span = Span(line, tok.col, line, tok.end)
        return (ns, tok.text, None, span)

    def declarations(self, path: str, ns: str, name: str) -> list[tuple[str, Symbol]]:
        """Where a global name is declared along the base chain, this file first."""
        out = []
        for p in self.chain(path):
            a = self.analysis(p)
            for s in a.index.symbols:
                if s.name == name and s.ns == ns:
                    out.append((p, s))
        return out

    # ---- go to definition
    def definition(self, path: str, line: int, col: int) -> list[tuple[str, Span]]:
        t = self.target(path, line, col)
        if t is None:
            return []
        ns, name, local, _ = t
        if local is not None:
            return [(norm(path), local.sel)]
        if ns == "file":
            a = self.analysis(path)
            return [(a.base, Span(0, 0, 0, 0))] if a.base else []
        return [(p, s.sel) for p, s in self.declarations(path, ns, name)]

    # ---- references and rename
    def _origin(self, path: str, ns: str, name: str) -> str | None:
        decl = self.declarations(path, ns, name)
        return decl[-1][0] if decl else None

    def references(self, path: str, line: int, col: int, include_declaration: bool = True) -> list[tuple[str, Span]]:
        t = self.target(path, line, col)
        if t is None or t[0] == "file":
            return []
        return [(p, span) for p, span, _ in self._occurrences(path, t, include_declaration)]

    def _occurrences(self, path, t, include_declaration=True):
        ns, name, local, _ = t
        path = norm(path)
        out = []
        if local is not None:
            a = self.analysis(path)
            if include_declaration:
                out.append((path, local.sel, local))
            out.extend((path, r.span, r) for r in a.index.refs if r.local is local)
            return out
        origin = self._origin(path, ns, name)
        files = [f for f in self.family(path) if origin in self.chain(f)] if origin else [path]
        for f in files:
            a = self.analysis(f)
            if include_declaration:
                out.extend((f, s.sel, s) for s in a.index.symbols if s.ns == ns and s.name == name)
            out.extend((f, r.span, r) for r in a.index.refs if r.ns == ns and r.name == name and r.local is None)
        return out

    def prepare_rename(self, path: str, line: int, col: int) -> Span:
        t = self.target(path, line, col)
        if t is None:
            raise RenameError("there is no name here to rename")
        ns, name, local, span = t
        kind = self._kind_of(path, t)
        a = self.analysis(path)
        if a.broken:
            raise RenameError(self._unparsed(path, a) + f"; correct it before renaming {name!r}")
        if kind not in RENAMABLE:
            what = {"builtin": "a built-in name", "suit": "a suit", "rank": "a rank", "file": "a file name",
                    None: "a name this ruleset does not declare"}.get(kind, f"a {kind}")
            raise RenameError(f"{name!r} is {what}; only the ruleset's own definitions, options, zones, "
                              "variables, procedures, phases, rules and local names can be renamed")
        return span

    @staticmethod
    def _unparsed(path: str, a: Analysis) -> str:
        e = a.error
        where = f"{Path(path).name}:{e.line}:{e.column}" if e is not None and e.line else Path(path).name
        return f"{where} does not parse"

    def _kind_of(self, path, t) -> str | None:
        ns, name, local, _ = t
        if local is not None:
            return local.kind
        if ns == "file":
            return "file"
        decl = self.declarations(path, ns, name)
        if decl:
            return decl[-1][1].kind
        if ns == "value" and name in BUILTIN:
            return "builtin"
        return None

    def rename(self, path: str, line: int, col: int, new_name: str) -> dict[str, list[tuple[Span, str]]]:
        """The edits, file by file, that rename the name at the position across the family."""
        self.prepare_rename(path, line, col)
        t = self.target(path, line, col)
        ns, name, local, _ = t
        if not NAME_FULL.match(new_name or ""):
            raise RenameError(f"{new_name!r} is not a name: a name is letters, digits and _, not starting with a digit")
        if new_name in _keywords() or (ns == "value" and new_name in BUILTIN):
            raise RenameError(f"{new_name!r} is a word of the language; choose another name")
        if new_name == name:
            return {}
        occ = self._occurrences(path, t, True)
        files = sorted({f for f, _, _ in occ} | ({norm(path)} if local is None else set()))
        for f in files:
            a = self.analysis(f)
            if a.broken:
                raise RenameError(self._unparsed(f, a) + f"; correct it before renaming {name!r}")
        if local is None:
            for f in files:
                a = self.analysis(f)
                for s in a.index.symbols:
                    if s.name == new_name and s.ns == ns and s.ns != "local":
                        raise RenameError(f"{new_name!r} is already declared in {Path(f).name} "
                                          f"(line {s.sel.line + 1})")
                if ns == "value" and a.graph is not None and new_name in _value_names(a.graph):
                    raise RenameError(f"{new_name!r} already names something in {Path(f).name}")
                for f2, span, r in occ:
                    if f2 != f:
                        continue
                    for s in a.index.symbols:
                        if s.ns == "local" and s.name == new_name and s.scope and s.scope.contains(span.line, span.col):
                            raise RenameError(f"{name!r} at {Path(f).name}:{span.line + 1} would then be hidden by the "
                                              f"local name {new_name!r}")
        else:
            a = self.analysis(path)
            scope = local.scope
            for s in a.index.symbols:
                if s.ns == "local" and s.name == new_name and s.scope and scope and \
                        (scope.contains(s.sel.line, s.sel.col) or s.scope.contains(local.sel.line, local.sel.col)):
                    raise RenameError(f"{new_name!r} is already a local name here (line {s.sel.line + 1})")
            for r in a.index.refs:
                if r.name == new_name and r.local is None and scope and scope.contains(r.span.line, r.span.col):
                    raise RenameError(f"{new_name!r} is used inside this {local.kind}'s scope "
                                      f"(line {r.span.line + 1}); the new name would hide it")
        edits: dict[str, list] = {}
        for f, span, _ in occ:
            lst = edits.setdefault(f, [])
            if all(s != span for s, _ in lst):
                lst.append((span, new_name))
        for lst in edits.values():
            lst.sort(key=lambda e: (e[0].line, e[0].col))
        return edits

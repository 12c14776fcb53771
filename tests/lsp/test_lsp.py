"""The language server (`cardrules lsp`), the Pygments lexer and the editor files.

Two halves: the analysis without the protocol (interpreter/lsp/analysis.py: the same errors as
`cardrules check`, the same graphs as `build_file`, hover, definition, references, completion,
outline, rename, bad input), and the server driven end to end through the protocol by
pytest-lsp, one server process for the whole module."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import sys
import threading
import tomllib
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from interpreter import CardRulesError, load_ruleset, loads_ruleset
from interpreter.language.build import build_file
from interpreter.lsp import analysis as an
from interpreter.lsp.text import chunk_starts, error_range

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
BROKEN = sorted((ROOT / "tests" / "language" / "broken").glob("*.cards"))
VSCODE = ROOT / "editors" / "vscode"


@pytest.fixture(scope="module")
def family(tmp_path_factory) -> Path:
    """A copy of the Ganjifa family (a base and its variants), to edit and rename in."""
    d = tmp_path_factory.mktemp("ganjifa")
    for p in (RULESETS / "ganjifa").glob("*.cards"):
        shutil.copy(p, d / p.name)
    return d


def _ws(*open_files: Path) -> an.Workspace:
    ws = an.Workspace()
    for p in open_files:
        ws.open_doc(str(p), p.read_text(encoding="utf-8"), 1)
    return ws


def _pos(text: str, needle: str, nth: int = 0, offset: int = 0) -> tuple[int, int]:
    """0-based (line, column) of the nth occurrence of needle in text, plus offset columns."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += len(needle) - len(needle.lstrip("\n"))  # a needle may start at a line's beginning
    line = text.count("\n", 0, i)
    col = i - (text.rfind("\n", 0, i) + 1)
    return line, col + offset


# ====================================================================== analysis, no protocol

def test_every_ruleset_builds_to_the_same_graph_as_build_file():
    ws = an.Workspace()
    for p in sorted(RULESETS.rglob("*.cards")):
        a = ws.analysis(str(p))
        assert a.error is None, (p, a.error)
        assert a.graph == build_file(p.resolve()), p


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_every_broken_file_gets_the_error_check_reports(path):
    with pytest.raises(CardRulesError) as info:
        load_ruleset(path)
    want = info.value
    ws = _ws(path)
    a = ws.analysis(str(path))
    assert (a.error.line, a.error.column, a.error.message) == (want.line, want.column, want.message)
    d = a.diagnostics[0]
    assert d.severity == an.ERROR and d.message == want.message
    assert d.span.line == want.line - 1


def test_edits_give_the_same_errors_as_loading_the_whole_text():
    """Random edits of an open document, analysed chunk by chunk (cached, shifted): at every
    step the error, or the graph, is the one the whole text gives."""
    rng = random.Random(7)
    path = RULESETS / "ganjifa" / "traditional-deni.cards"
    base = RULESETS / "ganjifa" / "ganjifa.cards"
    for target in (base, path):
        ws = _ws(target)
        original = target.read_text(encoding="utf-8")
        text = original
        for step in range(18):
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            op = rng.randrange(6)
            if op == 0 and lines[i]:
                j = rng.randrange(len(lines[i]))
                lines[i] = lines[i][:j] + lines[i][j + 1:]
            elif op == 1:
                lines.insert(i, rng.choice(["", "    ", "define zz = 1", "# a comment", "phase", "  x",
                                            "define q(p: player) = count(hand(", ")", "rule r:", "\\"]))
            elif op == 2:
                del lines[i]
            elif op == 3:
                j = rng.randrange(len(lines[i]) + 1)
                lines[i] = lines[i][:j] + rng.choice(["(", ")", '"', ":", " and", "1", "#", "x"]) + lines[i][j:]
            elif op == 4:
                lines = original.split("\n")
            text = "\n".join(lines)
            ws.change_doc(str(target), text, step + 2)
            a = ws.analysis(str(target))
            try:
                want = loads_ruleset(text, str(target.resolve()))
                assert a.error is None and a.graph == want, (target.name, step, a.error)
            except CardRulesError as e:
                assert a.error is not None, (target.name, step, e)
                assert (a.error.line, a.error.column, a.error.message) == (e.line, e.column, e.message), \
                    (target.name, step)


def test_chunks_start_at_top_level_lines_outside_brackets():
    lines = ["# c", "game g", "players 2", "define x = (1 +", "2)", "    # x", "define y = 1 + \\", "2", "phase p:",
             "    pass", '# "(', "zone z shared hidden"]
    assert chunk_starts(lines) == [0, 2, 3, 6, 8, 11]


def test_error_ranges_cover_the_token_or_the_rest_of_the_line():
    lines = ["define x = foo + 1", "define y ="]
    assert error_range(lines, 1, 12) == (0, 11, 0, 14)        # foo
    assert error_range(lines, 2, 11) == (1, 9, 1, 10)         # the line ends: its last character
    assert error_range(lines, 1, 11) == (0, 10, 0, 18)        # a space: to the end of the line
    assert error_range(lines, None, None) == (0, 0, 0, 0)


def test_hover_gives_the_authors_text_and_the_precise_reading():
    p = RULESETS / "ganjifa" / "ganjifa.cards"
    ws = _ws(p)
    text = p.read_text(encoding="utf-8")
    md, _ = ws.hover(str(p), *_pos(text, "define holding", offset=8))
    assert "**definition** `holding(p: player)`" in md and "*Precisely:*" in md
    md, _ = ws.hover(str(p), *_pos(text, "holding(leader)", offset=2))  # a use, not the definition
    assert "**definition** `holding(p: player)`" in md
    md, _ = ws.hover(str(p), *_pos(text, "count(", offset=1))
    assert "built-in" in md and "count(SET)" in md
    md, _ = ws.hover(str(p), *_pos(text, "\nzone ", offset=6))
    assert md.startswith("**zone**")
    md, _ = ws.hover(str(p), *_pos(text, "\nphase ", offset=7))
    assert md.startswith("**phase**")
    md, _ = ws.hover(str(p), *_pos(text, "rule unbeatable_leads", offset=6))
    assert md.startswith("**rule** `unbeatable_leads`") and "*When:*" in md
    md, _ = ws.hover(str(p), *_pos(text, "\noption ", offset=8))
    assert md.startswith("**option**") and "default" in md
    md, _ = ws.hover(str(p), *_pos(text, "\nphase ", offset=2))  # the keyword itself
    assert "keyword" in md


def test_hover_in_a_variant_reads_the_base(family):
    v = family / "traditional-deni.cards"
    ws = _ws(v)
    text = v.read_text(encoding="utf-8")
    md, _ = ws.hover(str(v), *_pos(text, "rivals_above(h)", offset=1))
    assert "from `ganjifa.cards`" in md and "*Precisely:*" in md
    md, _ = ws.hover(str(v), *_pos(text, "(h: card)", offset=1))
    assert md.startswith("**local name** `h: card`")


def test_definition_goes_from_a_variant_into_its_base(family):
    v, base = family / "traditional-deni.cards", family / "ganjifa.cards"
    ws = _ws(v)
    text, base_text = v.read_text(encoding="utf-8"), base.read_text(encoding="utf-8")
    [(path, span)] = ws.definition(str(v), *_pos(text, "rivals_above(h)", offset=3))
    assert Path(path) == base and (span.line, span.col) == _pos(base_text, "define rivals_above", offset=7)
    # an overridden definition: the variant's own first, then the base's it replaces
    found = ws.definition(str(v), *_pos(text, "deni_card", offset=2))
    assert [Path(p) for p, _ in found] == [v, base]
    # the base file named in the header
    assert ws.definition(str(v), *_pos(text, '"ganjifa.cards"', offset=3)) == [(str(base), an.Span(0, 0, 0, 0))]


def test_references_and_rename_cover_the_variant_family(family):
    v, base = family / "traditional-deni.cards", family / "ganjifa.cards"
    ws = _ws(v)
    text = v.read_text(encoding="utf-8")
    where = _pos(text, "rivals_above(h)", offset=1)
    refs = ws.references(str(v), *where)
    assert {Path(p) for p, _ in refs} == {v, base}
    edits = ws.rename(str(v), *where, "rivals_higher")
    assert set(map(Path, edits)) == {v, base}
    base_text = base.read_text(encoding="utf-8")
    assert len(edits[str(base)]) == base_text.count("rivals_above")
    # a definition that every variant may replace: renamed in the siblings too
    edits = ws.rename(str(base), *_pos(base_text, "define deni_card", offset=8), "deni_able")
    assert {Path(p).name for p in edits} >= {"ganjifa.cards", "traditional-deni.cards"}
    for p, lst in edits.items():
        lines = Path(p).read_text(encoding="utf-8").split("\n")
        assert all(lines[s.line][s.col:s.end_col] == "deni_card" for s, _ in lst)


def test_rename_refuses_what_it_cannot_do(family):
    base = family / "ganjifa.cards"
    ws = _ws(base)
    text = base.read_text(encoding="utf-8")
    with pytest.raises(an.RenameError, match="built-in"):
        ws.prepare_rename(str(base), *_pos(text, "count(", offset=1))
    where = _pos(text, "define holding", offset=8)
    with pytest.raises(an.RenameError, match="already"):
        ws.rename(str(base), *where, "held")
    with pytest.raises(an.RenameError, match="not a name"):
        ws.rename(str(base), *where, "9lives")
    with pytest.raises(an.RenameError, match="word of the language"):
        ws.rename(str(base), *where, "phase")
    # a parameter: only inside its definition
    line, col = _pos(text, "define holding(p", offset=15)
    edits = ws.rename(str(base), line, col, "who")
    [(path, lst)] = edits.items()
    assert all(s.line == line for s, _ in lst) and len(lst) == 3
    # a file that does not parse is not renamed in
    ws.change_doc(str(base), text.replace("define holding(p: player) =", "define holding(p: player) = ("), 2)
    with pytest.raises(an.RenameError, match="does not parse"):
        ws.rename(str(base), *_pos(text, "define held", offset=8), "kept")


def test_completion_after_an_open_call_in_a_half_typed_file():
    p = RULESETS / "ganjifa" / "ganjifa.cards"
    ws = _ws(p)
    assert ws.analysis(str(p)).error is None  # opened in the editor: the last good parse
    lines = p.read_text(encoding="utf-8").split("\n")
    i = next(n for n, line in enumerate(lines) if "while count(holding(leader)) > 0:" in line)
    lines.insert(i + 1, "        let n = count(holding(")
    ws.change_doc(str(p), "\n".join(lines), 2)
    a = ws.analysis(str(p))
    assert a.stage == "parse" and a.last_good is not None
    items = {it.label: it for it in ws.completion(str(p), i + 1, len(lines[i + 1]))}
    assert {"leader", "holding", "unbeatable", "hand", "next", "players", "Raja-Rama"} <= set(items)
    assert items["leader"].preselect and items["leader"].sort < items["holding"].sort  # a player is wanted
    assert items["Raja-Rama"].insert == "card(Raja, Rama)"
    assert "n" not in items  # the let being written is not yet a name


def test_completion_knows_where_it_is():
    p = RULESETS / "ganjifa" / "ganjifa.cards"
    ws = _ws(p)
    text = p.read_text(encoding="utf-8")
    line, col = _pos(text, "define holding(p: player) = hand(p)", offset=len("define holding(p: player) = "))
    labels = {it.label for it in ws.completion(str(p), line, col)}
    assert "p" in labels and "holding" in labels and "count" in labels
    lines = text.split("\n")
    lines.append("define probe(c: card) = c.")
    ws.change_doc(str(p), "\n".join(lines), 2)
    labels = {it.label for it in ws.completion(str(p), len(lines) - 1, len(lines[-1]))}
    assert {"suit", "rank", "owner", "depth"} <= labels and "holding" not in labels
    lines[-1] = ""
    ws.change_doc(str(p), "\n".join(lines), 3)
    labels = {it.label for it in ws.completion(str(p), len(lines) - 1, 0)}
    assert {"define", "phase", "option", "zone"} <= labels
    assert ws.completion(str(p), *_pos(text, "# ", offset=2)) == []  # in a comment
    lines[-1] = "define probe(c: "
    ws.change_doc(str(p), "\n".join(lines), 4)
    labels = {it.label for it in ws.completion(str(p), len(lines) - 1, len(lines[-1]))}
    assert {"card", "player", "cards", "int"} <= labels and "holding" not in labels
    lines[-1] = "zone facing per player "  # who sees a zone: the four visibilities
    ws.change_doc(str(p), "\n".join(lines), 5)
    items = {it.label: it for it in ws.completion(str(p), len(lines) - 1, len(lines[-1]))}
    assert set(items) == {"hidden", "owner", "others", "public"} and "but its owner" in items["others"].doc


def test_outline_lists_phases_with_their_rules_and_the_declarations():
    p = RULESETS / "ganjifa" / "ganjifa.cards"
    ws = _ws(p)
    outline = ws.symbols(str(p))
    kinds = {s.kind for s in outline}
    assert {"game", "deck", "zone", "option", "define", "phase", "advice"} <= kinds
    phases = [s for s in outline if s.kind == "phase"]
    nested = {c.name: c.kind for ph in phases for c in an.walk_symbols(ph.children)}
    assert nested["unbeatable_leads"] == "rule" and "action" in nested.values()
    # a chunk that does not parse still shows by its first line
    text = p.read_text(encoding="utf-8") + "\ndefine broken(p: player) = count(\n"
    ws.change_doc(str(p), text, 2)
    assert any(s.name == "broken" for s in ws.symbols(str(p)))


def test_static_findings_become_warnings(tmp_path):
    game = tmp_path / "g.cards"
    game.write_text("game g\nplayers 2\ndeck d:\n    suits Red, Blue\n    ranks 1..3\nzone stock shared hidden\n"
                    "zone hand per player owner\ndefine spare(p: player) = count(hand(p))\n"
                    "phase p:\n    if player_count > 5:\n        shuffle stock\n    deal 1 from stock to each hand\n",
                    encoding="utf-8")
    ws = _ws(game)
    a = ws.analysis(str(game))
    assert a.error is None and a.compiled
    warnings = an.static_findings(a)
    kinds = {d.code: d for d in warnings}
    assert {"unused-definition", "constant-condition"} <= set(kinds)
    assert kinds["unused-definition"].span == an.Span(7, 7, 7, 12)  # the definition's name
    assert all(d.severity == an.WARNING for d in warnings)


def test_bad_input_is_a_diagnostic(tmp_path):
    ws = an.Workspace()
    cases = {
        "nul.cards": "game g\x00\nplayers 2\n",
        "huge.cards": "# " + "x" * (an.MAX_CHARS + 10) + "\n",
        "empty.cards": "",
        "deep.cards": "game g\ndefine x = " + "(" * 3000 + "1" + ")" * 3000 + "\n",
        "missing-base.cards": 'variant v of "nowhere.cards"\n',
        "folder-base.cards": 'variant v of "sub"\n',
        "binary-base.cards": 'variant v of "binary.cards"\n',
        "cycle-a.cards": 'variant a of "cycle-b.cards"\n',
        "cycle-b.cards": 'variant b of "cycle-a.cards"\n',
        "big-number.cards": "game g\nplayers " + "9" * 5000 + "\n",
        "many-ranks.cards": "game g\nplayers 2\ndeck d:\n    suits A\n    ranks 1..100000000\n",
    }
    (tmp_path / "sub").mkdir()
    (tmp_path / "binary.cards").write_bytes(b"game \xff\xfe\n")
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        ws.open_doc(str(tmp_path / name), text, 1)
    messages = {}
    for name in cases:
        a = ws.analysis(str(tmp_path / name))
        assert a.error is not None and len(a.diagnostics) == 1, name
        assert a.stage != "internal" or name == "deep.cards", (name, a.error)
        messages[name] = a.diagnostics[0].message
    assert "unexpected character" in messages["nul.cards"]
    assert "too large" in messages["huge.cards"]
    assert "was not found" in messages["missing-base.cards"]
    assert "folder" in messages["folder-base.cards"]
    assert "not UTF-8" in messages["binary-base.cards"]
    assert "its own base" in messages["cycle-a.cards"]
    assert "a number of 5,000 digits is larger than the language allows" in messages["big-number.cards"]
    assert "100,000,000 ranks" in messages["many-ranks.cards"]
    a = ws.analysis(str(tmp_path / "unreadable.cards"))  # not open, not on disk
    assert a.stage == "read" and "no such ruleset file" in a.diagnostics[0].message
    for name in cases:  # the other features answer too
        p = str(tmp_path / name)
        ws.hover(p, 0, 1), ws.definition(p, 0, 1), ws.completion(p, 0, 1), ws.symbols(p)


def test_a_base_that_cannot_be_a_file_is_a_diagnostic_at_its_name(tmp_path):
    """As `cardrules check` says it (tests/language/broken/46-51), open in the editor or only on disk: a
    NUL in the name, a device (never read), a folder, a name too long, a path through a file, a pipe."""
    cases = {
        "nul.cards": ("ganjifa.card\x00s", "the base ruleset's name holds a NUL character"),
        "device.cards": ("/dev/zero", "is not a regular file but a device"),
        "folder.cards": (".", "is a folder, not a ruleset file"),
        "long.cards": ("a" * 5000 + ".cards", "the base ruleset's name is too long for a file's name"),
        "through.cards": ("nul.cards/base.cards", "is a file, not a folder"),
    }
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe")
        cases["pipe.cards"] = ("pipe", "is not a regular file but a named pipe")
    for name, (base, _) in cases.items():
        (tmp_path / name).write_text(f'variant v "V" of "{base}"\n', encoding="utf-8")
    done, failed = [], []

    def analyse_all():
        try:
            analyse()
        except BaseException as e:  # noqa: BLE001 - raised again in the test
            failed.append(e)

    def analyse():
        for open_it in (True, False):
            ws = an.Workspace()
            for name, (base, want) in cases.items():
                p = tmp_path / name
                if open_it:
                    ws.open_doc(str(p), p.read_text(encoding="utf-8"), 1)
                a = ws.analysis(str(p))
                [d] = a.diagnostics
                assert (d.span.line, d.span.col) == (0, 17) and want in d.message, (name, open_it, d)
                assert a.stage == "build"
                ws.hover(str(p), 0, 20), ws.definition(str(p), 0, 20), ws.completion(str(p), 0, 20)
                ws.symbols(str(p)), ws.references(str(p), 0, 8), ws.family(str(p))
                done.append(name)
    t = threading.Thread(target=analyse_all, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "a base was waited on or read without end"
    if failed:
        raise failed[0]
    assert len(done) == 2 * len(cases)


def test_an_unexpected_exception_is_one_diagnostic_at_the_start(monkeypatch, tmp_path, caplog):
    def boom(trees):
        raise ValueError("a bug")
    monkeypatch.setattr(an, "index_trees", boom)
    ws = an.Workspace()
    ws.open_doc(str(tmp_path / "x.cards"), "game g\nplayers 2\n", 1)
    [d] = ws.analysis(str(tmp_path / "x.cards")).diagnostics
    assert (d.span.line, d.span.col) == (0, 0) and "ValueError: a bug" in d.message and "bug in cardrules" in d.message
    assert "a bug" in caplog.text  # with the traceback, in the server's log


def test_an_error_in_the_base_shows_on_the_variants_header(family, tmp_path):
    base = tmp_path / "base.cards"
    base.write_text((family / "ganjifa.cards").read_text(encoding="utf-8").replace("define held(", "define held((", 1),
                    encoding="utf-8")
    v = tmp_path / "v.cards"
    v.write_text('variant v of "base.cards"\noption double_opening = false\n', encoding="utf-8")
    ws = _ws(v)
    [d] = ws.analysis(str(v)).diagnostics
    assert d.span.line == 0 and "base.cards" in d.message and Path(d.related[0][0]) == base


# ---- highlighting and the editor folder

def test_the_lexer_highlights_every_ruleset_without_an_error_token():
    from pygments.token import Error

    from interpreter.language.highlight import CardsLexer
    lexer = CardsLexer()
    for p in sorted(RULESETS.rglob("*.cards")):
        text = p.read_text(encoding="utf-8")
        tokens = list(lexer.get_tokens(text))
        assert not [v for t, v in tokens if t is Error], p
        assert "".join(v for _, v in tokens) == text if text.endswith("\n") else text + "\n"


def test_the_lexer_knows_every_keyword_and_is_registered_as_cards():
    from lark.lexer import PatternStr

    from interpreter.language import highlight
    from interpreter.language.parse import parser
    grammar = {t.pattern.value for t in parser().terminals if isinstance(t.pattern, PatternStr)
               and t.pattern.value.isalpha()}
    known = set(highlight.KEYWORDS) | set(highlight.BUILTIN_NAMES) | set(highlight.CONTEXT_WORDS) | {"true", "false",
                                                                                                     "none"}
    assert grammar <= known, grammar - known
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert conf["project"]["entry-points"]["pygments.lexers"]["cards"] == "interpreter.language.highlight:CardsLexer"
    from importlib.metadata import entry_points
    if any(e.name == "cards" for e in entry_points(group="pygments.lexers")):  # installed with this pyproject
        from pygments.lexers import get_lexer_by_name
        assert type(get_lexer_by_name("cards")).__name__ == "CardsLexer"


def test_the_vscode_folder_is_complete_and_its_grammar_compiles():
    pkg = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    [lang] = pkg["contributes"]["languages"]
    assert lang["id"] == "cards" and ".cards" in lang["extensions"]
    for rel in (pkg["main"], lang["configuration"], pkg["contributes"]["grammars"][0]["path"], "README.md"):
        assert (VSCODE / rel).is_file(), rel
    conf = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert conf["comments"]["lineComment"] == "#"
    block = re.compile(conf["indentationRules"]["increaseIndentPattern"])
    assert block.match("phase play \"Play\":") and block.match("    if x: # note") and not block.match("# a:")
    assert not block.match('    text "a: b"')
    grammar = json.loads((VSCODE / "syntaxes" / "cards.tmLanguage.json").read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.cards"

    def patterns(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("match", "begin", "end"):
                    yield v
                else:
                    yield from patterns(v)
        elif isinstance(node, list):
            for v in node:
                yield from patterns(v)
    found = list(patterns(grammar))
    assert len(found) > 10
    for pat in found:
        re.compile(pat)
    assert "vscode-languageclient" in pkg["dependencies"]
    assert "cardrules" in (VSCODE / "extension.js").read_text(encoding="utf-8")


def test_the_command_without_pygls_names_the_extra(monkeypatch):
    from typer.testing import CliRunner

    from interpreter.commands.cli import app
    monkeypatch.setitem(sys.modules, "pygls", None)
    r = CliRunner().invoke(app, ["lsp"])
    assert r.exit_code == 2 and "cardrules[lsp]" in r.output


# ====================================================================== through the protocol

e2e = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "interpreter", "lsp"]))
async def client(lsp_client: LanguageClient, family: Path):
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=family.as_uri(),
        workspace_folders=[T.WorkspaceFolder(uri=family.as_uri(), name="ganjifa")]))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=uri, language_id="cards", version=version,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


async def _diagnostics(client: LanguageClient, uri: str, test=lambda ds: True, seconds: float = 60.0):
    """The diagnostics published for uri once `test` holds for them (the latest, on timeout)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        if uri in client.diagnostics and test(client.diagnostics[uri]):
            return client.diagnostics[uri]
        await asyncio.sleep(0.02)
    return client.diagnostics.get(uri)


def _doc(uri: str) -> T.TextDocumentIdentifier:
    return T.TextDocumentIdentifier(uri=uri)


@e2e
async def test_a_broken_file_gets_its_diagnostic_at_the_right_range(client: LanguageClient, family: Path):
    src = ROOT / "tests" / "language" / "broken" / "03-incomplete-expression.cards"  # expect: 11:16: the line ends too early
    path = family / "broken.cards"
    text = src.read_text(encoding="utf-8")
    uri = _open(client, path, text)
    [d] = await _diagnostics(client, uri, lambda ds: len(ds) > 0)
    assert d.severity == T.DiagnosticSeverity.Error and d.source == "cardrules"
    assert d.message == "the line ends too early; expected an expression"
    assert (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character) == (10, 14, 10, 15)
    # fixed by an edit: the diagnostic goes
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=10, character=15), end=T.Position(line=10, character=15)),
            text=" 2\n    pass")]))
    ds = await _diagnostics(client, uri, lambda ds: not any(x.severity == T.DiagnosticSeverity.Error for x in ds))
    assert not any(x.severity == T.DiagnosticSeverity.Error for x in ds)


@e2e
async def test_hover_on_a_definition(client: LanguageClient, family: Path):
    path = family / "ganjifa.cards"
    text = path.read_text(encoding="utf-8")
    uri = _open(client, path)
    line, col = _pos(text, "define holding", offset=9)
    h = await client.text_document_hover_async(T.HoverParams(text_document=_doc(uri),
                                                             position=T.Position(line=line, character=col)))
    assert h.contents.kind == T.MarkupKind.Markdown
    assert "`holding(p: player)`" in h.contents.value and "*Precisely:*" in h.contents.value
    assert (h.range.start.line, h.range.start.character) == (line, col - 2)


@e2e
async def test_go_to_definition_from_a_variant_into_its_base(client: LanguageClient, family: Path):
    v = family / "traditional-deni.cards"
    text = v.read_text(encoding="utf-8")
    uri = _open(client, v)
    line, col = _pos(text, "next_unplayed_above(h)", offset=4)
    found = await client.text_document_definition_async(T.DefinitionParams(
        text_document=_doc(uri), position=T.Position(line=line, character=col)))
    [loc] = found
    base_text = (family / "ganjifa.cards").read_text(encoding="utf-8")
    assert loc.uri == (family / "ganjifa.cards").as_uri()
    assert (loc.range.start.line, loc.range.start.character) == _pos(base_text, "define next_unplayed_above", offset=7)
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=_doc(uri), position=T.Position(line=line, character=col),
        context=T.ReferenceContext(include_declaration=True)))
    assert {r.uri for r in refs} == {uri, loc.uri}


@e2e
async def test_completion_after_holding(client: LanguageClient, family: Path):
    path = family / "ganjifa.cards"
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    _open(client, path, text)
    line, _ = _pos(text, "while count(holding(leader)) > 0:")
    typed = "        let had = count(holding("
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=5),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=line + 1, character=0), end=T.Position(line=line + 1, character=0)),
            text=typed + "\n")]))
    result = await client.text_document_completion_async(T.CompletionParams(
        text_document=_doc(uri), position=T.Position(line=line + 1, character=len(typed)),
        context=T.CompletionContext(trigger_kind=T.CompletionTriggerKind.TriggerCharacter, trigger_character="(")))
    items = {i.label: i for i in result.items}
    assert {"leader", "holding", "unbeatable", "next", "hand"} <= set(items)
    assert items["leader"].preselect
    [d] = await _diagnostics(client, uri, lambda ds: any(x.severity == T.DiagnosticSeverity.Error for x in ds))
    assert d.range.start.line == line + 2  # the next line is where the expression was expected to go on
    client.text_document_did_close(T.DidCloseTextDocumentParams(text_document=_doc(uri)))


@e2e
async def test_rename_across_base_and_variant(client: LanguageClient, family: Path):
    v = family / "traditional-deni.cards"
    text = v.read_text(encoding="utf-8")
    uri = _open(client, v)
    line, col = _pos(text, "rivals_above(h)", offset=2)
    pos = T.Position(line=line, character=col)
    r = await client.text_document_prepare_rename_async(T.PrepareRenameParams(text_document=_doc(uri), position=pos))
    assert (r.start.character, r.end.character) == (col - 2, col - 2 + len("rivals_above"))
    edit = await client.text_document_rename_async(T.RenameParams(text_document=_doc(uri), position=pos,
                                                                  new_name="rivals_higher"))
    base_uri = (family / "ganjifa.cards").as_uri()
    assert set(edit.changes) == {uri, base_uri}
    assert all(e.new_text == "rivals_higher" for es in edit.changes.values() for e in es)
    assert len(edit.changes[base_uri]) == (family / "ganjifa.cards").read_text(encoding="utf-8").count("rivals_above")
    with pytest.raises(Exception, match="built-in"):
        line, col = _pos(text, " in above(h)", offset=5)
        await client.text_document_prepare_rename_async(T.PrepareRenameParams(
            text_document=_doc(uri), position=T.Position(line=line, character=col)))


@e2e
async def test_document_symbols(client: LanguageClient, family: Path):
    uri = _open(client, family / "ganjifa.cards")
    symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=_doc(uri)))
    by_kind = {}
    for s in symbols:
        by_kind.setdefault(s.kind, []).append(s)
    assert T.SymbolKind.Module in by_kind and T.SymbolKind.Function in by_kind and T.SymbolKind.Field in by_kind
    phases = by_kind[T.SymbolKind.Module]
    assert any(c.kind == T.SymbolKind.Event for p in phases for c in (p.children or []))


@e2e
async def test_static_warnings_arrive_after_the_errors(client: LanguageClient, family: Path):
    path = family / "unused.cards"
    text = ("game g\nplayers 2\ndeck d:\n    suits Red, Blue\n    ranks 1..3\nzone stock shared hidden\n"
            "zone hand per player owner\ndefine spare(p: player) = count(hand(p))\n"
            "phase p:\n    deal 1 from stock to each hand\n")
    uri = _open(client, path, text)
    ds = await _diagnostics(client, uri, lambda ds: any(x.code == "unused-definition" for x in ds))
    [w] = [d for d in ds if d.code == "unused-definition"]
    assert w.severity == T.DiagnosticSeverity.Warning and w.range.start.line == 7


@e2e
async def test_bad_input_never_crashes_the_server(client: LanguageClient, family: Path, tmp_path):
    (tmp_path / "binary.cards").write_bytes(b"\xff\xfe\x00game")
    cases = {
        "nul.cards": ("game g\x00\nplayers 2\n", "unexpected character"),
        "huge.cards": ("# " + "x" * 2_000_000 + "\n", "too large"),
        "orphan.cards": ('variant v of "missing.cards"\noption x = 1\n', "was not found"),
        "unreadable-base.cards": ('variant v of "binary.cards"\n', "not UTF-8"),
        "nul-base.cards": ('variant v of "ganjifa.card\x00s"\n', "holds a NUL character"),
        "device-base.cards": ('variant v of "/dev/zero"\n', "not a regular file but a device"),
    }
    for name, (text, want) in cases.items():
        uri = _open(client, tmp_path / name, text)
        ds = await _diagnostics(client, uri, lambda ds: len(ds) > 0)
        assert ds and want in ds[0].message, (name, ds)
        h = await client.text_document_hover_async(T.HoverParams(text_document=_doc(uri),
                                                                 position=T.Position(line=0, character=2)))
        assert h is None or h.contents
    # still serving
    uri = _open(client, family / "ganjifa.cards")
    symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=_doc(uri)))
    assert symbols


@e2e
async def test_positions_count_utf16_units_as_the_client_does(client: LanguageClient, family: Path):
    text = ('game g\nplayers 2\ndeck d:\n    suits Red, Blue\n    ranks 1..3\nzone stock shared hidden\n'
            'zone hand per player owner\ndefine ready = count(stock) > 0\n    text "the stock is not empty"\n'
            'phase p:\n    rule r "\U0001F0A1 cards" when ready:\n        deal 1 from stock to each hand\n')
    uri = _open(client, family / "utf16.cards", text)
    line = 10
    utf16 = text.split("\n")[line].index("ready") + 1  # the card character is two UTF-16 units
    h = await client.text_document_hover_async(T.HoverParams(text_document=_doc(uri),
                                                             position=T.Position(line=line, character=utf16 + 1)))
    assert "the stock is not empty" in h.contents.value
    assert (h.range.start.character, h.range.end.character) == (utf16, utf16 + len("ready"))


LSP_CHECKER_KILLED = """
import asyncio, os, signal, sys
sys.path.insert(0, sys.argv[1])
from interpreter import load_ruleset
from interpreter.lsp.server import StaticChecker
checker = StaticChecker()
asyncio.run(checker.run(load_ruleset(sys.argv[2]), sys.argv[2], None, None))
print(*checker.pool._processes, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # as an editor that kills its language server outright
"""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="looks for the checker in /proc (Linux)")
def test_the_static_checkers_process_ends_when_the_language_server_is_killed():
    import time

    import procs
    ganjifa = Path(__file__).resolve().parents[2] / "rulesets" / "ganjifa" / "ganjifa.cards"
    import subprocess
    proc = procs.start([sys.executable, "-c", LSP_CHECKER_KILLED, Path(__file__).resolve().parents[2], ganjifa],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:  # not procs.finish: killing the group would end the checker for it
        out, err = proc.communicate(timeout=120)
        pids = [int(p) for p in out.split()]
        assert pids, err
        end = time.monotonic() + 5
        while any(procs.alive(p) for p in pids):
            assert time.monotonic() < end, f"the checker {pids} outlived its language server"
            time.sleep(0.1)
    finally:
        procs.kill(proc)


LSP_CHECKER_DIED = """
import sys, time
sys.path.insert(0, sys.argv[1])
from interpreter.lsp.server import StaticChecker
checker = StaticChecker()
pool = checker._pool()
busy = pool.submit(time.sleep, 120)               # the checker's process at work ...
sent = pool.submit(len, b"x" * 4_000_000)         # ... while a large check is written to it
queued = [pool.submit(len, b"") for _ in range(2)]
while not busy.running():
    time.sleep(0.05)
time.sleep(1.0)                                   # (the process has taken the first job)
queued[-1].cancel()                               # a request given up (the editor moved on)
proc = next(iter(pool._processes.values()))
proc.kill()                                       # the process dies before the checker is stopped
proc.join()
time.sleep(1.0)
checker.stop()                                    # the server's shutdown
print("stopped", flush=True)
"""


def test_the_server_exits_when_the_checkers_process_died_while_a_check_was_being_sent():
    """The language server's exit once hung for good: its static checker's process had died while
    the pool's feeder thread was writing a check into the pipe to it, and on Python 3.11 the pool's
    own clean-up can stop short (a request given up meanwhile makes it fail), so the feeder blocked
    on a pipe nobody read and the exit waited for it. `StaticChecker.stop` now closes that pipe and
    lets the exit go without the feeder, and the editor's wait for the server ends."""
    import subprocess

    import procs
    proc = procs.start([sys.executable, "-c", LSP_CHECKER_DIED, str(ROOT)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the process did not exit after its static checker was stopped")
    finally:
        procs.kill(proc)
    assert proc.returncode == 0 and "stopped" in out, err


def test_hover_on_index_says_what_it_is_of_a_zone_and_of_a_suit(tmp_path):
    p = tmp_path / "rows.cards"
    p.write_text((ROOT / "tests" / "engine" / "test_suit_index.py").read_text(encoding="utf-8")
                 .split('ROWS = """', 1)[1].split('"""', 1)[0], encoding="utf-8")
    ws = _ws(p)
    text = p.read_text(encoding="utf-8")
    md, _ = ws.hover(str(p), *_pos(text, "c.suit.index", offset=8))
    assert "ZONE.index" in md and "SUIT.index, RANK.index" in md and "counted from 1" in md, md

"""Start-up: the package ships the analysed grammar, used only when it fits; the grammar and
loaded rule graphs are otherwise kept in the user's cache folder, keyed by content, never
trusted when damaged; a check already answered answers at once."""

from __future__ import annotations

import os
import pickle
import shutil
import sys
from pathlib import Path

import lark
import procs
import pytest
from lark import Lark, Token, Tree

from bundled_games import paths_variants_slow
from interpreter.language import build, cache, parse
from interpreter.language.build import build_file
from interpreter.errors import CardRulesError, RulesetSyntaxError

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))
BROKEN = sorted((ROOT / "tests" / "language" / "broken").glob("*.cards"))


@pytest.fixture
def cache_in(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(folder))
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    monkeypatch.setattr(build, "_GRAPHS", type(build._GRAPHS)())  # the graphs this process kept: none
    return folder


@pytest.mark.parametrize("path", paths_variants_slow(RULESETS, [p.relative_to(ROOT / "rulesets").as_posix()
                                                              for p in RULESETS]))
def test_a_cached_graph_equals_a_built_one(path, cache_in, monkeypatch):
    first = build_file(path)  # builds and stores
    assert list(cache_in.glob("graph-*.pickle"))
    assert build_file(path) is first  # kept in this process
    build._GRAPHS.clear()
    again = build_file(path)  # from the cache on disk
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    fresh = build_file(path)
    assert again == first == fresh


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.pickle"))


@pytest.mark.parametrize("damage", [b"", b"garbage", "truncate", "wrong type"])
def test_a_damaged_entry_is_rebuilt_not_trusted(damage, cache_in, monkeypatch):
    path = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"
    good = build_file(path)
    (entry,) = _entries(cache_in, "graph")
    if damage == "truncate":
        entry.write_bytes(entry.read_bytes()[:100])
    elif damage == "wrong type":
        entry.write_bytes(pickle.dumps({"not": "a graph"}))
    else:
        entry.write_bytes(damage)
    build._GRAPHS.clear()  # (read from the disk again)
    assert build_file(path) == good
    assert pickle.loads(_entries(cache_in, "graph")[0].read_bytes())[0] == good  # rewritten


def test_changing_a_base_changes_its_variants(tmp_path, cache_in):
    for name in ("ganjifa.cards", "traditional-deni.cards"):
        shutil.copy(ROOT / "rulesets" / "ganjifa" / name, tmp_path / name)
    variant = tmp_path / "traditional-deni.cards"
    before = build_file(variant)
    base = tmp_path / "ganjifa.cards"
    base.write_text(base.read_text(encoding="utf-8").replace("players 3..4", "players 3..5", 1), encoding="utf-8")
    after = build_file(variant)
    assert (before.players_max, after.players_max) == (4, 5)


def test_an_unwritable_cache_folder_is_no_cache(tmp_path, monkeypatch):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(blocked / "cache"))
    assert cache.cache_dir() is None
    assert build_file(ROOT / "rulesets" / "mughal" / "komi.cards").name


def test_caching_can_be_turned_off(cache_in, monkeypatch):
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    build_file(ROOT / "rulesets" / "mughal" / "komi.cards")
    assert not cache_in.exists() or not any(cache_in.iterdir())


def _cardrules(args, cache_folder, *extra_env):
    env = {k: v for k, v in os.environ.items() if k not in ("CARDRULES_NO_CACHE",)}
    env["CARDRULES_CACHE_DIR"] = str(cache_folder)
    env["PYTHONPATH"] = str(ROOT)
    return procs.run([sys.executable, "-m", "interpreter", *args], capture_output=True, text=True,
                     env=env, cwd=ROOT, timeout=120)


def test_a_warm_check_says_exactly_what_a_cold_one_says(tmp_path):
    folder = tmp_path / "cache"
    args = ["check", "rulesets/ganjifa"]
    cold = _cardrules(args, folder)
    warm = _cardrules(args, folder)
    assert cold.returncode == warm.returncode == 0
    assert cold.stdout == warm.stdout and cold.stdout.count(": ok (") == 6
    assert list(folder.glob("checked-*.pickle"))


def test_a_warm_check_loads_neither_parser_nor_graph(tmp_path):
    folder = tmp_path / "cache"
    _cardrules(["check", "rulesets/mughal/komi.cards"], folder)
    probe = ("import sys; sys.argv = ['cardrules', 'check', 'rulesets/mughal/komi.cards']\n"
             "from interpreter.commands.launch import main\n"
             "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
             "print(code, 'interpreter.language.graph' in sys.modules, 'lark' in sys.modules)")
    env = dict(os.environ, CARDRULES_CACHE_DIR=str(folder), PYTHONPATH=str(ROOT))
    env.pop("CARDRULES_NO_CACHE", None)
    out = procs.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "0 False False"


def test_errors_are_never_cached(tmp_path):
    folder = tmp_path / "cache"
    bad = tmp_path / "bad.cards"
    bad.write_text((ROOT / "tests" / "language" / "broken" / "01-unknown-name.cards").read_text(encoding="utf-8"),
                   encoding="utf-8")
    first = _cardrules(["check", str(bad)], folder)
    second = _cardrules(["check", str(bad)], folder)
    assert first.returncode == second.returncode == 1
    assert first.stderr == second.stderr and "error:" in second.stderr and "^" in second.stderr
    assert not list(folder.glob("checked-*.pickle"))


def _compiles(monkeypatch) -> list:
    """The rule graphs compiled from here on (the engine's programs forgotten first)."""
    from interpreter.engine import play
    done = []
    real = play.compile_ruleset
    monkeypatch.setattr(play, "_PROGRAMS", type(play._PROGRAMS)())
    monkeypatch.setattr(play, "compile_ruleset", lambda rs, *a, **k: done.append(rs.name) or real(rs, *a, **k))
    return done


def test_a_text_that_compiled_is_loaded_without_compiling_again(tmp_path, cache_in, monkeypatch):
    """What lets a table server list every game at once: the verdict is kept by load_ruleset,
    so `play`, `serve` and `check` share it; the program is compiled when a game is played."""
    from interpreter import load_ruleset
    from interpreter.engine import legal_moves, new_game
    path = tmp_path / "komi.cards"
    path.write_text((ROOT / "rulesets" / "mughal" / "komi.cards").read_text(encoding="utf-8"), encoding="utf-8")
    compiled = _compiles(monkeypatch)
    load_ruleset(path)
    assert compiled == ["komi"] and len(list(cache_in.glob("checked-*.pickle"))) == 1
    monkeypatch.setattr(build, "_GRAPHS", type(build._GRAPHS)())  # as in a new process
    rs = load_ruleset(path)
    assert compiled == ["komi"]
    assert legal_moves(new_game(rs, rs.players_min, None, 1))  # compiled when first played
    assert compiled == ["komi", "komi"]
    # an edited text is compiled again, and an error in it is found at load
    path.write_text(path.read_text(encoding="utf-8").replace("players 2..6", "players 2..6\ndefine oops = nosuch"),
                    encoding="utf-8")
    with pytest.raises(CardRulesError, match="nosuch"):
        load_ruleset(path)


def test_a_changed_compiler_checks_every_text_again(tmp_path, cache_in, monkeypatch):
    from interpreter import load_ruleset
    compiled = _compiles(monkeypatch)
    load_ruleset(ROOT / "rulesets" / "mughal" / "komi.cards")
    monkeypatch.setattr(build, "_GRAPHS", type(build._GRAPHS)())
    monkeypatch.setattr(cache, "_CHECKER_HASH", "another compiler")
    load_ruleset(ROOT / "rulesets" / "mughal" / "komi.cards")
    assert compiled == ["komi", "komi"]


# --- the analysed grammar shipped with the package (grammar/cards.lark-tables) ---

@pytest.fixture
def forget_parser():
    """parse.parser() made afresh in the test, and not kept after it."""
    parse.parser.cache_clear()
    yield
    parse.parser.cache_clear()


def _made_for(stamp: bytes) -> bytes:
    """The part of a stamp the repository decides (the grammar, the options), not the Lark or
    Python installed: a newer Lark only makes the file unfit, and start-up slower, not wrong."""
    return stamp.split(b"; lark ", 1)[0]


SHIPPED_FITS = parse.load_tables(parse.TABLES) is not None


def test_the_shipped_tables_are_current():
    """Fails once the grammar or the options change until the tables are written again (and,
    with the Lark and Python they were written with, when they do not load)."""
    hint = f"{parse.TABLES.name} does not fit this grammar: run `{parse.WRITE_TABLES}`"
    assert parse.TABLES.is_file(), hint
    stamp = parse.TABLES.read_bytes().split(b"\n", 1)[0]
    assert _made_for(stamp) == _made_for(parse.tables_stamp()), \
        f"{hint}\n  the file: {stamp!r}\n  here:     {parse.tables_stamp()!r}"
    if stamp == parse.tables_stamp():
        assert SHIPPED_FITS, hint


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Path:
    """The shipped tables; under another Lark or Python, tables written here the same way, so
    the loading is still tested."""
    if SHIPPED_FITS:
        return parse.TABLES
    path = tmp_path_factory.mktemp("tables") / parse.TABLES.name
    assert parse.write_tables(path) == [path]
    return path


@pytest.fixture(scope="module")
def parsers(tables) -> dict[str, Lark]:
    shipped = parse.load_tables(tables)
    assert shipped is not None
    return {"shipped": shipped, "built": parse._build()}


def _outcome(p: Lark, path: Path, monkeypatch):
    """What parse_text makes of a file with parser `p`: the tree with every node's and token's
    position (equal trees may still be placed differently), or the syntax error as shown."""
    monkeypatch.setattr(parse, "parser", lambda: p)
    try:
        tree = parse.parse_text(path.read_text(encoding="utf-8"), str(path))
    except RulesetSyntaxError as e:
        return "error", str(e), e.line, e.column
    return (tree, [vars(t.meta) for t in tree.iter_subtrees_topdown()],
            [(t.type, t.line, t.column, t.end_line, t.end_column) for t in tree.scan_values(lambda v: isinstance(v, Token))])


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.relative_to(ROOT / "rulesets").as_posix())
def test_the_shipped_tables_parse_like_a_parser_built_now(path, parsers, monkeypatch):
    shipped, built = (_outcome(parsers[k], path, monkeypatch) for k in ("shipped", "built"))
    assert isinstance(shipped[0], Tree) and shipped == built


def test_the_shipped_tables_report_syntax_errors_like_a_parser_built_now(parsers, monkeypatch):
    errors = 0
    for path in BROKEN:
        shipped, built = (_outcome(parsers[k], path, monkeypatch) for k in ("shipped", "built"))
        assert shipped == built, path.name
        errors += shipped[0] == "error"
    assert errors >= 8  # indentation, unclosed strings, missing words: each way lark fails


def test_the_shipped_tables_are_used_without_analysing_the_grammar(tables, forget_parser, monkeypatch):
    """Even with caching off: the file is part of the package, not a cache."""
    monkeypatch.setattr(parse, "TABLES", tables)

    def analyse(*args, **kwargs):
        raise AssertionError("the grammar was analysed")
    monkeypatch.setattr(Lark, "__init__", analyse)
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    monkeypatch.delenv("CARDRULES_NO_SHIPPED_TABLES", raising=False)
    assert parse.parse_text("game g \"G\"\n").data == "start"


def _damaged(how: str, data: bytes) -> bytes:
    stamp, rest = data.split(b"\n", 1)
    if how == "another-lark":
        return stamp.replace(f"lark {lark.__version__};".encode(), b"lark 0.0.1;") + b"\n" + rest
    if how == "truncated":
        return data[: len(data) // 2]
    if how == "altered":  # one keyword of the tables changed: still a pickle, but not the one saved
        assert b"then" in rest
        return stamp + b"\n" + rest.replace(b"then", b"than", 1)
    return bytes(range(256)) * 4  # garbage


@pytest.fixture(scope="module")
def grammar_cache(tmp_path_factory) -> Path:
    """One user cache for the tests that fall back: the first analyses, the rest read Lark's cache."""
    return tmp_path_factory.mktemp("grammar-cache")


@pytest.mark.parametrize("how", ["another-lark", "truncated", "altered", "garbage", "hidden"])
def test_unfit_shipped_tables_fall_back_to_analysing(how, tables, parsers, grammar_cache, tmp_path, forget_parser,
                                                    monkeypatch):
    copy = tmp_path / parse.TABLES.name
    if how == "hidden":  # a good file passed by (CARDRULES_NO_SHIPPED_TABLES), to time start-up without it
        copy.write_bytes(tables.read_bytes())
        assert parse.load_tables(copy) is not None
        monkeypatch.setenv("CARDRULES_NO_SHIPPED_TABLES", "1")
    else:
        copy.write_bytes(_damaged(how, tables.read_bytes()))
        assert parse.load_tables(copy) is None
        monkeypatch.delenv("CARDRULES_NO_SHIPPED_TABLES", raising=False)
    monkeypatch.setattr(parse, "TABLES", copy)
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(grammar_cache))
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    analysed = []
    build = parse._build
    monkeypatch.setattr(parse, "_build", lambda **kw: analysed.append(kw) or build(**kw))
    text = (ROOT / "rulesets" / "ganjifa" / "ganjifa.cards").read_text(encoding="utf-8")
    tree = parse.parse_text(text)
    assert analysed and list(grammar_cache.glob("grammar-*.lark-cache"))  # the user-cache path, as before
    assert tree == parsers["shipped"].parse(text)


def test_an_edited_grammar_is_not_given_the_old_tables(tables, tmp_path, monkeypatch):
    grammar = tmp_path / "cards.lark"
    text = parse.GRAMMAR.read_text(encoding="utf-8")
    monkeypatch.setattr(parse, "GRAMMAR", grammar)
    grammar.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert parse.load_tables(tables) is not None  # other line ends, the same grammar to Lark
    grammar.write_text(text + "// one more line\n", encoding="utf-8")
    assert parse.load_tables(tables) is None


def test_the_cache_key_names_every_module_a_graph_is_built_by():
    """A change to the Transformer, say, must not leave yesterday's graphs in the cache."""
    import ast
    here = ROOT / "interpreter" / "language"
    seen, todo = set(), ["build"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in ast.walk(ast.parse((here / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                todo += [n.split(".")[0] for n in names if (here / f"{n.split('.')[0]}.py").is_file()]
    assert seen - set(cache.NOT_BUILDING) == set(cache.BUILT_BY)

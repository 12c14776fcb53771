"""The native engine against the Python engine: every bundled ruleset the C backend lowers, every
player count, many seeds; the same legal moves and the same view for every seat at every decision,
the same final position, record and outcome. Whole games of random players played in one C call
are the games `play` plays with random bots. The C compiles without a warning at -Wall -Wextra,
and a driver built with -fsanitize=address,undefined plays games clean.

Each ruleset is compiled once per run (the library cache)."""

from __future__ import annotations

import ctypes
import os
import json
import random
from functools import cache
from pathlib import Path

import pytest

import procs
from interpreter import load_ruleset
from interpreter.players.bots import bot_seed
from interpreter.bundled import bundled
from interpreter.engine import apply, legal_moves, moves_for, new_game, observe, outcome, play, public_vars, state_digest
from interpreter.errors import GameRuntimeError, OptionError
from interpreter.native import find_compiler, program as nprogram
from interpreter.native.toolchain import build_library
from interpreter.native.engine import NativeGame, NativeUnsupported, c_source, native_program
from bundled_games import names_variants_slow
from native_support import build_sanitized, sanitizers_work

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")

RULESETS = sorted(name for name in bundled() if "/" in name)
# what the C backend cannot lower yet, and why (the Python engine plays these): nothing
NOT_YET: dict[str, str] = {}
# games of thousands of decisions: fewer seeds where every seat's view is compared at every decision
LONG = {"euro-jongg/euro-jongg", "euro-jongg/house-rules", "mughal/shakti", "mughal/shakti-inverted"}


@cache
def rules(name):
    return load_ruleset(bundled()[name])


def lowered(name):
    if name in NOT_YET:
        pytest.skip(f"not lowered yet: {NOT_YET[name]}")
    return rules(name)


def counts(rs):
    """The fewest players and the most (the per-player arrays at their smallest and fullest)."""
    return sorted({rs.players_min, rs.players_max})


def seen(view: dict):
    """A view as a player receives it (JSON): the Python engine keeps some collections as tuples,
    the native engine's view as lists; both read the same."""
    return json.loads(json.dumps(view))


def random_game(rs, players, seed, options=None):
    """A game of random bots, as `play` plays it."""
    s = new_game(rs, players, options, seed=seed)
    rngs = [random.Random(bot_seed(seed, k)) for k in range(players)]
    while not s.finished and legal_moves(s):
        apply(s, rngs[s.actor].choice(moves_for(s)))
    return s


@pytest.mark.parametrize("name", RULESETS)
def test_every_bundled_ruleset_lowers_to_c(name):
    p = play.program_of(rules(name))
    if name in NOT_YET:
        with pytest.raises(NativeUnsupported, match=NOT_YET[name]):
            c_source(p)
    else:
        c_source(p)


def test_a_construct_not_lowered_is_named_in_one_line(monkeypatch):
    import interpreter.native.codegen.expr as expr
    p = play.program_of(rules("ganjifa/ganjifa"))
    monkeypatch.delattr(expr.Expr, "x_AggLoop")
    with pytest.raises(NativeUnsupported) as e:
        c_source(p)
    assert str(e.value) == "error: the operation AggLoop"


def _more_than_the_playthrough(names) -> list:
    """names_variants_slow, with a game for a fixed number of players slow too: its golden
    playthrough compares the engines at every decision at that number."""
    from interpreter.language.build import build_file
    from interpreter.playthrough import players_for
    out = []
    for param in names_variants_slow(names):
        rs = build_file(bundled()[param.values[0]])
        fixed = rs.players_max == players_for(rs)
        out.append(pytest.param(*param.values, id=param.id, marks=(*param.marks, *((pytest.mark.slow,) if fixed else ()))))
    return out


@pytest.mark.parametrize("name", _more_than_the_playthrough(RULESETS))
def test_every_decision_is_the_same_on_both_engines(name):
    """Every seat's view at every decision, at the most players: the golden playthroughs compare
    the engines at the fewest (seed 0: each decision's view, moves and choice), and the games
    played in one call below at both ends. (A game for a fixed number of players, whose golden
    playthrough is at that number, with the slow tests.)"""
    rs = lowered(name)
    for players in (rs.players_max,):
        for seed in (1,):
            s, n = new_game(rs, players, seed=seed), NativeGame(rs, players, seed=seed)
            rng = random.Random(seed)
            while True:
                assert [(str(m), m.player) for m in legal_moves(s)] == [(str(m), m.player) for m in n.legal_moves()]
                for seat in range(players):
                    assert seen(observe(s, seat)) == seen(observe(n.view, seat))
                assert state_digest(s) == state_digest(n.view)
                if s.finished or not legal_moves(s):
                    break
                m = rng.choice(legal_moves(s))
                apply(s, m)
                n.apply(m)
            assert outcome(s) == outcome(n.view)
            assert s.fired == n.view.fired


@pytest.mark.parametrize("name", names_variants_slow(RULESETS))
def test_random_players_play_the_same_games_in_one_call(name):
    rs = lowered(name)
    for players in counts(rs):
        for seed in range(6):
            a = random_game(rs, players, seed)
            g = NativeGame(rs, players, seed=seed)
            g.playout([random.Random(bot_seed(seed, k)) for k in range(players)])
            assert [str(m) for m in a.history] == [str(m) for m in g.view.history], (players, seed)
            assert state_digest(a) == state_digest(g.view)
            assert outcome(a) == outcome(g.view)


@pytest.mark.parametrize("name", names_variants_slow(RULESETS))
def test_every_option_off_its_default_plays_the_same(name):
    rs = lowered(name)
    for o in rs.options:
        values = [c for c in o.choices if c != o.default] if o.type == "enum" else \
            [not o.default] if o.type == "bool" else [v for v in (o.low, o.high) if v is not None and v != o.default]
        for value in values:
            for seed in range(1 if name in LONG else 3):
                a = random_game(rs, rs.players_min, seed, {o.name: value})
                g = NativeGame(rs, rs.players_min, {o.name: value}, seed=seed)
                g.playout([random.Random(bot_seed(seed, k)) for k in range(rs.players_min)])
                assert [str(m) for m in a.history] == [str(m) for m in g.view.history], (o.name, value, seed)
                assert outcome(a) == outcome(g.view)


def test_whole_games_in_one_call_give_the_outcomes_python_gives():
    rs = rules("ganjifa/ganjifa")
    np = native_program(play.program_of(rs))
    players, n = 3, 30
    opts = (ctypes.c_int64 * 8)(*np.options_row(play.resolve_options(np.p, None)))
    width = 5 + players + len(np.p.rule_names)
    out = (ctypes.c_int64 * (n * width))()
    assert np.lib.cr_play_many(players, opts, 100, n, 1 << 40, out) == 0
    for g in range(n):
        row = out[g * width:(g + 1) * width]
        s = random_game(rs, players, 100 + g)
        assert row[:3] == [0, 1, s.decisions]
        assert tuple(row[5:5 + players]) == outcome(s).scores
        assert row[5 + players:] == s.fired


def test_a_clone_is_a_copy_of_the_memory():
    rs = rules("ganjifa/ganjifa")
    g = NativeGame(rs, 3, seed=4)
    for m in g.legal_moves()[:1]:
        g.apply(m)
    twin = NativeGame(rs, 3, seed=99)
    ctypes.memmove(twin.mem, g.mem, ctypes.sizeof(g.mem))
    twin.view.history = list(g.view.history)
    twin._after(0)
    assert state_digest(twin.view) == state_digest(g.view)
    a = [random.Random(k) for k in range(3)]
    b = [random.Random(k) for k in range(3)]
    g.playout(a)
    twin.playout(b)
    assert outcome(g.view) == outcome(twin.view)


def test_new_games_begin_from_one_start_and_share_nothing_a_game_changes():
    """A new game's view is copied from a start made once per table size and options
    (NativeProgram.start_of): each game still has its own seed, history and variables, a game
    played to its end leaves the next one untouched, and options and bad input count as before."""
    rs = rules("classic/goofspiel")
    first = NativeGame(rs, 2, {}, 1)
    start = first.np.start_of(2, {})[0]
    r = random.Random(0)
    while first.legal_moves():
        first.apply(r.choice(first.legal_moves()))
    assert state_digest(first.view) == state_digest(_python_game(rs, 2, {}, 1, first.view.history))
    second = NativeGame(rs, 2, {}, 2)
    assert second.np.start_of(2, {})[0] is start  # (made once)
    assert second.view.seed == 2 and second.view.history == [] and first.view.seed == 1
    assert state_digest(second.view) == state_digest(new_game(rs, 2, {}, 2))
    assert public_vars(second.view, True) == public_vars(new_game(rs, 2, {}, 2), True)
    small = NativeGame(rs, 2, {"num_cards": 5}, 2)
    assert small.np.start_of(2, {"num_cards": 5})[0] is not start
    assert state_digest(small.view) == state_digest(new_game(rs, 2, {"num_cards": 5}, 2))
    for bad in ({"num_cards": 99}, {"no_such_option": 1}):
        for _ in range(2):  # (a start that fails is not kept)
            with pytest.raises(OptionError):
                NativeGame(rs, 2, bad, 3)
    with pytest.raises(OptionError, match="players"):
        NativeGame(rs, 5, {}, 3)


def _python_game(rs, players, options, seed, moves):
    s = new_game(rs, players, options, seed)
    for m in moves:
        apply(s, next(x for x in legal_moves(s) if str(x) == str(m) and x.player == m.player))
    return s


def test_a_failure_in_c_is_the_located_error_python_gives(tmp_path):
    f = tmp_path / "nobody.cards"
    f.write_text('game nobody "Nobody"\nplayers 2\ndeck d "D":\n    suits S\n    ranks 1..4\n'
                 'zone stock shared hidden "s"\nzone hand per player owner "h"\nvar who: player\n'
                 'phase one "One":\n    rule give "Give":\n        move top(stock) to hand(who)\n')
    rs = load_ruleset(f)
    with pytest.raises(GameRuntimeError) as py:
        new_game(rs, 2)
    with pytest.raises(GameRuntimeError) as c:
        NativeGame(rs, 2)
    assert str(c.value) == str(py.value)
    assert "nobody.cards:" in str(c.value)


@pytest.mark.parametrize("name", ["ganjifa/ganjifa", pytest.param("euro-jongg/euro-jongg", marks=pytest.mark.slow),
                                  "classic/hanabi",
                                  pytest.param("mughal/udvasa", marks=pytest.mark.slow),
                                  pytest.param("classic/bridge", marks=pytest.mark.slow)])
def test_the_optimised_build_has_no_warning_and_plays_the_golden_game(name, monkeypatch):
    """The suite builds its games at -O0 (conftest.py); users' builds are -O2, where the compiler
    may take liberties the checks at -O0 never see, and warns of more: these games, built as users
    build them (with -Werror added), compile without a warning and play their golden playthroughs
    decision by decision. Every construct between them: masks, the meld search, several deciders
    and secret choices, several parameters, per-player collections, zones seen by the others, hints."""
    from interpreter import playthrough as pt
    monkeypatch.setenv("CARDRULES_NATIVE_OPT", "-O2")
    monkeypatch.setattr(nprogram, "NATIVE_FLAGS", nprogram.NATIVE_FLAGS + ("-Werror",))
    path = bundled()[name]
    rs = load_ruleset(path)
    monkeypatch.setattr(nprogram, "_PROGRAMS", {})  # (built anew, with these flags)
    built, build = [], nprogram.build_library
    monkeypatch.setattr(nprogram, "build_library", lambda *a, **k: built.append(k.get("extra_flags")) or build(*a, **k))
    problem = pt.check(Path(path), "native", rs=rs)
    assert problem is None, problem
    assert built and all("-Werror" in flags for flags in built), built


def batch_driver(p) -> str:
    """C that plays four Ganjifa games in one block (adapters/vector.py's way): stepped by
    cr_step_many with a table of move ids it fills as it meets them, scored and restarted when
    over (cr_score_many, cr_new_many, with seeds of two words), and observed by cr_observe_many
    with the spec's own tables, for the sanitizers; cr_step_many observes each game as it steps it
    too, which must write what cr_observe_many writes, and the seat it observed from."""
    from interpreter.adapters.encoding import spec_for

    def arr(ctype, name, a) -> str:
        return f"    static const {ctype} {name}[] = {{{', '.join(str(int(x)) for x in a.reshape(-1))}}};\n"
    ob = spec_for("ganjifa", 3, engine="native").c_observer()
    spec = ob.spec
    width, actions = spec.obs_size, len(spec.actions)
    return (arr("int64_t", "head", ob.head) + arr("int32_t", "place", ob.place) + arr("uint8_t", "sees", ob.sees)
            + arr("int32_t", "site_of", ob.site_of) + arr("int64_t", "codes", ob.codes) +
            "    size_t stride = (bytes + 63) & ~(size_t)63;\n"
            "    char *block = calloc(4, stride);\n"
            "    if (!block) return 7;\n"
            "    uint32_t next_seed = 4;\n"
            "    { int64_t all[4] = {0, 1, 2, 3}, sd[4] = {0, 1, 2, 3}; cr_new_many(block, (int64_t)stride, all, sd, 4, 3, opts); }\n"
            "    static int64_t keys[4096], act[4] = {-1, -1, -1, -1}, info[40], ids[4 * 256];\n"
            "    static int32_t acts[4096], counts[4], lact[4 * 256], who[4];\n"
            "    static int64_t seats[4];\n"
            f"    static int8_t mask[4 * {actions}];\n"
            f"    static float obs[4 * {width}], stepped[4 * {width}];\n"
            "    int64_t ob[8] = {(int64_t)(intptr_t)stepped, " + str(width) + ", (int64_t)(intptr_t)head, (int64_t)(intptr_t)place,"
            " (int64_t)(intptr_t)sees, (int64_t)(intptr_t)site_of, (int64_t)(intptr_t)codes, (int64_t)(intptr_t)seats};\n"
            "    static uint8_t flag[4];\n"
            "    int restarted[4];\n"
            "    int32_t next_action = 0;\n"
            "    for (int k = 0; k < 4096; k++) keys[k] = -2;\n"
            "    for (int step = 0; step < 400; step++) {\n"
            "        { int32_t want = -1;\n"
            f"          for (int g = 0; g < 4 && want < 0; g++) if (act[g] < 0 || !mask[g * {actions} + act[g]]) want = g;\n"
            f"          if (cr_first_illegal(mask, {actions}, act, 4) != want) return 10; }}\n"
            f"        cr_step_many(block, (int64_t)stride, 4, act, info, ids, counts, 256, lact, mask, {actions}, flag,"
            " keys, acts, 12, ob, INT64_MAX);\n"
            "        for (int g = 0; g < 4; g++) {\n"
            "            restarted[g] = 0;\n"
            "            if (info[10 * g + 6]) return 8;\n"
            "            if (info[10 * g + 1]) {\n"
            "                restarted[g] = 1;\n"
            "                int64_t one[1] = {g}, sd[1] = {(int64_t)next_seed++ << 31}, sc[3];\n"
            "                cr_score_many(block, (int64_t)stride, one, 1, 3, sc);\n"
            "                cr_new_many(block, (int64_t)stride, one, sd, 1, 3, opts);\n"
            "                act[g] = -1; continue;\n"
            "            }\n"
            "            act[g] = -1;\n"
            "            for (int32_t i = 0; i < counts[g]; i++) {\n"
            "                int64_t id = ids[256 * g + i];\n"
            "                if (id < 0 || ((id >> 30) & 0x3FF) != info[10 * g + 2]) continue;\n"
            "                if (lact[256 * g + i] >= 0) { act[g] = lact[256 * g + i]; break; }\n"
            "                uint64_t h = ((uint64_t)id * 0x9E3779B97F4A7C15ULL) >> 52;\n"
            "                while (keys[h] != -2 && keys[h] != id) h = (h + 1) & 4095;\n"
            f"                if (keys[h] == -2) {{ keys[h] = id; acts[h] = next_action++ % {actions}; }}\n"
            "            }\n"
            "            who[g] = (int32_t)info[10 * g + 2];\n"
            "            if (seats[g] != info[10 * g + 2]) return 11;\n"
            "        }\n"
            f"        cr_observe_many(block, (int64_t)stride, NULL, 4, who, obs, {width}, head, place, sees, site_of, codes);\n"
            "        for (int g = 0; g < 4; g++)\n"
            f"            if (!restarted[g] && memcmp(obs + g * {width}, stepped + g * {width}, sizeof(float) * {width})) return 9;\n"
            # (and two of them picked out, as the last positions of games that ended are)
            "        int64_t picked[2] = {3, 1};\n"
            f"        cr_observe_many(block, (int64_t)stride, picked, 2, who, obs, {width}, head, place, sees, site_of,"
            " codes);\n"
            "    }\n"
            "    free(block);\n")


def action_driver(p) -> str:
    """C that plays two Ganjifa games by action ids as an adapter does (adapters/c_actions.py):
    each decision one cr_step_action_packed call with the spec's table of action ids, the mask and
    move numbers written and the seat to act's observation with them, the move played the mask's
    first (then, at a later decision, an action that is not legal, which must play nothing)."""
    from interpreter.adapters.encoding import spec_for
    spec = spec_for("ganjifa", 3, engine="native")
    ob, tab = spec.c_observer(), spec.c_actions(spec.native)
    width, actions = spec.obs_size, len(spec.actions)
    return (f"    static const int64_t tab[] = {{{', '.join(str(int(x)) for x in tab.tab)}}};\n"
            f"    static uint8_t have[{len(tab.have)}];\n"
            f"    static int64_t ainfo[10], aids[256], apacked[17];\n"
            f"    static int32_t anums[256], aout[2];\n"
            f"    static int8_t amask[{actions}];\n"
            f"    static float aobs[{width}];\n"
            f"    static const int64_t ahead[] = {{{', '.join(str(int(x)) for x in ob.head)}}};\n"
            f"    static const int32_t aplace[] = {{{', '.join(str(int(x)) for x in ob.place.reshape(-1))}}};\n"
            f"    static const uint8_t asees[] = {{{', '.join(str(int(x)) for x in ob.sees.reshape(-1))}}};\n"
            f"    static const int32_t asite[] = {{{', '.join(str(int(x)) for x in ob.site_of)}}};\n"
            f"    static const int64_t acodes[] = {{{', '.join(str(int(x)) for x in ob.codes)}}};\n"
            "    for (uint32_t game = 0; game < 2; game++) {\n"
            "        uint32_t sd[1] = {game + 7};\n"
            "        if (cr_new(mem, bytes, 3, sd, 1, opts)) return 30;\n"
            "        int64_t *a = apacked;\n"
            "        a[0] = (int64_t)(intptr_t)mem; a[1] = (int64_t)(intptr_t)ainfo; a[2] = (int64_t)(intptr_t)aids;\n"
            f"        a[3] = 256; a[4] = (int64_t)(intptr_t)amask; a[5] = {actions}; a[6] = (int64_t)(intptr_t)aout;\n"
            "        a[7] = (int64_t)(intptr_t)tab; a[8] = (int64_t)(intptr_t)anums; a[9] = (int64_t)(intptr_t)have;\n"
            f"        a[10] = (int64_t)(intptr_t)aobs; a[11] = {width}; a[12] = (int64_t)(intptr_t)ahead;\n"
            "        a[13] = (int64_t)(intptr_t)aplace; a[14] = (int64_t)(intptr_t)asees;\n"
            "        a[15] = (int64_t)(intptr_t)asite; a[16] = (int64_t)(intptr_t)acodes;\n"
            "        int32_t act = -1;\n"
            "        for (int step = 0; step < 2000; step++) {\n"
            "            int32_t n = cr_step_action_packed(act, a);\n"
            "            if (n == -2 || ainfo[6]) return 31;\n"
            "            if (ainfo[1]) break;\n"
            "            if (n <= 0 || (aout[1] & 1)) return 32;\n"
            "            for (int32_t i = 0; i < n; i++) if (anums[i] >= 0) have[anums[i]] = 1;\n"
            f"            act = -1;\n"
            f"            for (int32_t k = 0; k < {actions} && act < 0; k++) if (amask[k]) act = k;\n"
            f"            if (step == 50) {{ for (int32_t k = 0; k < {actions}; k++) if (!amask[k]) {{\n"
            "                if (cr_step_action_packed(k, a) != -2) return 33;\n"
            "                break; } }\n"
            "        }\n"
            "    }\n")


def fuzz_driver(p) -> str:
    """The fuzzer's checks in C on a new game in `mem`: at each decision the rule seeker's look-ahead
    over every legal move, each seat's hidden-card check, the cards' bookkeeping and what each seat
    has seen, the rules fired and the slots; the move played the seeker's first that does not fail
    (40 decisions: a trick's whole round and the next deal's start)."""
    nc, nr = p.n_cards, len(p.rule_names)
    return (
        "    if (cr_new(mem, bytes, 3, seed, 1, opts)) return 20;\n"
        f"    static uint8_t seen_all[{nc}], seen_own[3 * {nc}];\n"
        f"    static int64_t tried[{5 + nr} * 4096], fired[{max(nr, 1)}], slots[{max(p.n_slots, 1)}];\n"
        "    static int32_t picks[4096];\n"
        "    for (int step = 0; step < 40 && !((cr_state *)mem)->finished; step++) {\n"
        "        cr_state *S = (cr_state *)mem;\n"
        "        if (crt_cards_check(cr_cards(mem)) || crt_cards_remember(cr_cards(mem), seen_all, seen_own)) return 21;\n"
        "        for (int32_t who = 0; who < 3; who++) {\n"
        "            crt_rng q; crt_seed_u64(&q, (uint64_t)who); crt_get_state(&q, words);\n"
        "            if (cr_permuted_differs(mem, who, words) != 0) return 22;\n"
        "        }\n"
        "        for (int32_t i = 0; i < S->legal_n; i++) picks[i] = i;\n"
        "        if (cr_try_moves(mem, picks, S->legal_n, tried)) return 23;\n"
        f"        cr_fired_all(mem, fired); cr_slots(mem, slots, {max(p.n_slots, 1)});\n"
        "        int32_t go = -1;\n"
        f"        for (int32_t i = 0; i < S->legal_n && go < 0; i++) if (!tried[i * {5 + nr}]) go = i;\n"
        "        if (go < 0 || cr_apply(mem, go)) return 24;\n"
        "    }\n")


def test_a_sanitized_driver_plays_clean(tmp_path):
    compiler = find_compiler()
    if not sanitizers_work(list(compiler.argv), tmp_path):
        pytest.skip("this compiler cannot build sanitized programs here")
    rs = rules("ganjifa/ganjifa")
    p = play.program_of(rs)
    opts = native_program(p).options_row(play.resolve_options(p, None))
    main = ("\n#include <stdio.h>\nint main(void) {\n"
            f"    int64_t opts[] = {{{', '.join(map(str, opts))}}};\n"
            f"    static int64_t out[20 * {8 + len(p.rule_names)}];\n"
            "    if (cr_play_many(3, opts, 0, 20, INT64_MAX, out)) return 1;\n"
            f"    const int w = {8 + len(p.rule_names)};\n"
            "    for (int g = 0; g < 20; g++) printf(\"%lld %lld %lld %lld\\n\", (long long)out[g * w + 2],"
            " (long long)out[g * w + 5], (long long)out[g * w + 6], (long long)out[g * w + 7]);\n"
            # the search player's tree, samples and rollouts in C, under the sanitizers too
            "    size_t bytes = cr_state_bytes(3);\n"
            "    uint64_t *mem = calloc(bytes / 8 + 1, 8);\n"
            "    uint32_t seed[1] = {5};\n"
            "    if (!mem || cr_new(mem, bytes, 3, seed, 1, opts)) return 2;\n"
            "    int32_t rollouts[3] = {1, 1, 6};\n"
            "    void *h = cr_search_new(mem, ((cr_state *)mem)->actor, 300, 0.7, 3.0, 20, rollouts, 0);\n"
            "    static uint32_t words[625];\n"
            "    crt_rng r; crt_seed_u64(&r, 9); crt_get_state(&r, words);\n"
            "    if (!h || cr_search_run(h, words, 0, 300, 2000)) return 3;\n"
            "    int32_t idx[64]; int64_t visits[64]; double reward[64];\n"
            "    if (cr_search_root(h, idx, visits, reward, 64) < 1) return 4;\n"
            "    cr_search_free(h);\n"
            # the greedy player's look-ahead in C, in a sample of what the seat cannot see: a whole
            # game, each decision its best row's move
            "    static int64_t rows[3 * 512];\n"
            "    while (!((cr_state *)mem)->finished) {\n"
            "        int32_t n = cr_greedy(mem, rows, 512, 77u + (uint64_t)((cr_state *)mem)->decisions), best = 0;\n"
            "        if (n < 1) return 5;\n"
            "        for (int32_t k = 1; k < n; k++) if (rows[3 * k + 2] > rows[3 * best + 2]) best = k;\n"
            "        if (cr_apply(mem, (int32_t)rows[3 * best])) return 6;\n"
            "    }\n"
            + fuzz_driver(p) + action_driver(p) +
            "    free(mem);\n"
            + batch_driver(p) +
            "    return 0;\n}\n")
    # at -O0: the sanitizers find the same faults, and the build takes 3 s, not 14 s at -O1
    built = build_sanitized(compiler, p, main, tmp_path / "driver")
    assert built.returncode == 0, built.stderr[-2000:]
    ran = procs.run([str(tmp_path / "driver")], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    for g, line in enumerate(ran.stdout.splitlines()):
        s = random_game(rs, 3, g)
        assert [int(v) for v in line.split()] == [s.decisions, *outcome(s).scores]


def test_the_planning_search_runs_clean_under_the_sanitizers(tmp_path):
    """The planner's C (its heap or its stack, its table of views, its states kept, all grown as
    it goes) in a patience, where its lines run long: a few plans of 600 positions under ASan and
    UBSan, best first and depth first in turn, then with every card seen (as `solve` plans), and
    each fair plan's view of the position it starts from is the view of the game then."""
    compiler = find_compiler()
    if not sanitizers_work(list(compiler.argv), tmp_path):
        pytest.skip("this compiler cannot build sanitized programs here")
    p = play.program_of(rules("mughal/udvasa"))
    opts = native_program(p).options_row(play.resolve_options(p, None))
    w = native_program(p).nparams
    main = ("\n#include <stdio.h>\nint main(void) {\n"
            f"    int64_t opts[] = {{{', '.join(map(str, opts))}}};\n"
            "    size_t bytes = cr_state_bytes(1);\n"
            "    uint64_t *mem = calloc(bytes / 8 + 1, 8);\n"
            "    uint32_t seed[1] = {2};\n"
            "    if (!mem || cr_new(mem, bytes, 1, seed, 1, opts)) return 2;\n"
            "    static uint32_t words[625];\n"
            "    crt_rng r; crt_seed_u64(&r, 9); crt_get_state(&r, words);\n"
            f"    static int32_t ch[3001], alt[3001]; static int64_t val[3001 * {w}]; static uint64_t view[6002], now[2]; double value = 0;\n"
            "    int lines = 0;\n"
            "    for (int d = 0; d < 8 && !((cr_state *)mem)->finished; d++) {\n"
            "        cr_plan_view(mem, 0, now);\n"
            "        int how = d % 2 | (d >= 6 ? 2 : d == 4 ? 5 : 0);\n"
            "        int32_t n = cr_plan(mem, 0, 600, words, 0.0, how, ch, alt, val, view, 3001, &value);\n"
            "        if (n < 0) return 3;\n"
            "        if (n > 0 && !(how & 2) && (view[0] != now[0] || view[1] != now[1])) return 4;\n"
            "        lines += n > 1;\n"
            "        cr_state *S = (cr_state *)mem;\n"
            "        int32_t go = -1;\n"
            "        for (int32_t i = 0; i < S->legal_n && n > 0; i++)\n"
            f"            if (S->legal_alt[i] == alt[0] && !memcmp(S->legal_val[i], val, sizeof(int64_t) * {w})) go = i;\n"
            "        if (go < 0) go = 0;\n"
            "        if (cr_apply(mem, go)) return 5;\n"
            "    }\n"
            "    printf(\"%d\\n\", lines);\n"
            "    free(mem);\n"
            "    return 0;\n}\n")
    built = build_sanitized(compiler, p, main, tmp_path / "plan")
    assert built.returncode == 0, built.stderr[-2000:]
    ran = procs.run([str(tmp_path / "plan")], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert int(ran.stdout) > 0  # some plans of more than one move


# ------------------------------------------------------------------ play --engine

def run(*args, env=None):
    from typer.testing import CliRunner
    from interpreter.commands.cli import app
    return CliRunner(env=env).invoke(app, [str(a) for a in args])


def engine_line(r) -> str:
    return next(line for line in r.stderr.splitlines() if line.startswith("engine: "))


def test_play_gives_the_same_summary_on_both_engines(tmp_path):
    game = bundled()["ganjifa/ganjifa"]
    a = run("play", game, "-n", 3, "-k", 40, "--workers", 1, "--json", "--engine", "native", "--log", tmp_path / "a.json")
    b = run("play", game, "-n", 3, "-k", 40, "--workers", 1, "--json", "--engine", "python", "--log", tmp_path / "b.json")
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert json.loads(a.stdout) == json.loads(b.stdout)
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_play_says_which_engine_and_why(monkeypatch, tmp_path):
    import interpreter.native.codegen.expr as expr
    game = bundled()["ganjifa/ganjifa"]
    r = run("play", game, "-k", 3, "--workers", 1)
    assert r.exit_code == 0 and engine_line(r).startswith("engine: native (C, built by ")
    r = run("play", game, "-k", 3, "--workers", 1, "--bot", "greedy")  # its look-ahead in C
    assert r.exit_code == 0 and engine_line(r).startswith("engine: native (C, built by ")
    r = run("play", game, "-k", 1, "--workers", 1, "--bot", "plan:2")  # its search in C
    assert r.exit_code == 0 and engine_line(r).startswith("engine: native (C, built by ")
    f = tmp_path / "g.cards"
    f.write_text(bundled()["ganjifa/ganjifa"].read_text())
    monkeypatch.delattr(expr.Expr, "x_AggLoop")  # a construct the backend would not know
    r = run("play", f, "-n", 3, "-k", 3, "--workers", 1)
    assert r.exit_code == 0 and engine_line(r) == "engine: python (no native engine: the operation AggLoop)"


def test_native_asked_for_and_not_to_be_had_is_one_line_and_exit_2(monkeypatch, tmp_path):
    import interpreter.native.codegen.expr as expr
    f = tmp_path / "g.cards"
    f.write_text(bundled()["ganjifa/ganjifa"].read_text())
    monkeypatch.delattr(expr.Expr, "x_AggLoop")
    r = run("play", f, "-n", 3, "--engine", "native")
    assert r.exit_code == 2 and r.stderr == "error: the operation AggLoop\n"
    r = run("play", bundled()["ganjifa/ganjifa"], "--engine", "warp")
    assert r.exit_code == 2 and "--engine is one of auto, python, native, not 'warp'" in r.stderr


def test_play_with_bots_that_decide_in_python_or_search_in_c(tmp_path):
    """Search players play on the native engine under auto (their whole search in C); greedy
    ones play there when asked (--engine native); the games are the Python engine's."""
    game = bundled()["ganjifa/ganjifa"]
    for bots in (["--bot", "ismcts:20"], ["--bot", "greedy", "--bot", "P2=ismcts:10"]):
        out = {}
        for engine in ("python", "native"):
            r = run("play", game, "-k", 1, "--workers", 1, *bots, "--engine", engine, "--log", tmp_path / f"{engine}.json")
            assert r.exit_code == 0, r.output
            assert engine_line(r).startswith(f"engine: {engine} ")
            out[engine] = (r.stdout, (tmp_path / f"{engine}.json").read_text())
        assert out["python"] == out["native"]
    r = run("play", game, "-k", 1, "--workers", 1, "--bot", "ismcts:10")
    assert engine_line(r).startswith("engine: native (")


def test_no_compiler_means_python_under_auto_and_exit_2_under_native(monkeypatch, tmp_path):
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setattr(nprogram, "_PROGRAMS", {})
    f = tmp_path / "g.cards"
    f.write_text(bundled()["ganjifa/ganjifa"].read_text())  # a ruleset not built before in this process
    r = run("play", f, "-n", 3, "-k", 2, "--workers", 1)
    assert r.exit_code == 0, r.output
    assert engine_line(r).startswith("engine: python (no native engine: ")
    r = run("play", f, "-n", 3, "--engine", "native")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1


def test_collections_worked_out_within_a_search_are_let_go():
    """Gin Rummy, seed 59, random moves: one decision asks the meld search thousands of group
    tests, each making collections; kept until the decision ended, they overflowed the room."""
    rs = rules("classic/gin-rummy")
    rng = random.Random(59)
    s, g = new_game(rs, 2, seed=59), NativeGame(rs, 2, seed=59)
    while legal_moves(s):
        m = rng.choice(legal_moves(s))
        apply(s, m)
        g.apply(m)
    assert outcome(s) == outcome(g.view) and state_digest(s) == state_digest(g.view)


def test_a_variable_holding_a_collection_per_player(tmp_path):
    f = tmp_path / "lists.cards"
    f.write_text(PER_PLAYER_LISTS, encoding="utf-8")
    rs = load_ruleset(f)
    build_library(c_source(play.program_of(rs))[0], "lists-werror", extra_flags=("-Werror",))
    for players in (2, 3):
        for seed in range(4):
            s, n = new_game(rs, players, seed=seed), NativeGame(rs, players, seed=seed)
            rng = random.Random(seed)
            while legal_moves(s):
                assert [str(m) for m in legal_moves(s)] == [str(m) for m in n.legal_moves()]
                assert seen(observe(s, 0)) == seen(observe(n.view, 0))
                m = rng.choice(legal_moves(s))
                apply(s, m)
                n.apply(m)
            assert outcome(s) == outcome(n.view)
            assert seen(observe(s, 1)) == seen(observe(n.view, 1))


PER_PLAYER_LISTS = """game lists "Per-player lists"
players 2..3
deck d "D":
    suits S, H
    ranks 1..6
zone stock shared hidden "s"
zone hand per player owner "h"
var seen(p: player): cards = []
var orders(p: player): ints = 1..0
phase one "One":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    rule turns "Turns":
        repeat:
            for each player p:
                if count(hand(p)) == 0:
                    end game
                choose by p:
                    action play c in hand(p) where not (c in seen(p)) "Play.":
                        set seen(p) = seen(p) + [c]
                        set orders(p) = orders(p) + [c.order]
                        move c to stock
                    action keep when count(seen(p)) > 2 "Keep.":
                        move top(hand(p)) to stock
define score(p: player) = count(seen(p)) + count(orders(p)) + sum o in orders(p): o
winner most score
"""


def test_the_engines_functions_work_on_a_game_played_in_c():
    """engine.legal_moves, apply (a Move or its text), observe, clone (a copy of the C state) and
    determinise (a Python copy, cards moved by hand) on a native game give what they give on the
    Python engine's; a Python player (greedy, search) plays the same game on both."""
    from interpreter.players.bots import make_bot
    from interpreter.engine import determinise
    from interpreter.native.engine import new_native_game
    for name in ("ganjifa/ganjifa", "classic/goofspiel"):
        rs = rules(name)
        a, b = new_game(rs, rs.players_min, seed=5), new_native_game(rs, rs.players_min, seed=5)
        rng = random.Random(1)
        k = 0
        while legal_moves(a):
            assert [(str(m), m.player) for m in legal_moves(a)] == [(str(m), m.player) for m in legal_moves(b)]
            if k % 9 == 0:
                assert seen(observe(a, 0)) == seen(observe(b, 0))
                ca, cb = a.clone(), b.clone()
                assert cb.native is not None and cb.native is not b.native
                for _ in range(3):
                    if legal_moves(ca):
                        m = random.Random(k).choice(legal_moves(ca))
                        apply(ca, m)
                        apply(cb, m)
                assert state_digest(ca) == state_digest(cb)
                da, db = determinise(a, 0, random.Random(k)), determinise(b, 0, random.Random(k))
                assert db.native is None and state_digest(da) == state_digest(db)
                assert [str(m) for m in legal_moves(da)] == [str(m) for m in legal_moves(db)]
            if k % 9 == 4:  # a copy of a view not brought up to date: brought up to date from its own state
                assert b.native._stale
                ca, cb = a.clone(), b.clone()
                assert cb.native._stale and state_digest(cb) == state_digest(ca)
                if legal_moves(ca):
                    m = legal_moves(ca)[-1]
                    apply(ca, m)
                    apply(cb, m)
                    assert state_digest(cb) == state_digest(ca) != state_digest(b) == state_digest(a)
            m = rng.choice(legal_moves(a))
            apply(a, m)
            apply(b, str(m) if m.player == b.actor else m)
            k += 1
        assert outcome(a) == outcome(b) and state_digest(a) == state_digest(b)
    rs = rules("ganjifa/ganjifa")
    games = []
    for make in (new_game, new_native_game):
        s = make(rs, 3, seed=2)
        bots = [make_bot("greedy", k) for k in range(3)]
        while legal_moves(s):
            apply(s, bots[s.actor].choose(s))
        games.append(([str(m) for m in s.history], outcome(s)))
    assert games[0] == games[1]


def test_a_position_of_the_python_engine_loads_into_c_and_plays_on_alike():
    """NativeGame.load takes a determinised position (cards moved by hand, secret choices
    unsealed) into C; random moves drawn from one generator then play the same game on both."""
    from interpreter.engine import determinise, moves_for
    for name in ("ganjifa/ganjifa", "classic/goofspiel", "mughal/udvasa"):
        rs = rules(name)
        n = rs.players_min
        s = new_game(rs, n, seed=3)
        scratch = NativeGame(rs, n, seed=99)
        rng = random.Random(3)
        for k in range(25):
            if not legal_moves(s):
                break
            det = determinise(s, s.actor, random.Random(k), reseed=True)
            scratch.load(det)
            assert [(str(m), m.player) for m in legal_moves(det)] == [(str(m), m.player) for m in scratch.legal_moves()]
            r1, r2 = random.Random(k), random.Random(k)
            d = det.clone()
            for _ in range(40):
                legal = moves_for(d)
                if d.finished or not legal:
                    break
                apply(d, legal[r1.randrange(len(legal))])
            scratch.playout([r2], 40, record=False)
            assert seen(public_vars(d)) == seen(public_vars(scratch.view)) and d.zones == scratch.view.zones
            assert r1.getstate() == r2.getstate()
            apply(s, rng.choice(legal_moves(s)))


# ------------------------------------------------------------------ mutated rulesets

from hypothesis import HealthCheck, given, settings  # noqa: E402

from mutated import mutants  # noqa: E402


@settings(max_examples=int(os.environ.get("NATIVE_MUTANTS", "10")), deadline=None, suppress_health_check=list(HealthCheck))
@given(mutants())
def test_a_mutated_ruleset_plays_alike_or_fails_alike_on_both_engines(mutant):
    """The grammar fuzzer's mutations of real rulesets: one that loads plays the same on both
    engines for a few random decisions, or fails with the same located error (or, in C, with a
    construct named that it cannot lower yet)."""
    path, text = mutant
    from interpreter import loads_ruleset
    from interpreter.errors import CardRulesError
    try:
        rs = loads_ruleset(text, str(path.with_name("mutant-of-" + path.name)))
    except CardRulesError:
        return
    try:
        native_program(play.program_of(rs))
    except NativeUnsupported:
        return
    n = rs.players_min
    outcomes = []
    for make in (new_game, lambda *a: NativeGame(*a).view):
        moves, error = [], None
        try:
            s = make(rs, n, None, 1)
            rng = random.Random(n)
            while not s.finished and len(moves) < 40:
                legal = legal_moves(s)
                if not legal:
                    break
                m = rng.choice(legal)
                moves.append(str(m))
                apply(s, m)
        except CardRulesError as e:
            error = str(e)
        outcomes.append((moves, error))
    assert outcomes[0] == outcomes[1]


def test_a_recorded_playout_in_several_calls_is_the_same_game(monkeypatch):
    """A recorded playout runs PLAYOUT_STEP decisions a call into one buffer per thread: cut into
    calls of five decisions, it is still the Python engine's game, move for move."""
    import interpreter.native.engine as nengine
    from interpreter.runner.native import random_game_record
    monkeypatch.setattr(nengine, "PLAYOUT_STEP", 5)
    for name, players in (("ganjifa/ganjifa", 3), ("classic/goofspiel", 2)):
        rs = rules(name)
        view, _ = random_game_record(rs, players, {}, 4, "x.cards")
        s = random_game(rs, players, 4)
        assert [str(m) for m in view.history] == [str(m) for m in s.history] and len(s.history) > 10
        assert outcome(view) == outcome(s)

"""The browser table (`cardrules serve`), through its HTTP routes with Starlette's test client:
a whole game against bots, what each seat is sent (never another seat's hidden cards or
secret choices), bad tokens, stale and illegal moves, tables surviving a restart, corrupt
table files left alone, replays, and the command's errors."""

from __future__ import annotations

import html
import json
import random
import re
import socket
import sys
import time
import warnings
from pathlib import Path

import procs
import pytest
from bundled_games import names_variants_slow

from typer.testing import CliRunner

with warnings.catch_warnings():  # Starlette 1.x asks for the httpx2 fork; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter import engine
from interpreter.bundled import bundled
from interpreter.errors import IllegalMoveError, InvalidMoveError
from interpreter.commands.cli import TABLE_FORMAT as CLI_TABLE_FORMAT, app as cli_app
from interpreter.web import store
from interpreter.web.app import create_app
from interpreter.web.limits import Limits
from interpreter.web.tables import for_seat
from interpreter.web.views import visible_cards

from table_client import api, make_app, next_person, open_table, post_move, table_of, wait_for

ROOT = Path(__file__).resolve().parents[2]
GANJIFA = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"


# ------------------------------------------------------------------ helpers

def named(text: str, card: str) -> bool:
    """Whether a card's name appears in text as a whole name (not inside a longer one)."""
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text) is not None


def everything_sent(client, tid: str, seat: int, token: str) -> str:
    """All a seat's browser and scripts receive: its page, its live fragment, its JSON, its events."""
    q = f"?token={token}"
    parts = [client.get(f"/t/{tid}/seat/{seat + 1}{q}"), client.get(f"/t/{tid}/seat/{seat + 1}/view{q}"),
             client.get(f"/api/t/{tid}/seat/{seat + 1}{q}"), client.get(f"/t/{tid}/seat/{seat + 1}/events{q}")]
    assert [p.status_code for p in parts] == [200] * 4
    return "\n".join(p.text for p in parts)


# ------------------------------------------------------------------ a whole game

def test_a_person_plays_a_whole_game_against_two_bots_and_the_outcome_shows(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert "Ganjifa" in client.get("/").text
        tid, hot, tokens = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"], seed=3)
        assert list(tokens) == [0]
        tok = tokens[0]
        rng = random.Random(3)
        moves = 0
        while True:
            a = wait_for(client, tid, 0, tok)
            if a["outcome"]:
                break
            assert a["error"] is None
            r = post_move(client, tid, 0, tok, rng.choice(a["moves"]), a["version"])
            assert r.status_code == 200 and r.json()["ok"], r.text
            moves += 1
        table = table_of(app, tid)
        assert table.state.finished and moves > 10
        o = engine.outcome(table.state)
        assert a["outcome"] == {"winners": [engine.seat_name(w) for w in o.winners],
                                "scores": {engine.seat_name(i): v for i, v in enumerate(o.scores)}}
        page = client.get(f"/t/{tid}/seat/1?token={tok}").text
        assert "The game is over: won by " + ", ".join(a["outcome"]["winners"]) in page
        for i, v in enumerate(o.scores):
            assert re.search(rf"<td>P{i + 1}</td><td>{v}</td>", page), page
        # the file holds the finished game, and the seat's log names its own moves
        data = json.loads((tmp_path / "tables" / f"{tid}.json").read_text())
        assert data["format"] == store.TABLE_FORMAT == CLI_TABLE_FORMAT
        assert data["record"]["final"]["finished"] and len(data["record"]["moves"]) == len(table.state.history)
        assert sum(1 for line in a["log"] if line.startswith("P1 (you): ")) == moves


def test_the_seat_page_shows_the_hand_the_moves_and_the_running_rule(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"], seed=5)
        a = wait_for(client, tid, 0, tokens[0])
        state = table_of(app, tid).state
        page = client.get(f"/t/{tid}/seat/1?token={tokens[0]}").text
        # the seat's own cards, by suit (the deck's order), each clickable when it is a move
        hand = engine.cards_in(state, "hand", 0)
        shown = re.findall(r'<span class="slot[^"]*" data-card="([^"]+)"', page.split('class="area me')[1])
        order = {n: (state.program.card_suit[i], state.program.card_order[i]) for i, n in enumerate(state.program.card_names)}
        assert sorted(shown) == sorted(hand) and shown == sorted(shown, key=order.get)
        playable = set(re.findall(r'class="slot playable" data-card="([^"]+)" data-moves=', page))
        assert playable == {m.split()[1] for m in a["moves"]}
        # the rule being played is marked in the rulebook beside the table
        anchor = re.search(r'data-rule-anchor="([^"]+)"', page).group(1)
        book = client.get("/r/ganjifa/ganjifa/rulebook?embed=1").text
        assert f'id="{anchor}"' in book and ".rule-now" in book
        assert 'src="/r/ganjifa/ganjifa/rulebook?embed=1"' in page
        # the live updates: the table's version
        events = client.get(f"/t/{tid}/seat/1/events?token={tokens[0]}")
        assert events.headers["content-type"].startswith("text/event-stream")
        assert f"event: version\ndata: {a['version']}\n" in events.text
        # the API's observation is the engine's, for this seat
        assert a["observation"] == json.loads(json.dumps(engine.observe(state, 0)))


def test_a_seats_events_announce_every_new_version_as_it_happens(tmp_path):
    import threading
    app = create_app(tmp_path, bot_pause=0, events_lifetime=1.0)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "person", "random"], seed=2)
        table = table_of(app, tid)
        seat = next_person(table)
        other = 1 - seat
        a = api(client, tid, seat, tokens[seat])

        def later():
            time.sleep(0.3)
            post_move(client, tid, seat, tokens[seat], a["moves"][0], a["version"])
        mover = threading.Thread(target=later)
        mover.start()
        events = client.get(f"/t/{tid}/seat/{other + 1}/events?token={tokens[other]}").text
        mover.join()
        versions = [int(v) for v in re.findall(r"event: version\ndata: (\d+)\n", events)]
        assert versions[0] == a["version"] and a["version"] + 1 in versions, events
        assert re.fullmatch(r"(retry: \d+\n\n|event: version\ndata: \d+\n\n|: still here\n\n)+", events)


@pytest.fixture(scope="module")
def every_game_server(tmp_path_factory):
    """One server for the bundled games' tables, a table with a bot each, all kept: more than a
    server takes by default (32 with bots)."""
    from interpreter.web.limits import Limits
    app = make_app(tmp_path_factory.mktemp("every-game"), limits=Limits(max_tables=200, max_thinking=200))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield app, client, client.get("/").text


@pytest.mark.parametrize("name", names_variants_slow(sorted(n for n in bundled() if "/" in n)))
def test_every_bundled_game_opens_at_a_table_and_shows_its_page(every_game_server, name):
    """Each base game; each variant (a few changed rules at the same table) with the slow tests."""
    app, client, index = every_game_server
    rs = app.state.web.catalog.ruleset(name)
    assert f'href="/new?ruleset={name.replace("/", "%2F")}"' in index
    seats = ["person"] + ["random"] * (rs.players_min - 1)
    tid, _, tokens = open_table(client, name, seats, seed=3)
    rng = random.Random(3)
    for _ in range(3):
        a = wait_for(client, tid, 0, tokens[0])
        if a["outcome"]:
            break
        assert post_move(client, tid, 0, tokens[0], rng.choice(a["moves"]), a["version"]).status_code == 200
    page = client.get(f"/t/{tid}/seat/1?token={tokens[0]}")
    assert page.status_code == 200 and (rs.title or rs.name) in page.text.replace("&#39;", "'")
    assert table_of(app, tid).error is None


# ------------------------------------------------------------------ secrecy

def test_nothing_sent_to_a_seat_names_a_card_hidden_in_another_seats_hand(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "person", "random"], seed=11,
                                    face_up_batches="true")
        table = table_of(app, tid)
        rng = random.Random(11)
        checked = shown_face_up = 0
        while not table.state.finished:
            state = table.state
            seen_by_1 = visible_cards(engine.observe(state, 0))
            hand_2 = set(engine.cards_in(state, "hand", 1))
            hidden = hand_2 - seen_by_1
            if state.history and state.history[-1].player == 1 and state.history[-1].action == "give_deni":
                hidden.discard(state.history[-1].arg)  # announced (engine/shown.py), laid face up before P1 moves
            shown_face_up += len(hand_2 & seen_by_1)
            sent = set(re.findall(r"[\w-]+", everything_sent(client, tid, 0, tokens[0])))  # every name in it
            leaks = sorted(hidden & sent)
            assert not leaks, f"after {len(state.history)} moves P1 was sent P2's hidden cards {leaks}"
            if checked < 3:  # the check can fail: P2's own page does name them
                own = everything_sent(client, tid, 1, tokens[1])
                assert hidden and all(named(own, c) for c in hidden)
            checked += 1
            for seat in (0, 1):
                a = api(client, tid, seat, tokens[seat])
                if a["moves"]:
                    post_move(client, tid, seat, tokens[seat], rng.choice(a["moves"]), a["version"])
                    break
            else:  # the bots are thinking (in worker processes): wait for either person's turn
                next_person(table)
        assert checked > 40
        assert shown_face_up > 0  # the face-up batches were shown, and not counted as leaks


def test_a_sealed_choice_shows_in_no_other_seats_log_or_view(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "euro-jongg/euro-jongg", ["person", "person", "random", "random"],
                                    seed=2, hands=1)
        table = table_of(app, tid)
        rng = random.Random(2)
        sealed = 0
        for _ in range(400):
            if table.state.finished or sealed >= 6:
                break
            moved = False
            for seat in (0, 1):
                a = api(client, tid, seat, tokens[seat])
                if not a["moves"]:
                    continue
                other = 1 - seat
                before = api(client, tid, other, tokens[other])
                secret = engine.in_secret(table.state)
                claims = [m for m in a["moves"] if m != "pass"]
                move = rng.choice(claims) if claims and secret else rng.choice(a["moves"])
                r = post_move(client, tid, seat, tokens[seat], move, a["version"])
                assert r.status_code == 200, r.text
                moved = True
                if not secret:
                    break
                sealed += 1
                n = a["version"] + 1
                after = api(client, tid, other, tokens[other])
                assert after["log"][n - 1] == f"P{seat + 1} chose in secret"
                assert api(client, tid, seat, tokens[seat])["log"][n - 1] == f"P{seat + 1} (you): {move} (in secret)"
                page = client.get(f"/t/{tid}/seat/{other + 1}?token={tokens[other]}").text
                assert f'<span class="n">{n}</span>P{seat + 1} chose in secret' in page
                if table.notes[-1]["secret"] and table.state.choice is not None and table.state.choice.secret:
                    # still sealed: the other seat's view of the cards and the table has not changed at all
                    strip = ("legal", "to_move")
                    assert {k: v for k, v in after["observation"].items() if k not in strip} == \
                           {k: v for k, v in before["observation"].items() if k not in strip}
                break
            if not moved:  # the bots are thinking (in worker processes): wait for either person's turn
                next_person(table)
        assert sealed >= 2, "no sealed choice was made by a person"


def test_the_engines_reason_for_refusing_a_move_names_no_card_the_seat_cannot_see(tmp_path):
    rs = engine.program_of(__import__("interpreter").load_ruleset(GANJIFA)).ruleset
    state = engine.new_game(rs, 3, {}, 1)
    me = state.actor
    mine, theirs = engine.cards_in(state, "hand", me)[0], engine.cards_in(state, "hand", (me + 1) % 3)[0]
    said = f"P{me + 1} may not give {theirs} now: rule 'x' says no. Legal now: give {theirs}, give {mine}"
    told = for_seat(said, state, me)
    assert theirs not in told and told.startswith(f"P{me + 1} may not give a hidden card now: rule 'x' says no. ")
    assert told.endswith("Your legal moves now: " + ", ".join(str(m) for m in engine.moves_for(state, me)))
    assert theirs in for_seat(said, state, me, typed=f"give {theirs}")  # the seat's own words are its own


# ------------------------------------------------------------------ bad requests

def test_a_wrong_or_missing_token_gets_403_and_nothing_about_the_table(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, hot, tokens = open_table(client, "ganjifa/ganjifa", ["person", "greedy", "random"])
        bad = ["", "?token=", "?token=nope", f"?token={tokens[0]}x"]
        for q in bad:
            for path in (f"/t/{tid}/seat/1{q}", f"/t/{tid}/seat/1/view{q}", f"/t/{tid}/seat/1/events{q}",
                         f"/api/t/{tid}/seat/1{q}", f"/t/{tid}/hotseat{q}", f"/t/{tid}/links{q}"):
                r = client.get(path)
                assert r.status_code == 403, path
                assert not re.search(r"ganjifa|greedy|random|P2|P3|raja|rama", r.text, re.I), r.text
            r = client.post(f"/t/{tid}/seat/1/move{q}", data={"move": "x"})
            assert r.status_code == 403
        # a seat's token opens that seat only; a bot's seat has no page
        assert client.get(f"/t/{tid}/seat/2?token={tokens[0]}").status_code == 403
        assert client.get(f"/t/{tid}/seat/2?token={hot}").status_code == 403
        assert client.get(f"/t/{tid}/links?token={tokens[0]}").status_code == 403
        assert client.get(f"/t/{tid}/seat/1?token={hot}").status_code == 200  # the hot seat opens every person's seat
        # an unknown table
        assert client.get(f"/t/nosuchtable/seat/1?token={tokens[0]}").status_code == 404
        assert client.get("/api/t/nosuchtable/seat/1?token=x").status_code == 404


def test_a_stale_move_is_refused_and_changes_nothing(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "person", "random"], seed=4)
        tok = tokens[0]
        a = wait_for(client, tid, 0, tok)
        assert post_move(client, tid, 0, tok, a["moves"][0], a["version"]).status_code == 200
        table = table_of(app, tid)
        # P1 still has a legal move later; send one from the page that showed the earlier moment
        b = wait_for(client, tid, 0, tok)
        history = list(table.state.history)
        r = post_move(client, tid, 0, tok, b["moves"][0], a["version"])
        assert r.status_code == 409 and r.json()["error"] == "the game has moved on; here is the table now"
        assert table.state.history == history
        # the same from the page (a form post): the message, and the table as it is now
        r = client.post(f"/t/{tid}/seat/1/move?token={tok}", data={"move": b["moves"][0], "version": a["version"]},
                        headers={"X-Cardrules-Fragment": "1"})
        assert r.status_code == 409 and "the game has moved on; here is the table now" in r.text
        assert f'data-version="{len(history)}"' in r.text
        assert table.state.history == history


def test_an_illegal_move_says_why_and_changes_nothing(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"], seed=6)
        tok = tokens[0]
        a = wait_for(client, tid, 0, tok)
        table = table_of(app, tid)
        history, digest = list(table.state.history), engine.state_digest(table.state)
        action = a["moves"][0].split()[0]
        seen = visible_cards(engine.observe(table.state, 0))  # a card P1 sees but may not play now
        not_mine = next(c for c in sorted(seen) if not any(m.endswith(" " + c) for m in a["moves"]))
        for move in (f"{action} {not_mine}", "fly away", f"{action} Nothing-Here"):
            with pytest.raises((IllegalMoveError, InvalidMoveError)) as e:  # the engine's own words
                engine.apply(table.state.clone(), engine.Move.parse(move, 0))
            reason, _, _ = e.value.message.partition(". Legal now: ")  # only P1 decides here: P1's moves are
            expected = reason + ". Your legal moves now: " + ", ".join(a["moves"]) if _ else reason  # the legal ones
            r = post_move(client, tid, 0, tok, move, a["version"])
            assert r.status_code == 409 and r.json()["error"] == expected, (move, r.text)
            page = client.post(f"/t/{tid}/seat/1/move?token={tok}", data={"move": move, "version": a["version"]})
            assert page.status_code == 409 and 'class="message bad"' in page.text
            assert expected.split(":")[0].replace("'", "&#39;") in page.text
        assert table.state.history == history and engine.state_digest(table.state) == digest


def test_bad_values_in_the_new_table_form_give_the_form_again_and_create_nothing(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        form = client.get("/new?ruleset=ganjifa/ganjifa").text
        # the options with the rulebook's words for them
        assert "Deal each player&#39;s first and last batch face up" in form and 'name="opt_time"' in form
        base = {"ruleset": "ganjifa/ganjifa", "players": "3", "seat1": "person", "seat2": "random", "seat3": "random"}
        cases = [({"players": "5", "seat4": "random", "seat5": "random"}, "is for 3 to 4 players, not 5"),
                 ({"opt_time": "noon"}, "option time is one of day, night, not &#39;noon&#39;"),
                 ({"players": "99999999"}, "is for 3 to 4 players, not 99,999,999"),
                 ({"players": "9" * 5000}, "the number of players must be a whole number of at most 40 digits"),
                 ({"players": "-1"}, "is for 3 to 4 players, not -1"),
                 ({"seat2": "ismcts", "seat2_iterations": "0"}, "must be from 1 to 20,000 iterations on this server, not 0"),
                 ({"seat2": "ismcts", "seat2_iterations": "1000000000"},
                  "must be from 1 to 20,000 iterations on this server, not 1,000,000,000"),
                 ({"seat2": "ismcts", "seat2_iterations": "many"}, "must be a whole number"),
                 ({"seed": "x"}, "the seed must be a whole number"),
                 ({"seed": "-1"}, "the seed must be a whole number from 0 to 9,223,372,036,854,775,807"),
                 ({"seed": str(2 ** 64)}, "the seed must be a whole number from 0 to 9,223,372,036,854,775,807"),
                 ({"seat1": "random"}, "at least one seat must be a person")]
        for change, message in cases:
            r = client.post("/new", data={**base, **change}, follow_redirects=False)
            assert r.status_code == 400 and message in r.text, (change, r.text[-3000:])
            assert "<form" in r.text
            for name, value in change.items():  # what was typed is kept (the number of players is a list)
                if name.startswith(("seed", "seat")) and not value.startswith("-"):
                    assert f'value="{value}"' in r.text or f'value="{value}" selected' in r.text, (name, value)
        assert app.state.web.tables.tables == {} and not list((tmp_path / "tables").glob("*.json"))
        assert client.get("/new?ruleset=no/such").status_code == 404


def test_random_seats_move_in_the_server_as_a_worker_would_have_moved_them(tmp_path, monkeypatch):
    """A random seat needs no worker (none is started), and its moves are the ones a worker
    choosing from the same decision would have made."""
    from dataclasses import replace

    from interpreter.players.bots import bot_seed
    from interpreter.web.thinkers import Thinkers, choose_here

    def no_worker(self):
        raise AssertionError("a worker was started for a random seat")
    monkeypatch.setattr(Thinkers, "_spawn", no_worker)
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"], seed=6)
        table, bot_moves = table_of(app, tid), 0
        a = wait_for(client, tid, 0, tokens[0])
        while not a["outcome"] and bot_moves < 6:
            done = len(table.state.history)
            assert post_move(client, tid, 0, tokens[0], a["moves"][-1], a["version"]).status_code == 200
            a = wait_for(client, tid, 0, tokens[0])
            history = table.state.history
            for k in range(done + 1, len(history)):  # each bot move, against a worker's choice there
                seat = history[k].player
                d = replace(table.decision(seat, 1.0), moves=tuple((m.player, str(m)) for m in history[:k]),
                            bot_seed=bot_seed(table.state.seed, seat) * 10_000 + k)
                assert choose_here(d) == str(history[k])
                bot_moves += 1
        assert bot_moves >= 6 and table.error is None


def test_a_bot_that_fails_stops_the_game_and_every_page_says_so(tmp_path, monkeypatch):
    from interpreter.players.bots import RandomBot
    from interpreter.errors import GameRuntimeError

    def broken(self, state):
        raise GameRuntimeError("no legal move to choose from")
    monkeypatch.setattr(RandomBot, "choose", broken)
    app = make_app(tmp_path, limits=Limits(bot_workers=0))  # the bots think in this process, where the patch is
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, hot, tokens = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"], seed=1)
        a = wait_for(client, tid, 0, tokens[0])
        while not a["error"]:  # P1 plays until a bot must move
            post_move(client, tid, 0, tokens[0], a["moves"][0], a["version"])
            a = wait_for(client, tid, 0, tokens[0])
        assert "could not choose: no legal move to choose from" in a["error"]
        assert "This game cannot go on" in client.get(f"/t/{tid}/seat/1?token={tokens[0]}").text
        assert "stopped by an error" in client.get("/").text
        r = post_move(client, tid, 0, tokens[0], "anything", a["version"])
        assert r.status_code == 409 and "cannot go on" in r.json()["error"]


# ------------------------------------------------------------------ hot seat

def test_the_hot_seat_asks_for_the_next_person_before_showing_their_hand(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, hot, tokens = open_table(client, "ganjifa/ganjifa", ["person", "person", "random"], seed=8)
        table = table_of(app, tid)
        for _ in range(6):
            who = next_person(table)
            screen = client.get(f"/t/{tid}/hotseat?token={hot}").text
            assert f"Pass the screen to P{who + 1}" in screen
            every_hand = set(engine.cards_in(table.state, "hand", 0)) | set(engine.cards_in(table.state, "hand", 1))
            assert not [c for c in every_hand if named(screen, c)]
            mine = client.get(f"/t/{tid}/hotseat?token={hot}&seat={who + 1}").text
            assert all(named(mine, c) for c in engine.cards_in(table.state, "hand", who))
            move = re.search(r"data-moves='\[\"([^\"]+)\"", mine) or re.search(r'data-move="([^"]+)"', mine)
            move_url = re.search(r'data-move-url="([^"]+)"', mine).group(1).replace("&amp;", "&")
            assert "hot=1" in move_url
            r = client.post(move_url, data={"move": move.group(1), "version": len(table.state.history)},
                            headers={"X-Cardrules-Fragment": "1"})
            assert r.status_code == 200, r.text
            # after the move the screen asks for the next person, or stays with this one (bots to move)
            passed = re.search(r"Pass the screen to P(\d)", r.text)
            assert (passed and int(passed.group(1)) != who + 1) or f"&amp;seat={who + 1}" in r.text


# ------------------------------------------------------------------ nothing lost

def test_a_restarted_server_offers_the_table_where_it_stopped(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, hot, tokens = open_table(client, "ganjifa/ganjifa", ["person", "person", "greedy"], seed=9)
        rng = random.Random(9)
        table = table_of(app, tid)
        while len(table.state.history) < 15:
            seat = next_person(table)
            a = api(client, tid, seat, tokens[seat])
            post_move(client, tid, seat, tokens[seat], rng.choice(a["moves"]), a["version"])
        next_person(table)  # the bot finishes its move, if it was thinking
        before = table_of(app, tid)
        history, notes = list(before.state.history), list(before.notes)
        log_before = api(client, tid, 1, tokens[1])["log"]
    assert len(history) >= 15
    again = make_app(tmp_path)
    with TestClient(again, base_url="http://127.0.0.1") as client:
        t = table_of(again, tid)
        assert t is not None and t.state.history == history and t.notes == notes
        assert engine.state_digest(t.state) == engine.state_digest(before.state)
        assert api(client, tid, 1, tokens[1])["log"] == log_before
        assert client.get(f"/t/{tid}/hotseat?token={hot}").status_code == 200


def test_a_corrupt_table_file_is_skipped_and_left_untouched(tmp_path, caplog):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, _ = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"])
    folder = tmp_path / "tables"
    broken = {"half.json": b'{"format": "cardrules-table/1", "id": "x", "se', "other.json": b'{"format": "something"}',
              "wrongmoves.json": None}
    good = json.loads((folder / f"{tid}.json").read_text())
    good["id"] = "wrong1"
    good["record"]["moves"] = [{"player": "P3", "move": "fly away"}]
    broken["wrongmoves.json"] = json.dumps(good).encode()
    for name, data in broken.items():
        (folder / name).write_bytes(data)
    stamps = {name: (folder / name).stat().st_mtime_ns for name in broken}
    with caplog.at_level("WARNING", logger="cardrules.web"):
        again = make_app(tmp_path)
    with TestClient(again, base_url="http://127.0.0.1") as client:
        assert set(again.state.web.tables.tables) == {tid}
        assert sorted(p.name for p, _ in again.state.web.tables.skipped) == sorted(broken)
        assert "3 saved table files could not be loaded" in client.get("/").text
    for name, data in broken.items():
        assert (folder / name).read_bytes() == data and (folder / name).stat().st_mtime_ns == stamps[name]
    assert sum("skipped" in r.message for r in caplog.records) == 3


# ------------------------------------------------------------------ replays

def _finished_table(client, app) -> tuple[str, dict[int, str]]:
    tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"], seed=12)
    rng = random.Random(12)
    while True:
        a = wait_for(client, tid, 0, tokens[0])
        if a["outcome"]:
            return tid, tokens
        post_move(client, tid, 0, tokens[0], rng.choice(a["moves"]), a["version"])


def test_a_finished_tables_file_replays_on_the_command_line_and_in_the_browser(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, tokens = _finished_table(client, app)
        table = table_of(app, tid)
        file = tmp_path / "tables" / f"{tid}.json"
        r = CliRunner().invoke(cli_app, ["replay", str(file)])
        assert r.exit_code == 0 and "identical final state" in r.output, r.output
        # the replay page offers it (a finished table only), steps through it, as everyone or one seat
        assert f"/replay/table/{tid}" in client.get("/replay").text
        n = len(table.state.history)
        end = client.get(f"/replay/table/{tid}?step={n}")
        assert end.status_code == 200 and "The game is over" in end.text and f"after move {n} of {n}" in end.text
        k = 5
        state = engine.new_game(table.state.program.ruleset, 3, table.state.options, table.state.seed)
        for m in table.state.history[:k]:
            engine.apply(state, m)
        everyone = client.get(f"/replay/table/{tid}?step={k}").text
        as_p1 = client.get(f"/replay/table/{tid}?step={k}&seat=1").text
        hand_2 = engine.cards_in(state, "hand", 1)
        assert all(named(everyone, c) for c in hand_2)
        assert not [c for c in hand_2 if named(as_p1, c)]
        assert f'href="/replay/table/{tid}?step={k + 1}&amp;seat=1"' in as_p1
        # an uploaded record (play --log) replays too
        rec = engine.make_record(state, "bundled:ganjifa/ganjifa")
        up = client.post("/replay", data={"record": json.dumps(rec), "name": "mine.json"})
        assert up.status_code == 200 and f"after move 0 of {k}" in up.text
        bad = client.post("/replay", data={"record": "{not json"})
        assert bad.status_code == 400 and "not valid JSON" in bad.text


def test_a_table_still_playing_is_not_offered_for_replay(tmp_path):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        tid, _, _ = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"])
        assert f"/replay/table/{tid}" not in client.get("/replay").text
        assert client.get(f"/replay/table/{tid}?step=0").status_code == 404


def test_records_named_on_the_command_line_are_offered_for_replay(tmp_path):
    log = tmp_path / "game.json"
    r = CliRunner().invoke(cli_app, ["play", "ganjifa", "--players", "3", "--seed", "4", "--log", str(log)])
    assert r.exit_code == 0, r.output
    app = create_app(tmp_path / "data", bot_pause=0, records=[log])
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert "game.json" in client.get("/replay").text
        page = client.get("/replay/file/0-0?step=3")
        assert page.status_code == 200 and "after move 3 of" in page.text


# ------------------------------------------------------------------ the command

def _serve(*args, timeout=60):
    return procs.run([sys.executable, "-m", "interpreter", "serve", *map(str, args)],
                     capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def test_serve_says_in_one_line_when_the_port_is_in_use(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = _serve("--port", port, "--data", tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip() == f"error: port {port} is in use on 127.0.0.1; pass --port"


def test_serve_shows_a_ruleset_that_does_not_load_as_check_does(tmp_path):
    bad = tmp_path / "bad.cards"
    bad.write_text(GANJIFA.read_text().replace("players 3..4", "players 3..", 1))
    r = _serve(bad, "--data", tmp_path, "--port", 0)
    check = CliRunner().invoke(cli_app, ["check", str(bad)])
    assert r.returncode == 1 and check.exit_code == 1
    assert r.stderr.strip() == check.output.strip() and re.match(rf"{re.escape(str(bad))}:\d+:\d+: error: ", r.stderr)


def test_the_data_folder_defaults_to_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("CARDRULES_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert store.default_data_dir() == tmp_path / "xdg" / "cardrules"
    monkeypatch.setenv("CARDRULES_DATA_DIR", str(tmp_path / "mine"))
    assert store.default_data_dir() == tmp_path / "mine"


def test_the_command_line_starts_without_the_web_server():
    code = "import sys, interpreter.commands.cli; print(any(m.split('.')[0] in ('starlette', 'uvicorn') for m in sys.modules))"
    out = procs.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_a_failure_inside_the_server_is_told_in_words_not_a_traceback(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        tid, _, tokens = open_table(client, "ganjifa/ganjifa", ["person", "random", "random"])
        from interpreter.web import views

        def broken(*args, **kw):
            raise RuntimeError("a bug")
        monkeypatch.setattr(views, "seat_context", broken)
        r = client.get(f"/t/{tid}/seat/1?token={tokens[0]}")
        assert r.status_code == 500 and "Something went wrong inside the server (RuntimeError)" in r.text
        assert "Traceback" not in r.text and "a bug" not in r.text
        # any text may arrive as a token
        assert client.get(f"/t/{tid}/seat/1?token=%C3%A9t%C3%A9").status_code == 403


def test_a_ruleset_edited_while_the_server_runs_is_read_again_for_the_next_table(tmp_path):
    """The designer's loop: edit the file, open a new table; a broken edit shows the located
    error as `check` prints it; a table already open keeps the rules it started with."""
    mine = tmp_path / "mine.cards"
    mine.write_text(GANJIFA.read_text())
    app = create_app(tmp_path / "data", given=[(mine, None)], bot_pause=0, events_lifetime=0)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        first, _, tokens = open_table(client, "file/mine", ["person", "random", "random"], seed=2)  # P1 first
        old = table_of(app, first).state.program.ruleset
        assert old.players_max == 4
        mine.write_text(GANJIFA.read_text().replace("players 3..4", "players 3..3", 1))
        second, _, _ = open_table(client, "file/mine", ["person", "random", "random"])
        assert table_of(app, second).state.program.ruleset.players_max == 3
        assert table_of(app, first).state.program.ruleset is old  # the open table is unchanged
        mine.write_text(GANJIFA.read_text().replace("players 3..4", "players 3..", 1))
        r = client.get("/new?ruleset=file/mine")
        check = CliRunner().invoke(cli_app, ["check", str(mine)])
        assert check.exit_code == 1
        located = check.output.strip().splitlines()[0]
        assert re.match(rf"{re.escape(str(mine))}:\d+:\d+: error: ", located)
        assert html.escape(located, quote=False) in r.text or located in r.text
        assert api(client, first, 0, tokens[0])["observation"]["players"] == 3  # still playing
        # its bots think in worker processes on the texts read when it opened, not the broken file
        table = table_of(app, first)
        for _ in range(3):
            if next_person(table) is None:
                break
            a = api(client, first, 0, tokens[0])
            post_move(client, first, 0, tokens[0], a["moves"][0], a["version"])
        next_person(table)
        assert table.error is None and table.version >= 3

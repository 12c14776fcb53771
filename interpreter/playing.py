"""One game played to its end by bots and, at the terminal, a person: what `cardrules play`
plays game by game, in its own process or on a runner's workers (`play`, `play_games`). It lives
below the front doors so that the workers need not import the command line."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import typer

from . import engine, engines
from .players.bots import bot_seed, choosing_failed, make_bot
from .engine import (Move, State, apply, fired_counts, in_secret, legal_moves, make_record, moves_for, observe,
                     outcome, seat_name)
from .errors import CardRulesError, GameRuntimeError
from .language.graph import ordered_zones
from .engine import shown
from .runner import (MAX_CHUNK, NATIVE_CHUNK, Interrupted, Runner, Task, chunks, load, remember, say_workers,
                     source_of)


@dataclass
class Tally:
    """What `play`'s summary needs of many games, summed where they are played: a worker sums its
    chunk and the client adds the chunks in the order of the games, so the client's work does not
    grow with the games. Each game's entry in `--json`'s list of results is kept, as its JSON text
    (result_text), only when the summary lists them (`keep`)."""

    players: int
    keep: bool = True
    games: int = 0
    wins: list = field(default_factory=list)
    totals: list = field(default_factory=list)
    shared: int = 0
    decisions: int = 0
    fired: dict = field(default_factory=dict)
    results: list = field(default_factory=list)
    # each seat's wins with a win shared by k counted 1/k, in units of 1/unit (unit: the least
    # common multiple of 1 .. players), so that sums are exact and the same in any order
    split: list = field(default_factory=list)

    def __post_init__(self):
        self.wins = self.wins or [0] * self.players
        self.totals = self.totals or [0] * self.players
        self.split = self.split or [0] * self.players

    @property
    def unit(self) -> int:
        return math.lcm(*range(1, self.players + 1))

    def add(self, seed: int, winners, scores, decisions: int, fired: dict) -> None:
        self.games += 1
        part = self.unit // len(winners) if winners else 0
        for w in winners:
            self.wins[w] += 1
            self.split[w] += part
        for i, v in enumerate(scores):
            self.totals[i] += v
        self.shared += len(winners) > 1
        self.decisions += decisions
        for name, n in fired.items():
            self.fired[name] = self.fired.get(name, 0) + n
        if self.keep:
            self.results.append(result_text(seed, winners, scores, decisions))

    def extend(self, other: "Tally") -> None:
        """The games of `other`, which follow these."""
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.split = [a + b for a, b in zip(self.split, other.split)]
        self.totals = [a + b for a, b in zip(self.totals, other.totals)]
        self.shared += other.shared
        self.decisions += other.decisions
        for name, n in other.fired.items():
            self.fired[name] = self.fired.get(name, 0) + n
        self.results.extend(other.results)


def result_text(seed: int, winners, scores, decisions: int) -> str:
    """One game's entry in `play --json`'s list of results, as the summary's JSON prints it
    (json.dumps with an indent of 2, the entry two levels in: cli.summary_json), made where the
    game was played."""
    def items(values) -> str:  # a list as json.dumps lays it out at this depth
        return "[\n        " + ",\n        ".join(values) + "\n      ]" if values else "[]"
    return (f'    {{\n      "seed": {seed},\n      "winners": {items([json.dumps(seat_name(w)) for w in winners])},\n'
            f'      "scores": {items([json.dumps(v) for v in scores])},\n      "decisions": {decisions}\n    }}')


class Quit(Exception):
    """The person at the terminal ended the game (q or end of input)."""

    moves = 0


def _told_text(told: dict) -> str:
    """What a seat was told of one card, as the rules name it: '4-White', 'a 4', 'White'."""
    if "rank" in told and "suit" in told:
        return f"{told['rank']}-{told['suit']}"
    return f"a {told['rank']}" if "rank" in told else told["suit"]


def _value_text(value) -> str:
    """A variable's value spelt as the language spells it (true, not True; each player's after
    their seat)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(_value_text(v) for v in value)
    return "none" if value is None else str(value)


@dataclass
class Human:
    """A person at the terminal playing one seat: sees `observe(state, seat)`, types moves."""

    seat: int
    _order: dict = field(default_factory=dict)
    _was: dict | None = None  # the cards in view at the last decision, by place: what arrived since is told
    _piles: frozenset | None = None  # the zones whose order the rules read: one's own shown as they lie

    def _ordered(self, state: State) -> frozenset:
        """The zones whose order the rules read (graph.ordered_zones), worked out once."""
        if self._piles is None:
            self._piles = ordered_zones(state.program.ruleset)
        return self._piles

    def _sort_key(self, state: State):
        p = state.program
        if not self._order:
            self._order = {n: (p.card_suit[i], p.card_order[i], i) for i, n in enumerate(p.card_names)}
        return lambda name: self._order.get(name, (len(p.card_names), 0, 0))

    def _cards_by_suit(self, state: State, names: list[str]) -> list[str]:
        """Own cards, one line per suit, lowest first."""
        p = state.program
        deck = p.ruleset.deck
        key = self._sort_key(state)
        lines: dict[int, list[str]] = {}
        for n in sorted(names, key=key):
            i = p.card_names.index(n)
            label = deck.ranks[p.card_rank[i]] if deck.copies == 1 else n
            lines.setdefault(p.card_suit[i], []).append(label)
        return [f"{deck.suits[s]}: {' '.join(ls)}" for s, ls in lines.items()]

    def _zone_text(self, state: State, zname: str, seen: dict, own: bool) -> list[str]:
        """How one zone (or one seat's part of it) looks to this seat: own cards in full, sorted,
        unless the rules read the zone's order (a pile whose top matters: as they lie); others'
        public cards in the order they arrived (long piles as counts); hidden cards as a count
        plus any that were shown face up."""
        if "cards" in seen:
            cards = seen["cards"]
            if not cards:
                return ["-"]
            if own and len(cards) > 1 and zname in self._ordered(state):  # (its top card matters: in order)
                return [f"{len(cards)} cards, bottom to top: {' '.join(cards)}"]
            if own:  # one's own cards in full, whoever else may see them (a pile of cards won, say)
                if len(cards) > 6:
                    return [f"{len(cards)} cards"] + ["  " + ln for ln in self._cards_by_suit(state, cards)]
                return [" ".join(sorted(cards, key=self._sort_key(state)))]
            if len(cards) > 12:
                return [f"{len(cards)} cards, the last: {' '.join(cards[-6:])}"]
            return [" ".join(cards)]
        text = f"{seen['count']} card" + ("" if seen["count"] == 1 else "s")
        if seen.get("known"):
            text += " (seen: " + " ".join(seen["known"]) + ")"
        told = [f"card {i} {_told_text(t)}" for i, t in enumerate(seen.get("told") or (), 1) if t]
        if told:  # what this seat was told of cards it cannot see (`tell`), by their place in the zone
            text += " (told: " + ", ".join(told) + ")"
        return [text]

    def _changes(self, view: dict, me: str) -> str | None:
        """The cards that came into view, or left this seat's own places, since its last decision
        (a card drawn blind, one turned up from the stock by a rule): one line, or None."""
        now: dict[str, list[str]] = {}
        for zname, seen in view["zones"].items():
            parts = {zname: seen} if ("cards" in seen or "count" in seen) else \
                {(f"your {zname}" if who == me else f"{zname} of {who}"
                  if who.startswith("P") else f"{zname}({who})"): part for who, part in seen.items()}
            for label, part in parts.items():
                now[label] = list(part.get("cards", ())) + list(part.get("known", ()))
        was, self._was = self._was, now
        if was is None:
            return None
        out = []
        for label, cards in now.items():
            before = set(was.get(label, ()))
            came = [c for c in cards if c not in before]
            went = [c for c in was.get(label, ()) if c not in set(cards)] if label.startswith("your ") else []
            if came or went:
                out.append(label + " " + " ".join([f"+{c}" for c in came] + [f"-{c}" for c in went]))
        return "since your last move: " + "; ".join(out) if out else None

    def show(self, state: State) -> None:
        view = observe(state, self.seat)
        me = seat_name(self.seat)
        out = [f"--- move {len(state.history) + 1} - you are {me} - rule: {view['rule']} ---"]
        changed = self._changes(view, me)
        if changed:
            out.append(changed)
        p = state.program

        def zone_of(zname):
            return p.zones[p.zone_index[zname]] if zname in p.zone_index else None
        for name, value in view["vars"].items():
            if value is not None:
                out.append(f"{name}: {_value_text(value)}")
        if view.get("out_of_play"):
            out.append("out of play: " + ", ".join(f"{k} ({'this round' if v == 'round' else 'for the game'})"
                                                    for k, v in view["out_of_play"].items()))
        for zname, seen in view["zones"].items():
            if "cards" in seen or "count" in seen:  # a shared zone
                if "count" in seen and seen["count"] == 0 and not seen.get("known"):
                    continue
                lines = self._zone_text(state, zname, seen, own=False)
                out.append(f"{zname}: {lines[0]}")
                out.extend("  " + ln for ln in lines[1:])
                continue
            if zone_of(zname) is not None and not zone_of(zname).per_player:  # a shared family: each by its number
                empty = []  # (a long row of places, most of them empty: Accordion's 52, by a new user)
                for part, pseen in seen.items():
                    if "count" in pseen and pseen["count"] == 0 and not pseen.get("known"):
                        continue
                    if len(seen) > 12 and not pseen.get("cards", True):
                        empty.append(str(part))
                        continue
                    lines = self._zone_text(state, zname, pseen, own=False)
                    out.append(f"{zname}({part}): {lines[0]}")
                    out.extend("  " + ln for ln in lines[1:])
                if empty:
                    out.append(f"{zname}: {len(empty)} of {len(seen)} empty, not listed")
                continue
            if me in seen:  # own part first, in full
                lines = self._zone_text(state, zname, seen[me], own=True)
                out.append(f"your {zname}: {lines[0]}")
                out.extend("  " + ln for ln in lines[1:])
            others = [f"{who} {self._zone_text(state, zname, part, own=False)[0]}"
                      for who, part in seen.items() if who != me]
            if others:
                out.append(f"  {zname} of others: " + "; ".join(others))
        typer.echo("\n".join(out))

    def numbered(self, state: State) -> list[Move]:
        """The moves as the menu numbers them: by action, in the order the rules offer the actions;
        a card's by suit and rank; any other in the order the rules list them (zones by their
        number, numbers upwards: `spot2` before `spot10`, `ask P2 9` before `ask P2 10`)."""
        moves = moves_for(state)
        first = {}
        for m in moves:
            first.setdefault(m.action, len(first))
        key = self._sort_key(state)
        return sorted(moves, key=lambda m: (first[m.action], key(m.arg) if m.arg else (-1, 0, 0)))  # (stable)

    def choose(self, state: State) -> Move:
        self.show(state)
        moves = self.numbered(state)
        labels = [f"{i}) {m}" for i, m in enumerate(moves, 1)]
        width = max(len(s) for s in labels) + 2
        per_line = max(1, 78 // width)
        names = {m.action for m in moves}
        labels_of: dict[str, list[str]] = {}
        for alt in getattr(state.choice, "alts", ()):
            if alt.name in names and alt.label and alt.label not in labels_of.setdefault(alt.name, []):
                labels_of[alt.name].append(alt.label)
        for name, texts in labels_of.items():
            if texts:
                typer.echo(f"{name}: {' or '.join(t.rstrip('.') for t in texts)}.")
        typer.echo("your moves:")
        for k in range(0, len(labels), per_line):
            typer.echo("  " + "".join(s.ljust(width) for s in labels[k:k + per_line]).rstrip())
        while True:
            typer.echo(f"choose 1-{len(moves)} (or type the move; q quits): ", nl=False)
            stdin = sys.stdin
            line = stdin.readline() if stdin is not None else ""
            if not line:
                typer.echo("")
                raise Quit("end of input")
            if stdin is not None and not stdin.isatty():
                typer.echo(line.rstrip("\n"))  # keep piped transcripts readable
            text = " ".join(line.split())
            if text.lower() in ("q", "quit", "exit"):
                raise Quit("quit")
            if text.isdigit() and 1 <= int(text) <= len(moves):
                move = moves[int(text) - 1]
            else:
                exact = [m for m in moves if str(m).lower() == text.lower()]
                by_arg = [m for m in moves if m.arg is not None and m.arg.lower() == text.lower()]
                # a set of cards typed in another order names the same move: the action first, then any order
                words = text.lower().split()
                any_order = [m for m in moves if str(m).lower().split()[:1] == words[:1]
                             and sorted(str(m).lower().split()[1:]) == sorted(words[1:])]
                pick = exact or (by_arg if len(by_arg) == 1 else []) or (any_order if len(any_order) == 1 else [])
                if not text or not pick:
                    typer.echo(f"not a move here: {text!r}; enter a number from 1 to {len(moves)}, "
                               "a move as written above, or q to quit")
                    continue
                move = pick[0]
            typer.echo(f"{seat_name(self.seat)} (you): {move}")
            return move


def rule_where(state: State | None) -> str:
    """The rule being played, for messages: the engine's `rule_at` (the rule around the
    current instruction, also inside procedures) when it has one, else the open choice's."""
    if state is None:
        return "the set-up"
    rule_at = getattr(engine, "rule_at", None)
    if rule_at is not None:
        name, title = rule_at(state)
        if name == "(no rule)":
            return "no rule (between rules)"
        return f"rule {name!r} ({title})"
    ch = state.choice
    return f"rule {ch.rule!r} ({ch.rule_title})" if ch is not None else "the set-up"


class GameBroke(Exception):
    """A game that cannot go on: the engine failed, or nobody has a legal move."""

    def __init__(self, message: str, state: State | None, cause: CardRulesError | None = None):
        super().__init__(message)
        self.state = state
        self.cause = cause

    def render(self) -> str:
        text = f"error: {self}"
        if self.cause is not None:
            text += "\n" + self.cause.render()
        return text


def _told(state: State, seat: int) -> list | None:
    """What `seat` has been told of each card (`tell`), or None in a game that tells nothing."""
    from .engine.play import _synced
    told = _synced(state).told
    return None if told is None else told[seat::state.n_players]


def _say_told(state: State, seat: int, before: list | None) -> None:
    """Say at once what a move told the person (a Priest's look at a hand): shown only beside the
    card at their next decision, it was lost when the card moved first (a new user's Love Letter)."""
    if before is None:
        return
    from .engine.play import told_of
    now = _told(state, seat)
    for c, (was, is_) in enumerate(zip(before, now)):
        if is_ and is_ != was:
            inst = state.card_zone[c]
            owner, kind = state.zowner[inst], state.program.zones[state.zkind[inst]].name
            where = (state.zone_names[inst] if owner is None else f"your {kind}" if owner == seat
                     else f"{seat_name(owner)}'s {kind}")
            typer.echo(f"you are told: a card in {where} is {_told_text(told_of(state, c, seat))}")


def play_one(rs, players: int, options: dict, seed: int, bot_names: dict[int, str],
              human: Human | None, native: bool = False) -> State:
    """Play one game to its end (`native`: on the native engine, the bots choosing through the
    engine's functions); GameBroke if the engine fails or the game gets stuck."""
    state = None
    last = None
    choosing = None  # the seat whose player is choosing (a failure there is in its look-ahead, not a move made)
    where = "the set-up"
    try:
        state = engines.new_game(rs, players, options, seed, engine="native" if native else "python")
        players_of = {seat: human if human is not None and seat == human.seat
                      else make_bot(bot_names[seat], bot_seed(seed, seat)) for seat in range(players)}
        while not state.finished:
            if not legal_moves(state):
                raise GameBroke(f"the game with seed {seed} is stuck after {len(state.history)} moves: "
                                f"{rule_where(state)} gives {seat_name(state.actor)} no legal move, "
                                "but the game is not over", state)
            who = state.actor
            where = rule_where(state)
            choosing = who
            move = players_of[who].choose(state)
            choosing = None
            last = f"move {len(state.history) + 1} ({seat_name(who)}: {move})"
            told_before = _told(state, human.seat) if human is not None else None
            if human is not None and who != human.seat:  # the move as the person may see it (engine/shown.py)
                secret = in_secret(state)
                cards = shown.named_cards(state.program, getattr(move, "arg", None))
                before = shown.places(state, cards)
                apply(state, move)
                if secret:
                    typer.echo(f"{seat_name(who)}: has chosen, in secret")
                elif shown.shown(state, who, cards, before, shown.places(state, cards, during=True), False)[human.seat]:
                    typer.echo(f"{seat_name(who)}: {move}")
                else:
                    typer.echo(f"{seat_name(who)}: {shown.unseen_text(move, len(cards))}")
                _say_told(state, human.seat, told_before)
                continue
            apply(state, move)
            if human is not None:
                _say_told(state, human.seat, told_before)
        where = None
        outcome(state)  # (a score that cannot be worked out breaks the game here, as a failing rule does)
        return state
    except Quit as q:
        q.moves = len(state.history) if state is not None else 0
        raise
    except CardRulesError as e:  # GameRuntimeError, or a bot that chose an illegal move
        after = f" after {last}" if last else ""  # (the rules it set off: they failed, not the choice)
        if choosing is not None and state is not None:  # (the game itself stands where it was)
            name = bot_names.get(choosing, "the person")
            after = " " + choosing_failed(seat_name(choosing), name, f"move {len(state.history) + 1}")
        elif where is None:  # (every move made: its result could not be worked out)
            raise GameBroke(f"the game with seed {seed} broke at its end, working out its result", state, e) from None
        elif isinstance(e, GameRuntimeError) and state is not None:
            where = rule_where(state)  # where the engine stopped
        raise GameBroke(f"the game with seed {seed} broke{after} in {where}", state, e) from None


def broke_in_python(rs, path, n: int, opts: dict, seed: int, bot_names: dict, log: bool) -> tuple:
    """A game the native engine could not finish, played by the Python engine (in this process or
    a worker): (its error as the command prints it, the record up to the failure)."""
    try:
        state = play_one(rs, n, opts, seed, bot_names, None)
    except GameBroke as e:
        return e.render(), (make_record(e.state, str(path)) if log and e.state is not None else None)
    return (f"error: the game with seed {seed} failed in the native engine but not in the Python engine: the "
            "native engine has less room than the Python engine (a decision offering tens of thousands of moves "
            "is the usual cause); play it with --engine python, and please report it if that is not so",
            make_record(state, str(path)) if log else None)


# ------------------------------------------------------------------ the games of `cardrules play` on workers

def play_games(sources, items, args) -> dict:
    """Games `items` of `cardrules play`, summed here (`tally`: a Tally, each game's result kept
    only with --json) with their records (--log); `broke`: (index, the error as the command
    prints it, the record of the game up to the failure) for the first game that broke, after
    which the chunk stops."""
    src = sources[0]
    rs = load(src)
    tally, records, broke = Tally(args["players"], keep=args.get("json", True)), [], None
    random_only = engines.all_random(args["bots"].values())
    program, note = engines.on_worker(rs, args.get("engine", "python"), players=not random_only)
    native = program is not None
    if native and random_only:  # random bots, whole games in C
        from .runner.native import play_chunk
        games, failed = play_chunk(rs, src.filename, args["players"], args["options"], args["seed"], items,
                                   args["log"], lambda seed: broke_in_python(rs, src.filename, args["players"],
                                                                              args["options"], seed, args["bots"],
                                                                              args["log"]))
        for game_seed, winners, scores, decisions, fired, rec in games:
            tally.add(game_seed, winners, scores, decisions, fired)
            if rec is not None:
                records.append(rec)
        if failed is not None:
            broke = (failed[0], *failed[1])
    else:
        for i in items:
            seed = args["seed"] + i
            try:
                state = play_one(rs, args["players"], args["options"], seed, args["bots"], None, native)
            except GameBroke as e:
                rec = make_record(e.state, src.filename) if args["log"] and e.state is not None else None
                broke = (i, e.render(), rec)
                break
            o = outcome(state)
            tally.add(seed, o.winners, o.scores, state.decisions, fired_counts(state))
            if args["log"]:
                records.append(make_record(state, src.filename))
    return {"tally": tally, "records": records, "broke": broke, "note": note}


@dataclass
class Played:
    tally: Tally                                    # the games from the first, summed
    records: list = field(default_factory=list)     # their records (with --log)
    broke: str | None = None                        # the first game that broke, as the command says it
    broke_record: dict | None = None
    interrupted: bool = False


def play(runner: Runner, path: Path, rs, players: int, options: dict, seed: int, games: int,
         bots: dict, log: bool, advance=None, engine: str = "python", keep: bool = True) -> Played:
    """`cardrules play` on a runner (`keep`: each game's result listed, for --json). Interrupted:
    the games before the first chunk that had not finished (so the summary is that of --games
    M)."""
    src = source_of(path)
    remember(src, rs)
    args = {"seed": seed, "players": players, "options": dict(options), "bots": dict(bots), "log": log,
            "engine": engine, "json": keep}
    # games whole in C come in large chunks; not with a log, whose records are made in Python at
    # a few milliseconds a game (a chunk of 5,000 would hold the bar still, and lose that much to Ctrl-C)
    whole_in_c = engine == "native" and engines.all_random(bots.values()) and not log
    parts = chunks(games, runner.parallelism, NATIVE_CHUNK if whole_in_c else MAX_CHUNK)
    tasks = [Task(k, play_games, (src,), tuple(r), args) for k, r in enumerate(parts)]
    out = Played(Tally(players, keep=keep))
    try:
        done = runner.run(tasks, advance, stop=lambda r: r["broke"] is not None)
    except Interrupted as e:
        done, out.interrupted = e.done, True
    say_workers(done)
    for task in tasks:
        r = done.get(task.key)
        if r is None:
            break
        out.tally.extend(r["tally"])
        if log:
            out.records.extend(r["records"])
        if r["broke"] is not None:
            _, out.broke, rec = r["broke"]
            if rec is not None:
                out.broke_record = rec
            break
    return out

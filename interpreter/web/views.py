"""What one seat may see, as data for the templates and the JSON API.

Everything about the cards comes from `engine.observe(state, seat)` (or, for the referee of a
replay, from `engine.cards_in`, which shows every card): the seat's own hand, every zone it may
see, face-down piles as counts with the cards shown face up among them. The rest is public: the
variables, the scores, whose turn it is, the rule being played, the outcome. The log says what
each player did, and shows another seat's move in full only when it was not made in secret and
every card it names could be seen by this seat right after it (`move_note`)."""

from __future__ import annotations

from markupsafe import Markup

from .. import engine
from ..engine import State, seat_name
from ..engine import shown as shown_cards
from ..errors import CardRulesError


def human(name: str) -> str:
    return name.replace("_", " ")


# ------------------------------------------------------------------ the log

def visible_cards(view: dict) -> set[str]:
    """Every card name an observation shows (zones, cards shown face up, variables)."""
    seen: set[str] = set()

    def part(p: dict) -> None:
        seen.update(p.get("cards", ()))
        seen.update(p.get("known", ()))

    for z in view["zones"].values():
        if "cards" in z or "count" in z:
            part(z)
        else:
            for p in z.values():
                part(p)
    for v in view["vars"].values():
        values = v.values() if isinstance(v, dict) else [v]
        for x in values:
            if isinstance(x, str):
                seen.add(x)
            elif isinstance(x, list):
                seen.update(y for y in x if isinstance(y, str))
    return seen


def move_note(after: State, move, secret: bool, rule: str | None, thought: str | None = None, *,
              before: tuple) -> dict:
    """What the log may tell each seat of a move just made: `shown` lists the seats that may
    read it in full (engine/shown.py: its player always; none other when it was made in secret,
    else those for whom it moved no card it names out of their sight: a called card is an
    announcement), `before` the places of the cards it names before it (shown.places);
    `thought`, for a bot's move whose time ran out, how it was chosen then (Thinkers.decide),
    told to everyone."""
    cards = shown_cards.named_cards(after.program, move.arg)
    seen = shown_cards.shown(after, move.player, cards, before, shown_cards.places(after, cards, during=True), secret)
    out = {"secret": secret, "rule": rule, "shown": [seat for seat, yes in enumerate(seen) if yes]}
    if thought:
        out["thought"] = thought
    return out


def log_entries(state: State, notes: list[dict], viewer: int | None) -> list[dict]:
    """The game so far in words, as `viewer` may read it (None: the referee, who sees all):
    [{"rule": title or None, "text": ...}], a rule's title where a new rule starts."""
    titles = state.program.rule_titles
    out = []
    last_rule = object()
    for i, m in enumerate(state.history):
        note = notes[i] if i < len(notes) else {"secret": True, "rule": None, "shown": []}
        rule = note.get("rule")
        heading = None
        if rule != last_rule and rule is not None:
            heading = titles.get(rule, human(rule))
        last_rule = rule
        who = seat_name(m.player)
        if viewer is not None and m.player == viewer:
            who += " (you)"
        if viewer is None or viewer in note.get("shown", ()):
            text = f"{who}: {human(m.action)}" + (f" {m.arg}" if m.arg else "")
            if note.get("secret"):
                text += " (in secret)"
        elif note.get("secret"):
            text = f"{who} chose in secret"
        else:
            text = f"{who} made a choice"
        if note.get("thought"):
            text += f" ({note['thought']})"
        out.append({"n": i + 1, "rule": heading, "text": text})
    return out


# ------------------------------------------------------------------ the board

def referee_observation(state: State) -> dict:
    """Every card where it lies, in the shape of `engine.observe` (for replays seen by all)."""
    p = state.program
    zones = {}
    for z in p.ruleset.zones:
        if z.per_player:
            zones[z.name] = {seat_name(k): {"cards": engine.cards_in(state, z.name, k)} for k in range(state.n_players)}
        elif z.size:
            zones[z.name] = {str(k): {"cards": engine.cards_in(state, z.name, k)} for k in range(1, z.size + 1)}
        else:
            zones[z.name] = {"cards": engine.cards_in(state, z.name)}
    return {"zones": zones, "vars": engine.public_vars(state), "out_of_play": engine.out_of_play(state),
            "finished": state.finished}


class Faces:
    """Card pictures for one ruleset (cards.py draws them), and the order of a hand: by suit,
    then by the suit's own ranking, as the terminal game shows it."""

    def __init__(self, program):
        from . import cards
        self.program = program
        self._cards = cards
        self.order = {n: (program.card_suit[i], program.card_order[i], i) for i, n in enumerate(program.card_names)}
        self.palette = cards.suit_palette(program.ruleset.deck)

    def face(self, name: str, moves: list[str] | None = None) -> dict:
        svg = self._cards.card_face(self.program, name, selectable=bool(moves))
        return {"name": name, "svg": Markup(svg), "moves": moves or []}

    def back(self, count: int | None = None) -> Markup:
        return Markup(self._cards.card_back(count))

    def sort(self, names: list[str]) -> list[str]:
        far = (len(self.order), 0, 0)
        return sorted(names, key=lambda n: self.order.get(n, far))

    def by_suit(self, names: list[str], moves: dict[str, list[str]]) -> list[dict]:
        p = self.program
        suits = p.ruleset.deck.suits
        groups: dict[int, list] = {}
        for n in self.sort(names):
            s = self.order.get(n, (len(suits), 0, 0))[0]
            groups.setdefault(s, []).append(self.face(n, moves.get(n)))
        return [{"suit": suits[s] if s < len(suits) else "", "colour": self.palette.get(suits[s], "#333")
                 if s < len(suits) else "#333", "cards": cs} for s, cs in groups.items()]


def _part(faces: Faces, seen: dict, long: int = 14) -> dict:
    """One zone as a seat sees it: face-up cards in the order they came (a long pile shows its
    last cards and a count), or a face-down pile's count and the cards shown face up in it."""
    if "cards" in seen:
        cards = seen["cards"]
        shown = cards[-long:]
        return {"open": True, "count": len(cards), "cards": [faces.face(n) for n in shown],
                "hidden_before": len(cards) - len(shown), "all": " ".join(cards)}
    return {"open": False, "count": seen["count"], "back": faces.back(seen["count"]) if seen["count"] else None,
            "cards": [faces.face(n) for n in seen.get("known", ())], "hidden_before": 0, "all": ""}


def board(state: State, view: dict, me: int | None, faces: Faces, hand_moves: dict[str, list[str]],
          seat_labels: list[str]) -> dict:
    """The table laid out: shared zones; each seat's area with its zones (the viewer's own
    private zones as a hand, sorted by suit); the viewer's area last."""
    zones_def = state.program.ruleset.zones
    shared, seats = [], []
    for z in zones_def:
        if z.per_player:
            continue
        seen = view["zones"][z.name]
        if z.size:
            parts = [dict(_part(faces, p), label=f"{k}") for k, p in seen.items()]
        else:
            parts = [dict(_part(faces, seen), label=None)]
        if all(p["count"] == 0 for p in parts) and z.visibility != "public":
            continue  # an empty face-down pile says nothing
        shared.append({"name": z.name, "title": z.title or human(z.name), "parts": parts})
    to_move = set()
    if not state.finished:
        to_move = set(engine.deciders(state) or ([state.actor] if state.actor is not None else []))
    order = list(range(state.n_players))
    if me is not None:  # the others in turn order after the viewer, the viewer last
        order = order[me + 1:] + order[:me] + [me]
    for k in order:
        name = seat_name(k)
        area = {"name": name, "label": seat_labels[k] if k < len(seat_labels) else "", "me": k == me,
                "to_move": k in to_move, "zones": [], "hand": [], "facts": [], "score": None}
        for z in zones_def:
            if not z.per_player:
                continue
            seen = view["zones"][z.name][name]
            title = z.title or human(z.name)
            private = "cards" in seen and z.visibility != "public"
            if private and (k == me or me is None):
                area["hand"].append({"name": z.name, "title": title, "count": len(seen["cards"]),
                                     "groups": faces.by_suit(seen["cards"], hand_moves if k == me else {})})
            else:
                area["zones"].append({"name": z.name, "title": title, "part": _part(faces, seen, long=6)})
        seats.append(area)
    return {"shared": shared, "seats": seats}


def own_cards(view: dict, me: int, state: State) -> set[str]:
    """The cards in the viewer's own private zones (their hand)."""
    out: set[str] = set()
    for z in state.program.ruleset.zones:
        if z.per_player and z.visibility != "public":
            out.update(view["zones"][z.name][seat_name(me)].get("cards", ()))
    return out


def moves_view(state: State, me: int, own: set[str], faces: Faces) -> tuple[dict, list[dict]]:
    """The viewer's legal moves: the ones that play a card from their hand (made by clicking
    the card), and the rest as buttons grouped by action, labelled as the ruleset labels them."""
    moves = engine.moves_for(state, me) if not state.finished else []
    labels: dict[str, list[str]] = {}
    for alt in getattr(state.choice, "alts", ()) or ():
        if alt.label and alt.label not in labels.setdefault(alt.name, []):
            labels[alt.name].append(alt.label)
    first: dict[str, int] = {}
    for m in moves:
        first.setdefault(m.action, len(first))
    far = (len(faces.order), 0, 0)
    # (stable: a move without a card keeps the rules' order, spot2 before spot10, as at the terminal)
    moves = sorted(moves, key=lambda m: (first[m.action], faces.order.get(m.arg, far) if m.arg else (-1, 0, 0)))
    by_card: dict[str, list[str]] = {}
    groups: dict[str, dict] = {}
    for m in moves:
        label = " or ".join(t.rstrip(".") for t in labels.get(m.action, [])) or human(m.action).capitalize()
        g = groups.setdefault(m.action, {"action": m.action, "label": label, "buttons": [], "cards": 0})
        if m.arg is not None and m.arg in own:
            by_card.setdefault(m.arg, []).append(str(m))
            g["cards"] += 1
        else:
            g["buttons"].append({"move": str(m), "text": m.arg if m.arg is not None else label})
    for g in groups.values():  # one button that says it all needs no heading
        g["heading"] = not (len(g["buttons"]) == 1 and not g["cards"] and g["buttons"][0]["text"] == g["label"])
    return by_card, list(groups.values())


def seat_labels(seats) -> list[str]:
    return [s.label for s in seats]


def _outcome(state: State):
    """The outcome, or the error that stops it being worked out (a score that reads a none at the
    end): the table shows the error rather than failing to draw."""
    try:
        return engine.outcome(state)
    except CardRulesError as e:
        return e


def outcome_view(state: State) -> dict | None:
    o = _outcome(state)
    if isinstance(o, CardRulesError):
        return {"winners": [], "text": f"no result: {o.message}", "scores": []}
    if o is None:
        return None
    return {"winners": [seat_name(w) for w in o.winners], "text": ", ".join(seat_name(w) for w in o.winners) or "nobody",
            "scores": [{"seat": seat_name(i), "score": v, "won": i in o.winners} for i, v in enumerate(o.scores)]}


def scores_view(state: State) -> list[dict] | None:
    if state.program.score is None:
        return None
    try:
        values = engine.scores(state)
    except (CardRulesError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError):
        return None  # a score that cannot be worked out mid-game is left out
    return [{"seat": seat_name(i), "score": v} for i, v in enumerate(values)]


def vars_view(view: dict) -> tuple[list[dict], dict[str, list[dict]]]:
    """The public variables: those of the game, and those kept per player (by seat name), each
    as {"name", "text"}; a variable with no value yet is left out."""
    game: list[dict] = []
    per_seat: dict[str, list[dict]] = {}
    for name, value in view["vars"].items():
        if isinstance(value, dict):
            for seat, v in value.items():
                if v is not None:
                    per_seat.setdefault(seat, []).append({"name": human(name), "text": _value(v)})
        elif value is not None and value != []:
            game.append({"name": human(name), "text": _value(value)})
    for seat, until in view.get("out_of_play", {}).items():  # dropped from the round or the game
        per_seat.setdefault(seat, []).append({"name": "out of play",
                                              "text": "this round" if until == "round" else "for the game"})
    return game, per_seat


def _value(v) -> str:
    if isinstance(v, list):
        return " ".join(map(str, v)) or "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "none" if v is None else str(v)


def turn_text(state: State, me: int | None, persons: set[int] | None) -> str:
    if state.finished:
        return "The game is over."
    ds = engine.deciders(state) or ([state.actor] if state.actor is not None else [])
    if me is not None and me in ds:
        return "Your turn." if len(ds) == 1 else "Your choice (others are choosing too)."
    names = ", ".join(seat_name(d) + ("" if persons is None or d in persons else " (bot)") for d in ds)
    return f"{names} to move." if len(ds) == 1 else f"{names} to choose."


def seat_context(table, seat: int | None, state: State | None = None, notes: list | None = None,
                 faces: Faces | None = None, anchors: dict | None = None, interactive: bool = True) -> dict:
    """Everything a seat's page shows (seat None: the referee of a replay), from its
    observation and the public facts of the game. `table` gives the seats' labels; a replay
    (`interactive` false) offers no moves."""
    state = state if state is not None else table.state
    notes = notes if notes is not None else table.notes
    faces = faces or Faces(state.program)
    view = engine.observe(state, seat) if seat is not None else referee_observation(state)
    own = own_cards(view, seat, state) if seat is not None else set()
    by_card, groups = moves_view(state, seat, own, faces) if seat is not None and interactive else ({}, [])
    labels = seat_labels(table.seats) if table is not None else [""] * state.n_players
    persons = {i for i, s in enumerate(table.seats) if s.kind == "person"} if table is not None else None
    rule = engine.rule_at(state)[0] if not state.finished and state.choice is not None else None
    game_vars, seat_vars = vars_view(view)
    scores = scores_view(state)
    laid = board(state, view, seat, faces, by_card, labels)
    for area in laid["seats"]:
        area["facts"] = seat_vars.get(area["name"], [])
        if scores and not state.finished:
            area["score"] = next(s["score"] for s in scores if s["seat"] == area["name"])
    return {
        "seat": seat_name(seat) if seat is not None else None,
        "version": len(state.history),
        "finished": state.finished,
        "turn": turn_text(state, seat, persons),
        "my_turn": bool(groups),
        "rule_title": view.get("rule") if seat is not None else (engine.rule_at(state)[1] if rule else None),
        "rule_anchor": (anchors or {}).get(rule, "") if rule else "",
        "board": laid,
        "groups": groups,
        "vars": game_vars,
        "scores": scores,
        "outcome": outcome_view(state),
        "log": log_entries(state, notes, seat),
    }


def api_view(table, seat: int) -> dict:
    """The JSON answer for one seat: its observation, its legal moves and the log as it may
    read it."""
    s = table.state
    o = _outcome(s)
    failed = o if isinstance(o, CardRulesError) else None
    if failed is not None:
        o = None
    return {
        "table": table.id,
        "seat": seat_name(seat),
        "version": len(s.history),
        "game": table.title,
        "observation": engine.observe(s, seat),
        "moves": [str(m) for m in engine.moves_for(s, seat)] if not s.finished else [],
        "log": [e["text"] for e in log_entries(s, table.notes, seat)],
        "outcome": ({"winners": [], "scores": {}, "error": failed.message} if failed is not None else
                    None if o is None else {"winners": [seat_name(w) for w in o.winners],
                                            "scores": {seat_name(i): v for i, v in enumerate(o.scores)}}),
        "error": table.error_for(seat),
    }

"""Legal moves: the moves a decision offers, as Move objects made once per action, seat, table
size and value and reused by every later game, so working out a decision's moves is mostly a
list of look-ups. On the fast path each choice gets one generated function that does that for
all its actions; the general one here makes the moves not seen before and is the plain
evaluator's (and the oracle's) only one."""

from __future__ import annotations

from .state import Move, seat_name


def link(p) -> None:
    """Lay out a program's tables of moves (players -> seat -> {value: Move}) and give each
    choice its function of legal moves: once per program, the first time the engine plays it."""
    if p.linked:
        return
    rs = p.ruleset
    for choice in p.choices:
        for alt in choice.alts:
            alt.moves = [None] * (rs.players_max + 1)
            for n in range(rs.players_min, rs.players_max + 1):
                alt.moves[n] = [{} for _ in range(n)]
        choice.legal = _generated(p, choice) if p.fast else None
        if choice.legal is None:
            choice.legal = _general(choice)
        elif choice.any:
            choice.legal = _with_pass(choice.legal, choice.alts[-1])
    p.linked = True


def _with_pass(legal, decline):
    """A `choose by any`: a player with a move may also pass (the last action of the choice)."""
    def with_pass(s, actor):
        out = legal(s, actor)
        if not out or out[-1]._offer[0] is decline:  # none, or the general way's (which offers it)
            return out
        return [*out, _pass_move(s, decline, actor)]
    with_pass.text = getattr(legal, "text", None)
    return with_pass


def _pass_move(s, decline, actor):
    made = decline.moves[s.n_players][actor]
    m = made.get(None)
    if m is None:
        m = made[None] = _made(actor, decline, None, None)
    return m


def _general(choice):
    def legal(s, actor):
        return compute_legal_for(s, choice, actor)
    return legal


def _generated(p, choice):
    """`legal(state, actor)` for one choice as generated code: each action's test and values
    written out, each value looked up among the moves made before. A value never offered before
    (a KeyError) and anything unusual go the general way, which makes the move."""
    alts = [alt for alt in choice.alts if not alt.decline]
    if any((alt.when is not None and alt.when_src is None) or (alt.values is not None and alt.values_src is None)
           for alt in alts):
        return None
    ns = p.namespace
    key = f"_legal_{id(choice)}"
    names = [alt.name for alt in alts]
    shared = sorted({n for n in names if names.count(n) > 1})  # actions of one name may offer one move twice
    lines = ["def legal(st, actor):", "    try:", "        _n = st.n_players", "        _out = []"]
    lines += [f"        _h{j} = 0" for j in range(len(shared))]
    for i, alt in enumerate(alts):
        ns[f"{key}_m{i}"] = alt.moves
        pad = "        "
        if alt.when_src is not None:
            lines.append(f"{pad}if {alt.when_src}:")
            pad += "    "
        h = f"_h{shared.index(alt.name)}" if alt.name in shared else None
        if alt.values is None:
            lines.append(f"{pad}_out.append({key}_m{i}[_n][actor][None])")
            if h:
                lines.append(f"{pad}{h} += 1")
        else:
            lines.append(f"{pad}_made = {key}_m{i}[_n][actor]")
            lines.append(f"{pad}_vals = {alt.values_src}")
            if h:
                lines.append(f"{pad}_x = [_made[_v] for _v in _vals]")
                lines.append(f"{pad}if _x:")
                lines.append(f"{pad}    _out += _x")
                lines.append(f"{pad}    {h} += 1")
            else:
                lines.append(f"{pad}_out += [_made[_v] for _v in _vals]")
    if len(alts) == 1 and lines[-1].startswith("        _out += "):  # one action, always asked: its list
        lines[-1] = "        return " + lines[-1][len("        _out += "):]
        lines.remove("        _out = []")
    if shared:  # two of them offered moves: keep the first of each, as the general way does
        lines.append(f"        if {' or '.join(f'_h{j} > 1' for j in range(len(shared)))}:")
        lines.append(f"            return {key}_unique(_out)")
    if not lines[-1].startswith("        return "):
        lines.append("        return _out")
    lines += ["    except KeyError:", f"        return {key}_general(st, {key}_choice, actor)"]
    ns[f"{key}_unique"] = unique
    ns[f"{key}_general"] = compute_legal_for
    ns[f"{key}_choice"] = choice
    local: dict = {}
    exec(compile("\n".join(lines) + "\n", f"<legal moves of the choice in rule {choice.rule}>", "exec"), ns, local)
    fn = local["legal"]
    fn.text = "\n".join(lines)
    return fn


def compute_legal(s, choice, deciders=None) -> list:
    """The moves at a decision, afresh; at a `choose by each`, every decider's."""
    link(s.program)  # a tool may have given the state another program
    if deciders is not None:
        out = []
        for player in deciders:
            s.slots[choice.each_slot] = player
            out.extend(compute_legal_for(s, choice, player))
        return out
    return compute_legal_for(s, choice, s.actor)


def compute_legal_for(s, choice, actor) -> list:
    out = []
    append = out.append
    n = s.n_players
    for alt in choice.alts:
        if alt.decline:  # the last action of a `choose by any`: offered to a player with another move
            if out:
                append(_pass_move(s, alt, actor))
            break
        if alt.when is not None and not alt.when(s):
            continue
        made = alt.moves[n][actor]
        if alt.values is None:
            m = made.get(None)
            if m is None:
                m = made[None] = _made(actor, alt, None, None)
            append(m)
            continue
        values = alt.values(s)
        if values.__class__ is not list:
            values = list(values)  # read twice when a move is new
        try:  # every move already made once: one comprehension, no test per value
            out += [made[v] for v in values]
        except KeyError:
            get = made.get
            for v in values:
                m = get(v)
                if m is None:
                    if alt.more:  # several parameters: their texts, one after another
                        text = " ".join(value_text(s, el, x) for el, x in zip([alt.elem] + [m[1] for m in alt.more], v))
                    else:
                        text = value_text(s, alt.elem, v)
                    m = made[v] = _made(actor, alt, text, v)
                append(m)
    if choice.shared_names:  # two actions of one name may offer the same move: keep the first
        out = unique(out)
    return out


def unique(moves: list) -> list:
    """The moves without repeats (the same action and argument), each where it first comes."""
    seen = set()
    out = []
    for m in moves:
        key = (m.action, m.arg)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def _made(actor: int, alt, text: str | None, v):
    """A Move the engine offers, carrying the action and value it stands for (`_offer`, no part
    of its value: it compares, hashes, prints and pickles as the bare move)."""
    m = Move(actor, alt.name, text)
    object.__setattr__(m, "_offer", (alt, v))
    return m


def legal_each(s, choice, deciders, pc: int) -> list:
    """Everyone's moves at a `choose by each`, where each player's moves are worked out again
    only when the cards or a slot they read changed since (after one player chose, the others'
    usually stand)."""
    reads = choice.reads
    if reads is None:
        return compute_legal(s, choice, deciders)
    slots = s.slots
    inputs = (s.zver, *[tuple(v) if v.__class__ is list else v for v in map(slots.__getitem__, reads)])
    cache = s.legal_cache
    out = []
    legal = choice.legal
    for player in deciders:
        hit = cache.get((pc, player))
        if hit is not None and hit[0] == inputs:
            out.extend(hit[1])
            continue
        slots[choice.each_slot] = player
        mine = legal(s, player)
        cache[(pc, player)] = (inputs, mine)
        out.extend(mine)
    slots[choice.each_slot] = deciders[-1]  # as working them all out afresh leaves it
    return out


def offered(s) -> list[tuple]:
    """The legal moves now, each with the action that offers it and its value(s):
    [(Move, Alt, value), ...], for tools that look inside (the fuzzer)."""
    return [(m, *m._offer) for m in s._legal]


def arg_text(p, elem: str | None, v) -> str | None:
    if elem is None:
        return None
    if v is None:
        return "none"
    if elem == "card":
        return p.card_names[v]
    if elem == "cards":  # a chosen set of cards (`S subset of ...`): its cards in the deck's order
        return " ".join(p.card_names[c] for c in v)
    if elem == "player":
        return seat_name(v)
    if elem == "suit":
        return p.ruleset.deck.suits[v]
    if elem == "rank":
        return p.ruleset.deck.ranks[v]
    return str(v)


def value_text(s, elem: str, v) -> str:
    return s.zone_names[v] if elem == "zone" else arg_text(s.program, elem, v)

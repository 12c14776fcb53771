"""Functions the generated code calls while a game is played (zone families, chance, the
meld search). They take the State and plain values only."""

from __future__ import annotations

from itertools import combinations

from ..language import sizes


class ImpossibleEffect(IndexError):
    """An effect the rules ask for that cannot be done (a deal of fewer than no cards, a range
    longer than the language allows): the engine names the statement (play._located_failure),
    as for any failure of generated code."""


_I64 = (1 << 63) - 1


def _mul(a: int, b: int) -> int:
    """a * b, which the native engine works out in 64 bits: a product beyond them stops the game
    on both (C: cr_mul), as a sum or a difference does (_add, _sub)."""
    r = a * b
    if -_I64 <= r <= _I64:
        return r
    raise ImpossibleEffect(sizes.overflow_message())


def _add(a: int, b: int) -> int:
    """a + b, checked as C checks it (cr_add): a sum that leaves 64 bits stops the game on both."""
    r = a + b
    if -_I64 <= r <= _I64:
        return r
    raise ImpossibleEffect(sizes.overflow_message())


def _sub(a: int, b: int) -> int:
    r = a - b
    if -_I64 <= r <= _I64:
        return r
    raise ImpossibleEffect(sizes.overflow_message())


EMPTY_MESSAGE = "a max or min over nothing (no element passed: say what it is then, with if any ... then ... else)"


def _extreme(values, pick) -> int:
    """`max x in D: V` (pick: max) or `min ...`: over no element, an error (C fails the same way,
    CR_E_EMPTY)."""
    out = pick(values, default=None)
    if out is None:
        raise ImpossibleEffect(EMPTY_MESSAGE)
    return out


def _maxof(values) -> int:
    return _extreme(values, max)


def _minof(values) -> int:
    return _extreme(values, min)


def _fit(r: int) -> int:
    """A `sum` aggregate's total, checked as C checks its running total (cr_add at each card; the
    total alone here: partial sums that leave 64 bits and come back need values past 2**62)."""
    if -_I64 <= r <= _I64:
        return r
    raise ImpossibleEffect(sizes.overflow_message())


def _pow(a: int, b: int) -> int:
    """a ^ b in whole numbers, stopping where the native engine stops (C: cr_pow): a negative
    exponent, or a power beyond 64 bits. Worked out step by step as in C, so that a huge exponent
    of 2 costs nothing before it overflows."""
    if a is None or b is None:
        raise TypeError("'NoneType' in a power")
    if b < 0:
        raise ImpossibleEffect(sizes.negative_power_message())
    if a in (0, 1) or b == 0:
        return 1 if b == 0 else a
    if a == -1:
        return -1 if b % 2 else 1
    r = 1
    for _ in range(b):  # |a| >= 2: past 63 steps it has left 64 bits
        r *= a
        if not -_I64 <= r <= _I64:
            raise ImpossibleEffect(sizes.overflow_message())
    return r


def _range(a: int, b: int) -> tuple:
    """The numbers a..b; a range longer than the language's limit stops the game, as in C
    (native/runtime/unit/helpers.c: cr_range)."""
    if b - a >= sizes.MAX_RANGE:
        raise ImpossibleEffect(sizes.range_message())
    return tuple(range(a, b + 1))

def _kind_cards(st, zi: int) -> list:
    base = st.zbase[zi]
    out = []
    for k in range(st.zcount[zi]):
        out.extend(st.zones[base + k])
    return out


def _kind_tops(st, zi: int) -> list:
    """The top card of each zone of a kind, in the zones' order (empty zones have none)."""
    base = st.zbase[zi]
    zones = st.zones
    return [z[-1] for z in zones[base:base + st.zcount[zi]] if z]


def _zone_at(st, zi: int, i: int) -> int:
    if not 1 <= i <= st.zcount[zi]:
        raise IndexError(f"there is no zone number {i}; they are numbered 1 to {st.zcount[zi]}")
    return st.zbase[zi] + i - 1


def _zindex(st, z: int) -> int:
    """A zone's number in its family (1-based), or its owner's seat number for a player's zone."""
    return z - st.zbase[st.zkind[z]] + 1


def _depth(st, c: int) -> int:
    """How many cards lie on the card in its zone (0 for the top card)."""
    pile = st.zones[st.card_zone[c]]
    return len(pile) - 1 - pile.index(c)


def _beneath(st, c: int):
    """The card the card lies on in its zone (the one just below it), or None at the bottom."""
    pile = st.zones[st.card_zone[c]]
    k = pile.index(c)
    return pile[k - 1] if k else None


def _zones_of(st, zi: int) -> tuple:
    return tuple(range(st.zbase[zi], st.zbase[zi] + st.zcount[zi]))


def _top_n(xs, k: int) -> list:
    return list(xs[max(0, len(xs) - k):]) if k > 0 else []  # fewer than k: all of them


def _bottom_n(xs, k: int) -> list:
    return list(xs[:k]) if k > 0 else []


def _split(st, cards, specs, score, site=0, faces=False):
    """Partition `cards` exactly into groups: specs are (count, predicate, sizes or None).
    Returns True/False, or with a score function the best total (-1 when impossible).
    Depth-first on the lowest remaining card, memoised on what remains; the answer is kept in
    the state's memo until the state changes (several players may ask about the same hand)."""
    prog = st.program
    given = ()
    if len(specs[0]) > 3:  # tests given values after the group (`adds_to(v)`): every spec has its own
        given = tuple(spec[3] for spec in specs)
        specs = tuple((spec[0], _given(spec[1], spec[3]) if spec[3] else spec[1], spec[2]) for spec in specs)
    try:
        plan = prog.split_memo.get((site, *[sz for _, _, sz in specs], *given))  # the sizes may be the game's choice
    except TypeError:  # sizes in a list
        specs = tuple((c, pred, sz if sz is None else tuple(sz)) for c, pred, sz in specs)
        plan = prog.split_memo.get((site, *[sz for _, _, sz in specs], *given))
    if plan is None:
        plan = _split_plan(prog, specs, score, site, faces, given)
    counts = tuple([c for c, _, _ in specs])
    n = len(cards)
    lo = hi = 0  # how many cards the groups can hold: a hand of another size needs no search
    for c, (least, most) in zip(counts, plan[4]):
        if c:
            if c < 0:
                return -1 if score else False
            lo += c * least
            hi += c * (n if most is None else most)  # no sizes: any size
    if not lo <= n <= hi:
        return -1 if score else False
    # any copy stands for the others when faces: one representative card per face
    cards = tuple(sorted(map(prog.face_of.__getitem__, cards) if faces else cards))
    key = ("split", site, cards, counts, *given)
    cache = st.memo if site > 0 else prog.split_cache  # site < 0: judged by the cards alone
    known = cache.get(key)
    if known is not None:
        return known
    try:
        result = _split_search(st, cards, counts, score, *plan[:4])
    except Exception:
        # a group test failed: search again from scratch testing groups one at a time in the
        # plain order, so the game fails where it did before the masks (or not at all)
        result = _split_search(st, cards, counts, score, plan[0], plan[1], {}, None)
    if site < 0 and len(cache) > 200_000:
        cache.clear()
    cache[key] = result
    return result


def _given(pred, values):
    """A group test given its further values: asked of a group alone."""
    return lambda st, group: pred(st, group, *values)


def _split_plan(prog, specs, score, site, faces, given=()):
    """What a split site needs beside its cards: the group tests and sizes, the memo of partial
    results (over faces: kept, and shared by every site with the same groups and score, as a
    hand and the same hand with one more card) and, for tests judged by the cards alone, the
    tables of verdicts kept for good (one per test, whichever site asks)."""
    preds = tuple(pred for _, pred, _ in specs)
    sizes = tuple(tuple(sz) if sz is not None else None for _, _, sz in specs)
    memo = None
    if faces:
        where = (preds, sizes, score)
        memo = prog.split_memo.get(where)
        if memo is None:
            memo = prog.split_memo[where] = {}
    tables = None
    if site < 0:
        tables = []
        for pred in preds:
            table = prog.split_memo.get(("groups", pred))
            if table is None:
                table = prog.split_memo[("groups", pred)] = {}
            tables.append(table)
    bounds = tuple((1, None) if sz is None else (min(sz), max(sz)) if sz else (0, 0) for sz in sizes)
    plan = (preds, sizes, memo, tables, bounds)
    prog.split_memo[(site, *[sz for _, _, sz in specs], *given)] = plan
    return plan


def _split_search(st, cards, counts, score, preds, sizes, memo, tables):
    """The search itself, for cards (sorted) that the groups can hold."""
    n = len(cards)
    if memo is None:
        memo = {}
    elif len(memo) > 500_000:
        memo.clear()
    get = memo.get
    masked = tables is not None
    if masked:
        for table in tables:
            if len(table) > 200_000:
                table.clear()
    every = [range(1, n + 1) if sz is None else sz for sz in sizes]  # no sizes: any size

    def search(rem, counts):
        if not rem:
            return 0 if not any(counts) else None
        key = (rem, counts)
        known = get(key, _MISS)
        if known is not _MISS:
            return known
        first, rest = rem[0], rem[1:]
        if masked:  # the cards after the first as a bit mask, and those there twice or more
            mask = twice = 0
            for c in rest:
                bit = 1 << c
                twice |= mask & bit
                mask |= bit
        best = None
        for gi, count in enumerate(counts):
            if not count:
                continue
            for size in every[gi]:
                if size - 1 > len(rest) or size < 1:  # a group holds its first card: none of size 0
                    continue
                if not masked:
                    groups = _groups_by_combinations(st, preds[gi], first, rest, size)
                elif size == 3:
                    groups = _triples(st, preds[gi], tables[gi], first, mask, twice)
                else:
                    groups = _groups_by_masks(st, preds[gi], tables[gi], first, rest, size, mask)
                for group in groups:
                    left = list(rest)
                    for x in group[1:]:
                        left.remove(x)
                    sub = search(tuple(left), counts[:gi] + (count - 1,) + counts[gi + 1:])
                    if sub is None:
                        continue
                    if score is None:
                        memo[key] = 0
                        return 0
                    total = sub + score(st, group)
                    if best is None or total > best:
                        best = total
        memo[key] = best
        return best
    found = search(cards, counts)
    if score is None:
        return found is not None
    return -1 if found is None else found


_MISS = object()


def _groups_by_combinations(st, pred, first, rest, size):
    """The groups of `size` made of `first` and cards of `rest` (sorted) that pass `pred`,
    each once, tested one at a time."""
    out = []
    distinct = len(set(rest)) == len(rest)  # no two equal cards: no combination comes twice
    seen = set()
    for combo in combinations(rest, size - 1):  # rest is sorted: equal combos look equal
        if not distinct:
            if combo in seen:
                continue
            seen.add(combo)
        group = (first, *combo)
        if pred(st, group):
            out.append(group)
    return out


def _groups_by_masks(st, pred, table, first, rest, size, mask):
    """The same groups, for a test judged by the cards alone, from verdicts kept in `table` as
    bit masks over card numbers (`mask`: the cards of rest). For each start (all but the last
    card) the table keeps the last cards tried after it and those that passed, so a hand costs
    a few integer operations per start and only combinations never seen are tested. Groups of
    three have their own way (_triples)."""
    if size == 1:
        starts = (((), 1 << first),)
    elif size == 2:
        starts = (((first,), mask),)
    else:
        starts = []
        seen = set()
        for combo in combinations(rest, size - 2):
            if combo in seen:
                continue
            seen.add(combo)
            c = combo[-1]
            after = mask >> c << c  # the last card comes after the start's...
            if rest.count(c) <= combo.count(c):
                after ^= 1 << c  # ...and is not the same card unless rest has another
            starts.append(((first, *combo), after))
    out = []
    for start, cand in starts:
        if not cand:
            continue
        entry = table.get(start)
        if entry is None:
            entry = table[start] = [0, 0]
        new = cand & ~entry[0]
        if new:  # last cards never tried after this start: test them now
            passed = entry[1]
            while new:
                low = new & -new
                new ^= low
                if pred(st, (*start, low.bit_length() - 1)):
                    passed |= low
            entry[0] |= cand
            entry[1] = passed
        hits = cand & entry[1]
        while hits:
            low = hits & -hits
            hits ^= low
            out.append((*start, low.bit_length() - 1))
    return out


def _triples(st, pred, table, first, mask, twice):
    """Groups of three (first, x, y), x <= y, from cards in `mask` (`twice`: those there twice).
    The table keeps for `first` the cards seen after it, the cards x that begin a passing
    group, and for each x the cards y that end one; a card new to it is tested with every
    card seen so far."""
    entry = table.get(first)
    if entry is None:
        entry = table[first] = [0, 0, {}]
    seen, starts, ends = entry
    new = mask & ~seen
    if new:
        every = seen | new
        xs = every
        while xs:
            low = xs & -xs
            xs ^= low
            x = low.bit_length() - 1
            ys = every >> x << x
            if not low & new:
                ys &= new  # (first, x, y) with x and y seen before was tested then
            passed = ends.get(x, 0)
            while ys:
                high = ys & -ys
                ys ^= high
                if pred(st, (first, x, high.bit_length() - 1)):
                    passed |= high
            if passed:
                ends[x] = passed
                starts |= low
        entry[0] = every
        entry[1] = starts
    out = []
    xs = starts & mask
    while xs:
        low = xs & -xs
        xs ^= low
        x = low.bit_length() - 1
        ys = ends[x] & mask >> x << x
        if not twice & low:
            ys &= ~low
        while ys:
            high = ys & -ys
            ys ^= high
            out.append((first, x, high.bit_length() - 1))
    return out


def _subsets(st, cards, test, weight, target, low, high, site):
    """An action's legal sets of cards (ops.Subsets): each set a tuple of card ids in the deck's
    order, listed by their masks over the distinct cards of `cards` (bit i: the i-th), lowest first."""
    from .program import MAX_SET_CARDS, MAX_SETS, MAX_TRIED
    d = list(dict.fromkeys(cards))
    n = len(d)
    if n > MAX_SET_CARDS:
        raise set_bound_error(st.program, site, "cards")
    w = None if weight is None else [weight(c) for c in d]
    masks = _set_masks(n, w, target, low, high, MAX_TRIED)
    if masks is None:
        raise set_bound_error(st.program, site, "tried")
    out = []
    at = {1 << i: c for i, c in enumerate(d)}
    for m in masks:
        picked = []
        while m:  # the set bits only: a set is usually a few cards of many
            low = m & -m
            picked.append(at[low])
            m ^= low
        picked.sort()
        s = tuple(picked)
        if test is None or test(s):
            if len(out) == MAX_SETS:
                raise set_bound_error(st.program, site, "sets")
            out.append(s)
    return out


def _set_masks(n: int, w, target, low, high, limit: int):
    """The masks over n cards (bit i: the i-th) of the sets worth trying, lowest first: of at
    least `low` (and one) and at most `high` cards, and with weights w adding up to target when w
    is given. Deciding the highest bit first, leaving a card out before taking it, lists them in
    order, and a branch that can no longer satisfy them is cut (the sum only where the weights
    share one sign; with mixed signs every mask is added up). None: more than `limit` of them."""
    lo = 1 if low is None else max(1, low)
    hi = n if high is None else min(high, n)
    out: list = []
    if lo > hi:
        return out
    if w is not None and not (all(x >= 0 for x in w) or all(x <= 0 for x in w)):
        sums = [0] * (1 << n)
        for m in range(1, 1 << n):
            low_bit = m & -m
            sums[m] = sums[m ^ low_bit] + w[low_bit.bit_length() - 1]
            if sums[m] == target and lo <= m.bit_count() <= hi:
                out.append(m)
                if len(out) > limit:
                    return None
        return out
    if w is not None and any(x < 0 for x in w):
        w, target = [-x for x in w], -target
    below = [0] * (n + 1)  # below[i]: the sum of w[0..i-1]
    if w is not None:
        for i in range(n):
            below[i + 1] = below[i] + w[i]

    def walk(i, m, total, k):
        if k > hi or k + i + 1 < lo:
            return True
        if w is not None and (total > target or total + below[i + 1] < target):
            return True
        if i < 0:
            out.append(m)
            return len(out) <= limit
        return walk(i - 1, m, total, k) and walk(i - 1, m | 1 << i, total + (w[i] if w is not None else 0), k + 1)
    return out if walk(n - 1, 0, 0, 0) else None


def set_bound_error(p, site: int, bound: str):
    """The error of a set of cards past one of its bounds (the same words on both engines):
    'cards' (MAX_SET_CARDS), 'tried' (MAX_TRIED) or 'sets' (MAX_SETS)."""
    from .program import MAX_SET_CARDS, MAX_SETS, MAX_TRIED
    var = p.set_sites[site][1].var
    why = {"cards": (f"the set is chosen among more than {MAX_SET_CARDS} cards here: where a zone can hold more, "
                     "let the player pick the cards one at a time, a decision each, and end with an action that stops"),
           "tried": (f"more than {MAX_TRIED} sets of cards to try here: a condition `(sum x in {var}: VALUE) == TOTAL` "
                     f"or `count({var}) <= N` cuts the search" + later_hint(p, site)),
           "sets": (f"the rules allow more than {MAX_SETS:,} sets of cards here, the most one decision may offer: "
                    f"narrow them with where (count({var}) <= N), or let the player pick the cards one at a time, "
                    "a decision each, and end with an action that stops") + later_hint(p, site)}[bound]
    return set_error(p, site, why)


def later_hint(p, site: int) -> str:
    """Why a set may be tried without its condition: a part of `where` naming a later parameter
    is asked only once the set is chosen."""
    action, param = p.set_sites[site]
    names = [v for v, _, _ in action.params()]
    if names[-1] == param.var:
        return ""
    return (f" (a condition naming {', '.join(names[names.index(param.var) + 1:])} is asked only after every set "
            f"is listed: put {param.var} last)")


def set_error(p, site: int, why: str):
    from .program import _runtime
    from ..language.unparse import action_param_text
    action, param = p.set_sites[site]
    return _runtime(f"action {action.name}: {action_param_text(param)}: {why}", param)


def _random(st, xs):
    """One element by the game's seeded chance (none from an empty collection)."""
    xs = list(xs)
    return st.chance().choice(xs) if xs else None


def _shuffled(st, xs) -> list:
    """The collection in an order drawn by the game's seeded chance (random.shuffle's draws, as
    the native engine's cr_shuffled makes them)."""
    xs = list(xs)
    st.chance().shuffle(xs)
    return xs


def _seat(st, k: int) -> int:
    if not 1 <= k <= st.n_players:
        raise IndexError(f"there is no seat {k} with {st.n_players} players")
    return k - 1


def _seats_after(st, who: int) -> list:
    n = st.n_players
    return [(who + i) % n for i in range(1, n + 1)]  # (none: a TypeError, the engine's "none here")


def _seats_before(st, who: int) -> list:
    n = st.n_players
    return [(who - i) % n for i in range(1, n + 1)]


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None




def _pin(st):
    """A test the probe program logs begins (see Expressions.probed): the fuzzer's option list hears of it."""
    st.opts.pin()


def _probe(st, k, _pinned, value):
    st.opts.tested(k, value)
    return value


NAMESPACE = {"_pin": _pin, "_probe": _probe, "_kind_cards": _kind_cards, "_kind_tops": _kind_tops, "_first": _first, "_last": _last, "_seat": _seat, "_range": _range, "_mul": _mul, "_add": _add, "_sub": _sub, "_fit": _fit, "_maxof": _maxof, "_minof": _minof, "_pow": _pow, "_zone_at": _zone_at,
             "_zindex": _zindex, "_depth": _depth, "_beneath": _beneath, "_zones_of": _zones_of, "_top_n": _top_n, "_bottom_n": _bottom_n,
             "_random": _random, "_shuffled": _shuffled, "_split": _split, "_seats_after": _seats_after, "_seats_before": _seats_before, "_subsets": _subsets}

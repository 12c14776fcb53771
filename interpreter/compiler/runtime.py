"""Functions the generated code calls while a game is played (zone families, chance, the
meld search). They take the State and plain values only."""

from __future__ import annotations

from itertools import combinations

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


def _zones_of(st, zi: int) -> tuple:
    return tuple(range(st.zbase[zi], st.zbase[zi] + st.zcount[zi]))


def _top_n(xs, k: int) -> list:
    return list(xs[len(xs) - k:]) if k > 0 else []


def _bottom_n(xs, k: int) -> list:
    return list(xs[:k]) if k > 0 else []


def _split(st, cards, specs, score, site=0, faces=False):
    """Partition `cards` exactly into groups: specs are (count, predicate, sizes or None).
    Returns True/False, or with a score function the best total (-1 when impossible).
    Depth-first on the lowest remaining card, memoised on what remains; the answer is kept in
    the state's memo until the state changes (several players may ask about the same hand)."""
    prog = st.program
    if faces:  # any copy stands for the others: one representative card per face
        face = prog.face_of
        cards = tuple(sorted([face[c] for c in cards]))
    else:
        cards = tuple(sorted(cards))
    counts = tuple(max(0, c) for c, _, _ in specs)
    key = ("split", site, cards, counts)
    cache = st.memo if site > 0 else st.program.split_cache  # site < 0: judged by the cards alone
    known = cache.get(key)
    if known is not None:
        return known
    if faces:
        where = (site, tuple(sz for _, _, sz in specs))  # the sizes may be chosen by the game
        memo = prog.split_memo.get(where)
        if memo is None or len(memo) > 500_000:
            memo = prog.split_memo[where] = {}
    else:
        memo = {}
    # groups judged by the cards alone (site < 0): each group's verdict is kept for good
    verdicts = None
    if site < 0:
        verdicts = prog.split_memo.get(("groups", site))
        if verdicts is None or len(verdicts) > 500_000:
            verdicts = prog.split_memo[("groups", site)] = {}
    result = _split_search(st, cards, specs, score, counts, memo, verdicts)
    if site < 0 and len(cache) > 200_000:
        cache.clear()
    cache[key] = result
    return result


def _split_search(st, cards, specs, score, counts, memo, verdicts=None):
    if any(c < 0 for c, _, _ in specs):
        return -1 if score else False
    n = len(cards)
    sizes = [tuple(sz) if sz is not None else tuple(range(1, n + 1)) for _, _, sz in specs]
    lo = sum(c * min(sz) for c, sz in zip(counts, sizes) if sz)
    hi = sum(c * max(sz) for c, sz in zip(counts, sizes) if sz)
    if not lo <= n <= hi:
        return -1 if score else False

    def search(rem, counts):
        if not rem:
            return 0 if not any(counts) else None
        key = (rem, counts)
        if key in memo:
            return memo[key]
        first, rest = rem[0], rem[1:]
        best = None
        distinct = len(set(rest)) == len(rest)  # no two equal cards: no combination comes twice
        for gi, (count, pred, _) in enumerate(specs):
            if not counts[gi]:
                continue
            known = verdicts.setdefault(gi, {}) if verdicts is not None else None
            for size in sizes[gi]:
                if size - 1 > len(rest):
                    continue
                seen = set()
                for combo in combinations(rest, size - 1):  # rest is sorted: equal combos look equal
                    if not distinct:
                        if combo in seen:
                            continue
                        seen.add(combo)
                    group = (first, *combo)
                    if known is None:
                        ok = pred(st, group)
                    else:
                        ok = known.get(group)
                        if ok is None:
                            ok = known[group] = bool(pred(st, group))
                    if not ok:
                        continue
                    left = list(rest)
                    for x in combo:
                        left.remove(x)
                    left = tuple(left)
                    sub = search(left, counts[:gi] + (counts[gi] - 1,) + counts[gi + 1:])
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


def _random(st, xs):
    """One element by the game's seeded chance (none from an empty collection)."""
    xs = list(xs)
    return st.chance().choice(xs) if xs else None


def _seat(st, k: int) -> int:
    if not 1 <= k <= st.n_players:
        raise IndexError(f"there is no seat {k} with {st.n_players} players")
    return k - 1


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None




NAMESPACE = {"_kind_cards": _kind_cards, "_kind_tops": _kind_tops, "_first": _first, "_last": _last, "_seat": _seat, "_zone_at": _zone_at,
             "_zindex": _zindex, "_depth": _depth, "_zones_of": _zones_of, "_top_n": _top_n, "_bottom_n": _bottom_n,
             "_random": _random, "_split": _split}

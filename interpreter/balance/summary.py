"""From the facts of many games to the answers of a balance report (plain data, ready for
JSON): fairness between seats, the first player's chances, scores and margins, length,
rules used, skill and lead changes; and two reports side by side."""

from __future__ import annotations

from ..engine import program_of, seat_name
from ..language import graph as g
from .games import AT_ONCE, Config, GameFacts
from .stats import diff_means, diff_proportions, equal_shares, summary, wilson

ALPHA = 0.05


def _wins(facts: list[GameFacts], players: int) -> list[float]:
    """Wins per seat; a win shared by k players counts 1/k for each."""
    wins = [0.0] * players
    for f in facts:
        for w in f.winners:
            wins[w] += 1 / len(f.winners)
    return wins


def declares_losers(rs) -> bool:
    """Whether the rules name a loser outright (`declare loser`: Durak's fool), so that a seat's
    share of the losses says more than its share of wins shared by everyone else."""
    return any(isinstance(x, g.DeclareWinner) and x.loser for x in g.nodes_below(rs))


def loss_text(r: dict) -> str:
    """The summary line's part for the losses ('' where the report has none)."""
    if not r.get("loss_rate"):
        return ""
    return "; lost (the rules name the loser): " + ", ".join(f"{s} {w['rate'] * 100:.1f}%" for s, w in r["loss_rate"].items())


def _losses(facts: list[GameFacts], players: int) -> list[int]:
    """Games each seat lost: one that ended with winners, the seat not among them."""
    lost = [0] * players
    for f in facts:
        if f.winners:
            for i in range(players):
                if i not in f.winners:
                    lost[i] += 1
    return lost


def _teams(facts: list[GameFacts]) -> tuple | None:
    """The sides, when every game ended with the same ones and some side has two players or more
    (partners: Bridge, Belote): the fairness questions are then asked of the sides, whose players
    win together. None where each plays alone, or the sides change from game to game (a declarer against
    the rest, Doppelkopf's secret partners), where each seat is asked as before."""
    teams = {f.sides for f in facts}
    if len(teams) != 1:
        return None
    (t,) = teams
    return t if t and len(t) > 1 and any(len(side) > 1 for side in t) else None


def _side_wins(facts: list[GameFacts], teams: tuple) -> list[float]:
    """Wins per side; a game won by k sides counts 1/k for each."""
    wins = [0.0] * len(teams)
    for f in facts:
        won = [k for k, side in enumerate(teams) if any(w in side for w in f.winners)]
        for k in won:
            wins[k] += 1 / len(won)
    return wins


def _side_share(f: GameFacts, seat: int, teams: tuple) -> float:
    """The share of game f's win that goes to seat's side (0 when it lost)."""
    won = [side for side in teams if any(w in side for w in f.winners)]
    return next((1 / len(won) for side in won if seat in side), 0.0)


def side_name(side: tuple) -> str:
    names = [seat_name(i) for i in side]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _actions(program, facts: list[GameFacts]) -> list[str]:
    """Every action of the ruleset, in the order the rules declare them (and any other chosen)."""
    names = [a.name for ch in program.choices for a in ch.alts]
    return list(dict.fromkeys([*names, *(n for f in facts for n in f.moves)]))


def _rounds(f: GameFacts, players: int) -> float:
    return f.decisions / players


def analyse(cfg: Config, facts: list[GameFacts], skill: tuple[Config, list[GameFacts]] | None = None) -> dict:
    n, k = cfg.players, len(facts)
    program = program_of(cfg.rs)
    seats = [seat_name(i) for i in range(n)]
    wins = _wins(facts, n)
    teams = _teams(facts)
    losses = _losses(facts, n) if n > 2 and not teams and declares_losers(cfg.rs) else None
    same_bots = len(set(cfg.bots)) == 1 and cfg.rotate is None
    side_wins = _side_wins(facts, teams) if teams else None
    fair = equal_shares(side_wins if teams else wins)
    nobody_won = k > 0 and not any(f.winners for f in facts)  # (a new user's The Game: every game lost together)
    fair["meaningful"] = same_bots and n > 1 and not nobody_won
    who, whose = ("side", "sides'") if teams else ("seat", "seats'")
    fair["by"] = who
    fair["verdict"] = ("a game for one: there are no seats to compare" if n == 1
                       else f"no game of the {k} had a winner, so the seats' wins cannot be compared" if nobody_won
                       else "the seats have different players, so their shares are not comparable" if not same_bots
                       else f"no evidence that any {who} is favoured" if fair["p_value"] >= ALPHA
                       else f"evidence that the {whose} chances differ (a fair game would look this uneven in "
                       + (f"{fair['p_value']:.1%}" if fair["p_value"] >= 0.001 else "under 0.1%")
                       + f" of runs of {k} games)")
    firsts = [f for f in facts if f.first_decider is not None and f.first_decider != AT_ONCE]
    if teams:  # (the first player wins with its side)
        first_wins = sum(_side_share(f, f.first_decider, teams) for f in firsts)
    else:
        first_wins = sum(1 / len(f.winners) for f in firsts if f.first_decider in f.winners)
    first = {"games": len(firsts), "win_rate": first_wins / len(firsts) if firsts else None,
             "ci": list(wilson(first_wins, len(firsts))) if firsts else None,
             "fair_share": 1 / len(teams) if teams else 1 / n, "by_side": bool(teams),
             "seat_counts": {s: sum(1 for f in firsts if f.first_decider == i) for i, s in enumerate(seats)},
             # games whose first decision every player made at once, secretly (6 nimmt!): nobody went first
             "at_once": sum(1 for f in facts if f.first_decider == AT_ONCE)}
    keeps_score = program.score is not None
    margins = []
    for f in facts:
        if keeps_score and f.winners and len(f.winners) < n:
            best = f.scores[f.winners[0]]
            others = [v for i, v in enumerate(f.scores) if i not in f.winners]
            margins.append(abs(best - (max(others) if program.winner_rule != "fewest" else min(others))))
    fired = {name: [f.fired.get(name, 0) for f in facts] for name in program.rule_names}
    leads = [f.lead_changes for f in facts if f.lead_changes is not None]
    behind = [f.winner_was_behind for f in facts if f.winner_was_behind is not None]
    data = {
        "configuration": cfg.label,
        "ruleset": cfg.path,
        "game": cfg.rs.name,
        "title": cfg.rs.title or cfg.rs.name,
        "players": n,
        "games": k,
        "options": dict(cfg.options),
        "seats": {s: cfg.bots[i] for i, s in enumerate(seats)},
        "finished": sum(1 for f in facts if f.finished),
        "no_winner": sum(1 for f in facts if not f.winners),
        "shared_wins": sum(1 for f in facts if len(f.winners) > 1),
        "win_rate": {s: {"wins": wins[i], "rate": wins[i] / k if k else 0.0, "ci": list(wilson(wins[i], k))}
                     for i, s in enumerate(seats)},
        # where the rules name the loser (Durak's fool), each seat's share of the games it lost
        "loss_rate": ({s: {"losses": losses[i], "rate": losses[i] / k if k else 0.0, "ci": list(wilson(losses[i], k))}
                       for i, s in enumerate(seats)} if losses is not None else None),
        # partners (a `sides` line, the same sides in every game): each side's wins, a game won by
        # k sides counted 1/k for each; the fairness questions are asked of these
        "sides": ({side_name(side): {"wins": side_wins[j], "rate": side_wins[j] / k if k else 0.0,
                                     "ci": list(wilson(side_wins[j], k))} for j, side in enumerate(teams)}
                  if teams else None),
        "fairness": fair,
        "first_player": first,
        "keeps_score": keeps_score,
        "score": {s: summary([f.scores[i] for f in facts]) for i, s in enumerate(seats)} if keeps_score else None,
        "margin": summary(margins) if keeps_score else None,
        "length": {"decisions": summary([f.decisions for f in facts]),
                   "rounds": summary([_rounds(f, n) for f in facts])},
        "rules": {name: {"title": program.rule_titles.get(name, name),
                         "per_game": sum(xs) / k if k else 0.0,
                         "games_with": sum(1 for x in xs if x),
                         "share_of_games": (sum(1 for x in xs if x) / k) if k else 0.0}
                  for name, xs in fired.items()},
        "never_fired": [name for name, xs in fired.items() if not any(xs)],
        "moves": {name: {"per_game": sum(f.moves.get(name, 0) for f in facts) / k if k else 0.0,
                         "share_of_games": sum(1 for f in facts if f.moves.get(name)) / k if k else 0.0}
                  for name in _actions(program, facts)},
        "lead": ({"mean_changes": sum(leads) / len(leads) if leads else None,
                  "changes": summary(leads),
                  "winner_was_behind": (sum(behind) / len(behind)) if behind else None,
                  "winner_was_behind_ci": list(wilson(sum(behind), len(behind))) if behind else None,
                  "games": len(behind)} if keeps_score else None),
        "skill": None,
    }
    if skill is not None:
        scfg, sfacts = skill
        strong_wins = 0.0
        steams = _teams(sfacts)
        for i, f in enumerate(sfacts):
            seat = i % n
            if steams:  # (it wins with its side, a partner of the other kind beside it)
                strong_wins += _side_share(f, seat, steams)
            elif seat in f.winners:
                strong_wins += 1 / len(f.winners)
        m = len(sfacts)
        lo, hi = wilson(strong_wins, m)
        # alone at the table (a patience), the stronger player is measured against the other's
        # own games: its share is what the other player won playing alone
        share = (1 / len(steams) if steams else 1 / n) if n > 1 else (wins[0] / k if k else 0.0)
        # alone, both rates are measured, each with its noise: the difference must leave out zero (a new
        # user's Pyramid: 1 of 50 won against 0 of 50 read "skill matters")
        alone = diff_proportions(wins[0] if n == 1 else 0.0, k or 1, strong_wins, m or 1)
        no_wins = n > 1 and not any(f.winners for f in [*facts, *sfacts])  # (wins cannot tell, either way)
        data["skill"] = {
            "strong": scfg.rotate, "others": scfg.bots[0], "games": m, "by_side": bool(steams),
            "win_rate": strong_wins / m if m else 0.0, "ci": [lo, hi], "fair_share": share,
            "verdict": ("no game had a winner, with the stronger player or without it, so wins cannot tell whether "
                        "skill matters" if no_wins else
                        "skill matters: the stronger player wins more than its share" if lo > share
                        else "the stronger player wins less than its share" if hi < share
                        else "no evidence that skill matters at this number of games")
                       if n > 1 else
                       (f"skill matters: the stronger player wins more often than {scfg.bots[0]} playing alone"
                        if alone["significant"] and alone["difference"] > 0
                        else f"the stronger player wins less often than {scfg.bots[0]} playing alone"
                        if alone["significant"] else "no evidence that skill matters at this number of games"),
        }
        if hi < share and not no_wins and str(scfg.rotate).split(":")[0] == "greedy" and not program.advice:
            # (Yaniv, written by a new user: 0 of 50 won, the report said skill did not help)
            data["skill"]["verdict"] += (": this ruleset gives no advice, so the greedy player sees only the score "
                                         "one move ahead, and where that does not change it breaks ties by keeping "
                                         "its high cards; an `advice` line, or --strong ismcts, plays better")
        if n == 1 and keeps_score and sfacts and all(f.winners == (0,) for f in [*facts, *sfacts]):
            data["skill"]["by_score"] = _skill_by_score(program, scfg, facts, sfacts)
            data["skill"]["verdict"] = data["skill"]["by_score"]["verdict"]
    return data


def _skill_by_score(program, scfg, facts: list[GameFacts], sfacts: list[GameFacts]) -> dict:
    """A game for one whose every end is the player's win (it names no winner, it keeps a score):
    the stronger player is judged by its mean score against the other's playing alone, the more
    (or the fewer, as the winner rule says) the better."""
    fewer = program.winner_rule == "fewest"
    others, strong = [f.scores[0] for f in facts], [f.scores[0] for f in sfacts]
    d = diff_means(others, strong)
    lo, hi = d["ci"]
    better = (hi < 0) if fewer else (lo > 0)
    worse = (lo > 0) if fewer else (hi < 0)
    verdict = (f"skill matters: the stronger player scores {'lower' if fewer else 'higher'} than {scfg.bots[0]} "
               "playing alone" if better else
               f"the stronger player scores {'higher' if fewer else 'lower'} than {scfg.bots[0]} playing alone, "
               "which is worse" if worse else "no evidence that skill matters at this number of games")
    return {"strong": summary(strong), "others": summary(others), "difference": d["difference"], "ci": [lo, hi],
            "better": "fewer" if fewer else "more", "verdict": verdict}


def compare(a: dict, b: dict, fa: list[GameFacts], fb: list[GameFacts]) -> dict:
    """B against A, statistic by statistic: each value, the difference, its 95% interval and
    whether it is significant (the interval excludes no difference)."""
    rows = []
    ka, kb = a["games"], b["games"]

    def prop(label, xa, xb):
        rows.append({"statistic": label, **diff_proportions(xa, ka, xb, kb)})

    def means(label, xs, ys):
        rows.append({"statistic": label, **diff_means(xs, ys)})

    for s in a["win_rate"]:
        if s in b["win_rate"]:
            prop(f"{s} win share", a["win_rate"][s]["wins"], b["win_rate"][s]["wins"])
    if a.get("loss_rate") and b.get("loss_rate"):
        for s in a["loss_rate"]:
            if s in b["loss_rate"]:
                prop(f"{s} lost (share of games)", a["loss_rate"][s]["losses"], b["loss_rate"][s]["losses"])
    fa_first = sum(1 / len(f.winners) for f in fa if f.first_decider in f.winners)
    fb_first = sum(1 / len(f.winners) for f in fb if f.first_decider in f.winners)
    if any(f.first_decider not in (None, AT_ONCE) for f in [*fa, *fb]):  # (nobody goes first where all choose at once)
        prop("first player to decide: win share", fa_first, fb_first)
    prop("games without a winner (share)", a["no_winner"], b["no_winner"])
    prop("shared wins (share of games)", a["shared_wins"], b["shared_wins"])
    means("decisions per game", [f.decisions for f in fa], [f.decisions for f in fb])
    if a["keeps_score"] and b["keeps_score"]:
        for i, s in enumerate(a["win_rate"]):
            if i < len(fb[0].scores if fb else ()):
                means(f"{s} final score", [f.scores[i] for f in fa], [f.scores[i] for f in fb])
        means("lead changes per game", [f.lead_changes or 0 for f in fa], [f.lead_changes or 0 for f in fb])
    for name in dict.fromkeys([*a["rules"], *b["rules"]]):
        xs = [f.fired.get(name, 0) for f in fa]
        ys = [f.fired.get(name, 0) for f in fb]
        ta, tb = (a["rules"].get(name) or {}).get("title"), (b["rules"].get(name) or {}).get("title")
        where = b["title"] if b["title"] != a["title"] else b["configuration"]
        title = ta or tb if tb in (None, ta) or ta is None else f"{ta}; in {where}: {tb}"  # (retitled)
        means(f"rule {name} ({title}): times per game", xs, ys)
    for name in dict.fromkeys([*a["moves"], *b["moves"]]):
        means(f"move {name}: times per game", [f.moves.get(name, 0) for f in fa], [f.moves.get(name, 0) for f in fb])
    return {"a": a["configuration"], "b": b["configuration"], "players": [a["players"], b["players"]], "rows": rows}

"""A balance report: the games of every configuration played (here, or on a runner's workers),
their facts turned into answers (analysis) and figures (plots), written as report.html and
report.json; and two rulesets' games side by side for `cardrules diff --play`."""

from __future__ import annotations

import json
from pathlib import Path

from .. import engines
from ..errors import OptionError
from ..files import write_atomic
from .summary import analyse, compare
from .games import Config, GameFacts, play_config
from .equilibria import value_text

FORMAT = "cardrules-balance/1"

class ReportInterrupted(KeyboardInterrupt):
    """Ctrl-C while the games of a report were played (a KeyboardInterrupt to callers that do
    not look further). `data` and `facts` are the report over the games every configuration had
    finished, from the first: `games` of each (and `skill_games` skill games), as --games and
    --skill-games of those would give; None when some configuration had not finished one."""

    def __init__(self, data: dict | None, facts: list | None, games: int, skill_games: int):
        super().__init__("interrupted")
        self.data, self.facts, self.games, self.skill_games = data, facts, games, skill_games


def _strongs(configs: list[Config], strong) -> list:
    """`strong` (one player's spec for every configuration, None, or a list of one per
    configuration) as a list of one per configuration."""
    if isinstance(strong, (list, tuple)):
        if len(strong) != len(configs):
            raise ValueError("give one strong player per configuration")
        return list(strong)
    return [strong] * len(configs)


def runs_of(configs: list[Config], games: int, strong, skill_games: int) -> list[tuple[Config, int]]:
    """What is played, in order: each configuration's games, then (with its strong player) its
    skill games."""
    runs = []
    for cfg, player in zip(configs, _strongs(configs, strong)):
        runs.append((cfg, games))
        if player is not None and skill_games > 0:
            runs.append((Config(label=cfg.label + " (skill)", path=cfg.path, rs=cfg.rs, players=cfg.players,
                                options=cfg.options, bots=cfg.bots, rotate=player), skill_games))
    return runs


def _bots(cfg: Config) -> tuple:
    """The specs of a run's players (its rotating strong player among them)."""
    return tuple(cfg.bots) + ((cfg.rotate,) if cfg.rotate else ())


def run_engine(engine: str, cfg: Config) -> str:
    """The engine one run of a report plays on (make_report's `engine`): "native" or "python"."""
    return engines.run_engine(engine, _bots(cfg))


def engine_line(choice, requested: str, runs: list) -> tuple[str, str]:
    """make_report's engine for a choice (engines.choose), and the one line saying it: under
    auto, runs with players that decide in Python play in Python, and the line says so."""
    return engines.per_run(choice, requested, [_bots(cfg) for cfg, _ in runs])


def make_report(configs: list[Config], games: int, seed: int, strong: str | list | None = "greedy",
                skill_games: int | None = None, progress=None, runner=None,
                engine: str = "python", strong_why: list | None = None,
                equilibria: list | None = None) -> tuple[dict, list[list[GameFacts]]]:
    """Play every configuration (and, with `strong`, the skill games) and analyse them.
    `strong`: the skill question's player, one for all or a list of one per configuration (None:
    no skill games for it); `strong_why`: a list of why each was chosen, in words, kept in the
    report; `equilibria`: a list of each configuration's equilibrium (solve.equilibrium), kept
    in the report as it is.
    Returns the report data (JSON-ready) and the facts of each configuration's games. With a
    runner (interpreter.runner) the games are played by its workers, with the same results;
    `engine` "native" plays them on the native engine (engines.choose chose it), with
    the same results too; "auto" (native chosen under --engine auto) plays on it the runs whose
    players all choose in C (engines.IN_C: every bundled player), and the others (a player that
    decides in Python alone and reads the position as it searches: slower from a game in C) in
    Python. Ctrl-C raises ReportInterrupted."""
    from ..engines import native_of
    skill_games = games if skill_games is None else skill_games
    runs = runs_of(configs, games, strong, skill_games)
    if runner is not None:
        from .jobs import balance as play_runs
        facts, interrupted = play_runs(runner, [(cfg, k) for cfg, k in runs], seed, progress,
                                       [run_engine(engine, cfg) for cfg, _ in runs])
    else:
        facts, interrupted = [], False
        try:
            for cfg, k in runs:
                facts.append([])
                play_config(cfg, k, seed, progress, facts[-1], native_of(cfg.rs, run_engine(engine, cfg)))
        except KeyboardInterrupt:
            interrupted = True
            facts += [[] for _ in runs[len(facts):]]
    if interrupted:
        skill = [cfg.rotate is not None for cfg, _ in runs]
        m = min(len(f) for f, s in zip(facts, skill) if not s)
        m2 = min((len(f) for f, s in zip(facts, skill) if s), default=0)
        if m == 0:
            raise ReportInterrupted(None, None, 0, 0)
        kept = [f[:m2 if s else m] for f, s in zip(facts, skill)]
        data, all_facts = _report(configs, runs, kept, m, m2, seed, strong_why, equilibria)
        raise ReportInterrupted(data, all_facts, m, m2)
    return _report(configs, runs, facts, games, skill_games, seed, strong_why, equilibria)


def _report(configs, runs, facts, games: int, skill_games: int, seed: int, strong_why=None,
            equilibria=None) -> tuple[dict, list[list[GameFacts]]]:
    reports, all_facts = [], []
    played = list(zip(runs, facts))
    for j, cfg in enumerate(configs):
        (_, _), own = played.pop(0)
        skill = None
        if played and played[0][0][0].rotate is not None:
            (scfg, _), sfacts = played.pop(0)
            if skill_games > 0:
                skill = (scfg, sfacts)
        reports.append(analyse(cfg, own, skill))
        if reports[-1]["skill"] is not None and strong_why is not None:
            reports[-1]["skill"]["why"] = strong_why[j]
        if equilibria is not None:
            reports[-1]["equilibrium"] = equilibria[j]
        all_facts.append(own)
    data = {"format": FORMAT, "seed": seed, "games": games, "configurations": reports,
            "comparisons": [compare(reports[0], r, all_facts[0], f)
                            for r, f in zip(reports[1:], all_facts[1:])]}
    return _rounded(data), all_facts


def _rounded(x):
    """Floats to 6 significant decimals, so the JSON is short and stable."""
    if isinstance(x, float):
        return round(x, 6)
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_rounded(v) for v in x]
    return x


def _pct(x) -> str:
    return "-" if x is None else f"{x * 100:.1f}%"


def _num(x, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x)}" if abs(x) < 1e15 else f"{x:g}"
    return f"{x:.{digits}f}"


def _fmt(row: dict, x, signed: bool = False) -> str:
    share = "share" in row["statistic"]
    if share:
        return (f"{x * 100:+.1f} points" if signed else _pct(x))
    return f"{x:+.2f}" if signed else _num(x)


def render_html(data: dict, facts: list[list[GameFacts]]) -> str:
    import jinja2

    from . import plots
    reports = data["configurations"]
    labels = [r["configuration"] for r in reports]
    figs = {"win_rates": plots.win_rates(reports),
            "length": plots.histogram([[f.decisions for f in fs] for fs in facts], labels,
                                      "decisions in the game", "Game length"),
            "rules": plots.rules(reports)}
    if reports[0]["keeps_score"]:
        figs["scores"] = plots.scores(reports, facts)
        margins = []
        for fs in facts:
            ms = []
            for f in fs:
                if f.winners and len(f.winners) < len(f.scores):
                    others = [v for i, v in enumerate(f.scores) if i not in f.winners]
                    best = f.scores[f.winners[0]]
                    ms.append(abs(best - (max(others) if best >= max(others) else min(others))))
            margins.append(ms)
        # no winner in any game (all stopped unfinished, say): a sentence says so instead of an empty plot
        if any(margins):
            figs["margin"] = plots.histogram(margins, labels, "winner's lead over the best other player at the end",
                                             "Margin of victory")
        if any(r["lead"]["games"] for r in reports):
            figs["lead"] = plots.histogram([[f.lead_changes or 0 for f in fs] for fs in facts], labels,
                                           "times the sole leader changed during the game", "Lead changes")
    if reports[0].get("skill"):
        figs["skill"] = plots.skill(reports)
    env = jinja2.Environment(loader=jinja2.PackageLoader("interpreter", "templates"), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    names = list(dict.fromkeys(n for r in reports for n in r["rules"]))
    titles = {n: next(r["rules"][n]["title"] for r in reports if n in r["rules"]) for n in names}
    cmp = data["comparisons"][0] if data["comparisons"] else None
    return env.get_template("balance.html.j2").render(
        title=reports[0]["title"], reports=reports, seed=data["seed"], figs=figs, comparison=cmp,
        player_counts=list(dict.fromkeys(r["players"] for r in reports)),
        seat_names=list(max(reports, key=lambda r: r["players"])["win_rate"]),
        rule_names=names, rule_titles=titles, move_names=list(dict.fromkeys(n for r in reports for n in r["moves"])), pct=_pct, num=_num, fmt=_fmt,
        value_text=value_text)


def write_report(out: Path, data: dict, html: str) -> list[Path]:
    """Write report.json and report.html into `out`, each complete or not at all."""
    written = []
    for name, text in (("report.json", json.dumps(data, indent=2, sort_keys=False) + "\n"), ("report.html", html)):
        write_atomic(out / name, text)
        written.append(out / name)
    return written


# ------------------------------------------------------------------ diff --play

def play_comparison(ra, rb, labels: tuple[str, str], games: int, seed: int = 0, players: int | None = None,
                    progress=None, engine: str = "python") -> dict:
    """Random players on both rulesets, the same seeds: the side-by-side table of `balance
    --against`, for `cardrules diff A B --play K`, played on `engine` ("python" or "native":
    the same table). OptionError when no player count suits both."""
    lo, hi = max(ra.players_min, rb.players_min), min(ra.players_max, rb.players_max)
    n = players if players is not None else lo
    if lo > hi or not lo <= n <= hi:
        raise OptionError(f"the two rulesets are not played by the same number of players "
                          f"({ra.players_min}-{ra.players_max} and {rb.players_min}-{rb.players_max}), "
                          "so they cannot be compared by play")
    bots = tuple("random" for _ in range(n))
    configs = [Config(label=labels[0], path=labels[0], rs=ra, players=n, bots=bots),
               Config(label=labels[1], path=labels[1], rs=rb, players=n, bots=bots)]
    data, _ = make_report(configs, games, seed, strong=None, progress=progress, engine=engine)
    return data


def chance_note(rows: int) -> str:
    """Why a star or two is no finding: of `rows` statistics compared, about one in twenty shows
    one by chance where nothing differs (a new user's Doppelkopf: one of 25, after 30 games)."""
    return (f"of {rows} statistics, about {rows / 20:.0f} would be starred by chance alone where nothing differs: "
            "play more games before reading much into one") if rows >= 10 else "each at the 5% level"


def comparison_table(data: dict, fmt: str = "text") -> str:
    """The comparison as plain text, Markdown or an HTML fragment."""
    c = data["comparisons"][0]
    k, n = data["games"], data["configurations"][0]["players"]
    head = (f"Played: {k} games each, {n} random players, seeds {data['seed']} to {data['seed'] + k - 1}; "
            f"B minus A with its 95% interval, * where the interval leaves out zero "
            f"({chance_note(len(c['rows']))})")
    shared = next((r for r in c["rows"] if r["statistic"] == "shared wins (share of games)"), None)
    if shared is not None and (shared["a"] or shared["b"]):  # ("win share" is not "games won")
        head += "; a win share counts a win shared by k players as 1/k of a game"
    rows = [(r["statistic"], _fmt(r, r["a"]), _fmt(r, r["b"]), _fmt(r, r["difference"], True),
             f"{_fmt(r, r['ci'][0], True)} to {_fmt(r, r['ci'][1], True)}", "*" if r["significant"] else "")
            for r in c["rows"]]
    cols = ("statistic", "A", "B", "difference", "95% interval", "")
    if fmt == "md":
        out = [f"## {head}", "", "| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
        out += ["| " + " | ".join(x.replace("|", "\\|") for x in row) + " |" for row in rows]
        return "\n".join(out) + "\n"
    if fmt == "html":
        import html as h
        cells = "".join(f"<th>{h.escape(x)}</th>" for x in cols)
        body = "".join("<tr>" + "".join(f"<td>{h.escape(x)}</td>" for x in row) + "</tr>" for row in rows)
        return f"<section class=\"played\"><h2>{h.escape(head)}</h2><table><tr>{cells}</tr>{body}</table></section>\n"
    widths = [max(len(cols[i]), *(len(r[i]) for r in rows)) for i in range(len(cols))]
    line = lambda xs: "  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(xs, widths))).rstrip()
    return "\n".join([head, "=" * min(len(head), 96), line(cols), *(line(r) for r in rows)]) + "\n"

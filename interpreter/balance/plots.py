"""One figure per question, drawn with matplotlib as SVG text to embed in the report. The
SVG is made byte-for-byte reproducible: a fixed id salt, no date, text kept as text."""

from __future__ import annotations

import functools
import io

COLOURS = ["#3b6ea5", "#d9822b", "#4d9a5b", "#a8475a"]


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    matplotlib.rcParams.update({"svg.hashsalt": "cardrules", "svg.fonttype": "none",
                                "font.family": "DejaVu Sans", "font.size": 10,
                                "axes.spines.top": False, "axes.spines.right": False})
    return plt


_DRAWN: dict = {}  # a figure's SVG by its function and data: at most _KEEP of them
_KEEP = 64


def _remembered(draw):
    """The same figure of the same numbers is drawn once a process: drawing is most of the time a
    small balance run takes, and a process that writes a report again from the same numbers (the
    studio, a comparison of engines or of worker counts) would draw every figure anew. The key is
    the data as text (plain numbers and names, as report.json holds them)."""
    @functools.wraps(draw)
    def drawn(*args, **kwargs):
        key = (draw.__name__, repr(args), repr(sorted(kwargs.items())))
        svg = _DRAWN.get(key)
        if svg is None:
            svg = draw(*args, **kwargs)
            while len(_DRAWN) >= _KEEP:
                del _DRAWN[next(iter(_DRAWN))]
            _DRAWN[key] = svg
        return svg
    return drawn


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "cardrules"})
    _plt().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]  # drop the XML prologue and doctype: the SVG sits inside HTML


def _figure(height: float = 3.0, width: float = 6.4):
    plt = _plt()
    return plt.subplots(figsize=(width, height), layout="constrained")  # room made for a legend outside


def _legend(fig, ax, handles=None) -> None:
    """The legend below the plot, outside the axes, so that it covers no bar, box or line."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    else:
        labels = [h.get_label() for h in handles]
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(handles), 3), frameon=False, fontsize=8)


@_remembered
def win_rates(reports: list[dict]) -> str:
    """Does any seat win more than its share?"""
    fig, ax = _figure()
    widest = max(reports, key=lambda r: r["players"])  # (two rulesets may seat different numbers)
    seats = list(widest["win_rate"])
    w = 0.8 / len(reports)
    for j, r in enumerate(reports):
        mine = [i for i, s in enumerate(seats) if s in r["win_rate"]]
        xs = [i + (j - (len(reports) - 1) / 2) * w for i in mine]
        rates = [r["win_rate"][seats[i]]["rate"] * 100 for i in mine]
        err = [[max(0.0, x - r["win_rate"][seats[i]]["ci"][0] * 100) for x, i in zip(rates, mine)],
               [max(0.0, r["win_rate"][seats[i]]["ci"][1] * 100 - x) for x, i in zip(rates, mine)]]
        ax.bar(xs, rates, width=w, yerr=err, capsize=4, color=COLOURS[j % 4], label=r["configuration"])
    counts = list(dict.fromkeys(r["players"] for r in reports))
    for c in counts:
        ax.axhline(100 / c, color="#555", linestyle="--", linewidth=1,
                   label="an equal share" + (f" ({c} players)" if len(counts) > 1 else ""))
    ax.set_xticks(range(len(seats)), [f"{s} ({widest['seats'][s]})" for s in seats])
    ax.set_ylabel("games won (%)")
    ax.set_title("Games won by each seat, with 95% intervals")
    _legend(fig, ax)
    return _svg(fig)


def scores(reports: list[dict], facts: list[list]) -> str:
    """How are the final scores spread, seat by seat?"""
    return _scores(reports, [[tuple(f.scores) for f in fs] for fs in facts])


@_remembered
def _scores(reports: list[dict], facts: list[list]) -> str:
    fig, ax = _figure()
    seats = list(max(reports, key=lambda r: r["players"])["win_rate"])
    pos, data, colours = [], [], []
    w = 0.8 / len(reports)
    for j, fs in enumerate(facts):
        for i in range(reports[j]["players"]):
            pos.append(i + (j - (len(reports) - 1) / 2) * w)
            data.append([f[i] for f in fs])
            colours.append(COLOURS[j % 4])
    parts = ax.boxplot(data, positions=pos, widths=w * 0.8, patch_artist=True, manage_ticks=False,
                       medianprops={"color": "#222"})  # (matplotlib's orange median vanished in an orange box)
    for patch, c in zip(parts["boxes"], colours):
        patch.set_facecolor(c)
        patch.set_alpha(0.6)
    ax.set_xticks(range(len(seats)), seats)
    if len(reports) > 1:
        from matplotlib.patches import Patch
        _legend(fig, ax, [Patch(facecolor=COLOURS[j % 4], alpha=0.6, label=r["configuration"])
                          for j, r in enumerate(reports)])
    ax.set_ylabel("final score")
    ax.set_title("Final scores by seat (box: middle half of the games; line: median)")
    return _svg(fig)


@_remembered
def histogram(values: list[list[float]], labels: list[str], xlabel: str, title: str, integer: bool = True) -> str:
    fig, ax = _figure()
    flat = [v for vs in values for v in vs]
    if not flat:
        flat = [0]
    lo, hi = min(flat), max(flat)
    if integer and hi - lo <= 60:  # one bar per value
        bins = [x - 0.5 for x in range(int(lo), int(hi) + 2)]
    elif integer:
        step = max(1, round((hi - lo) / 30))
        bins = [lo - 0.5 + step * i for i in range(int((hi - lo) / step) + 2)]
    else:
        bins = 30
    for j, vs in enumerate(values):
        ax.hist(vs, bins=bins, histtype="stepfilled" if len(values) == 1 else "step", linewidth=1.5,
                color=COLOURS[j % 4], alpha=0.75 if len(values) == 1 else 1.0, label=labels[j])
    from matplotlib.ticker import MaxNLocator
    if integer:  # whole decisions and games: no ticks at 0.2, no "+1e5" offset under the axis
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
        ax.ticklabel_format(axis="x", style="plain", useOffset=False)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    if len(values) > 1:
        _legend(fig, ax)
    return _svg(fig)


@_remembered
def rules(reports: list[dict]) -> str:
    """Which rules are used, and how much?"""
    names = list(dict.fromkeys(n for r in reports for n in r["rules"]))
    fig, ax = _figure(height=max(2.0, 0.32 * len(names) * max(1, len(reports) * 0.7) + 1.0))
    h = 0.8 / len(reports)
    for j, r in enumerate(reports):
        ys = [i + (j - (len(reports) - 1) / 2) * h for i in range(len(names))]
        vals = [r["rules"][n]["per_game"] if n in r["rules"] else 0 for n in names]
        ax.barh(ys, vals, height=h, color=COLOURS[j % 4], label=r["configuration"])
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("times per game (mean)")
    ax.set_title("How often each rule is used")
    if len(reports) > 1:
        _legend(fig, ax)
    return _svg(fig)


@_remembered
def skill(reports: list[dict]) -> str:
    """Does the stronger player win more than its share?"""
    fig, ax = _figure(height=2.4)
    if all(r["skill"].get("by_score") for r in reports):  # (a game for one whose every end is a win)
        return _skill_by_score(fig, ax, reports)
    labels, rates, lo, hi = [], [], [], []
    for r in reports:
        s = r["skill"]
        labels.append(f"{s['strong']} vs {s['others']}" + (f"\n{r['configuration']}" if len(reports) > 1 else ""))
        rates.append(s["win_rate"] * 100)
        lo.append(max(0.0, s["win_rate"] * 100 - s["ci"][0] * 100))
        hi.append(max(0.0, s["ci"][1] * 100 - s["win_rate"] * 100))
    ax.barh(range(len(labels)), rates, xerr=[lo, hi], capsize=4, color=COLOURS[:len(labels)], height=0.5)
    for share in dict.fromkeys(r["skill"].get("fair_share", 1 / r["players"]) for r in reports):
        ax.axvline(100 * share, color="#555", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()  # the first configuration on top, as in the plot of the rules
    ax.set_xlim(0, 100)
    ax.set_xlabel("games won by the stronger player (%); dashed: an equal share" if reports[0]["players"] > 1
                  else "games won by the stronger player (%); dashed: the other's, playing alone")
    ax.set_title("Does skill matter?")
    return _svg(fig)


def _skill_by_score(fig, ax, reports: list[dict]) -> str:
    """The stronger player's mean score and the other's, playing alone, with their 95% intervals."""
    labels, means, lo, hi, colours = [], [], [], [], []
    for j, r in enumerate(reports):
        s, b = r["skill"], r["skill"]["by_score"]
        tail = f"\n{r['configuration']}" if len(reports) > 1 else ""
        for who, part in ((s["strong"], b["strong"]), (s["others"], b["others"])):
            labels.append(f"{who}{tail}")
            means.append(part["mean"])
            lo.append(max(0.0, part["mean"] - part["ci"][0]))
            hi.append(max(0.0, part["ci"][1] - part["mean"]))
            colours.append(COLOURS[j % len(COLOURS)])
    ax.barh(range(len(labels)), means, xerr=[lo, hi], capsize=4, color=colours, height=0.5)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"mean score, playing alone (the {reports[0]['skill']['by_score']['better']} the better)")
    ax.set_title("Does skill matter?")
    return _svg(fig)

"""Tournament output: the table at the terminal, CSV/JSON files, a crosstable heatmap and a CI plot.

Standings rank agents by bb/100 (duplicate win rate against the field), the quantity every other
report shows, or with ``rank_by: aivat_bb_per_100`` by its AIVAT figure; the openskill rating is a column of
its own, never the rank. An ``aivat: true`` tournament shows the AIVAT figures beside the raw ones, with the
ratio of their spreads (``sd_ratio``: raw SD / AIVAT SD) and whether each can be trusted (``aivat_reliable``:
:mod:`razz_env.evaluate.policy_fit`); when a standings figure cannot, ``rank_by: aivat_bb_per_100`` falls back
to the raw figure and every report says so.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from razz_env.evaluate.aivat import SHOWDOWN_SHARE
from razz_env.evaluate.policy_fit import POLICY_FIT_STAMP
from razz_env.evaluate.runner import PairingResult, TournamentResult, fit_fields


def _pairing_row(result: TournamentResult, pairing: PairingResult) -> dict[str, Any]:
    dup, plain = pairing.duplicate, pairing.plain
    edge = result.config.edge_bb_per_100
    per_sample_hands = pairing.hands / max(dup.samples, 1)
    return {
        "agent": result.labels[pairing.agent],
        "opponent": "field" if pairing.opponent is None else result.labels[pairing.opponent],
        "hands": pairing.hands,
        "bb_per_100": round(dup.mean_bb100, 3),
        "ci95_low": round(dup.low, 3),
        "ci95_high": round(dup.high, 3),
        "ci95_half_width": round(dup.half_width, 3),
        "sd_bb_per_100": round(dup.sd_bb100, 2),
        "plain_ci95_half_width": round(plain.half_width, 3),
        f"hands_to_resolve_{edge:g}bb100": math.ceil(dup.samples_to_resolve(edge) * per_sample_hands),
        "significant": dup.significant,
        **_aivat_fields(pairing, result.labels),
    }


def _aivat_fields(pairing: PairingResult, labels: Sequence[str]) -> dict[str, Any]:
    """The AIVAT columns of a pairing row (none without AIVAT)."""
    corrected = pairing.aivat
    if corrected is None:
        return {}
    return {"aivat_bb_per_100": round(corrected.mean_bb100, 3), "aivat_ci95_low": round(corrected.low, 3),
            "aivat_ci95_high": round(corrected.high, 3), "aivat_sd_bb_per_100": round(corrected.sd_bb100, 2),
            "sd_ratio": None if pairing.sd_ratio is None else round(pairing.sd_ratio, 3),
            "aivat_significant": corrected.significant, **fit_fields(pairing.fit, labels)}


def ranked_by(result: TournamentResult) -> str:
    """The figure the standings rank by: the config's ``rank_by``, except the raw ``bb_per_100`` when an AIVAT
    figure of the standings is unreliable (an agent misstates its policy: :func:`fallback_reason`)."""
    return "bb_per_100" if fallback_reason(result) else result.config.rank_by


def fallback_reason(result: TournamentResult) -> str:
    """Why ``rank_by: aivat_bb_per_100`` ranks by the raw figure instead (empty when it does not): the first
    unreliable AIVAT figure of the standings, in words."""
    if result.config.rank_by != "aivat_bb_per_100":
        return ""
    fit = next((p.fit for p in result.pairings if p.opponent is None and p.fit is not None and p.fit.unreliable), None)
    return "" if fit is None else fit.why(result.labels)


def standings(result: TournamentResult) -> list[dict[str, Any]]:
    """Per-agent rows ranked by :func:`ranked_by` (raw or AIVAT bb/100; highest first, unplayed last), each
    with its ``rank`` first."""
    key = ranked_by(result)
    ordered = sorted(result.standings, key=lambda row: (math.isnan(row[key]), -row[key]))
    return [{"rank": rank, **row} for rank, row in enumerate(ordered, 1)]


def pairing_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """One row per ordered pairing (and per agent against the field)."""
    return [_pairing_row(result, p) for p in result.pairings]


def crosstable(result: TournamentResult) -> list[list[float]]:
    """``table[i][j]``: bb/100 of agent i against agent j (NaN on the diagonal or if unplayed)."""
    n = len(result.labels)
    table = [[math.nan] * n for _ in range(n)]
    for pairing in result.pairings:
        if pairing.opponent is not None:
            table[pairing.agent][pairing.opponent] = pairing.duplicate.mean_bb100
    return table


def format_terminal(result: TournamentResult) -> str:
    """Standings, crosstable and pairing details as fixed-width text."""
    config = result.config
    dealing = "duplicate" if config.duplicate else "plain"
    unit = "pairing" if config.format == "round_robin" else "table"
    lines = [f"{config.name}: {config.variant}, {config.format.replace('_', ' ')}, {dealing} dealing, "
             f"{config.deals} deals per {unit}, blocks {result.blocks_done}/{result.blocks_total}", ""]
    corrected = config.aivat
    aivat_head = f"{'aivat':>9}{'95% CI':>11}" if corrected else ""
    lines.append(f"{'rank':<5}{'agent':<28}{'bb/100':>9}{'95% CI':>18}{aivat_head}{'hands':>9}{'rating':>9}")
    for row in standings(result):
        aivat_cells = f"{row['aivat_bb_per_100']:>9.2f}{_half(row['aivat_ci95']):>11}" if corrected else ""
        flag = "" if not corrected or row["aivat_reliable"] else " !"
        lines.append(f"{row['rank']:<5}{row['agent']:<28}{row['bb_per_100']:>9.2f}{_half(row['ci95']):>18}"
                     f"{aivat_cells}{row['hands']:>9}{row['rating']:>9.2f}{flag}")
    ranking = "AIVAT bb/100" if ranked_by(result) == "aivat_bb_per_100" else "bb/100"
    lines.append(f"ranked by {ranking} against the field; rating: openskill mu - 3 sigma over the blocks")
    fallback = fallback_reason(result)
    if fallback:
        lines.append("rank_by aivat_bb_per_100 fell back to the raw bb/100: AIVAT figures of the standings are "
                     "unreliable (!)")
    if corrected:
        lines.append(f"aivat: the same hands scored with AIVAT (value function {SHOWDOWN_SHARE.name} "
                     f"v{SHOWDOWN_SHARE.version})")
        lines += _unreliable_lines(result)
    if config.format == "round_robin":
        lines += _crosstable_lines(result)
        # (name, figure, CI, sd, plain CI, hands) widths; narrower with the AIVAT columns, to stay within 120
        name_w, fig_w, ci_w, sd_w, plain_w, hands_w = (35, 8, 16, 7, 9, 8) if corrected else (44, 9, 20, 9, 10, 9)
        aivat_head = f"{'aivat':>{fig_w}}{'95% CI':>{ci_w}}{'sd ratio':>9}" if corrected else ""
        lines += ["", f"{'pairing':<{name_w}}{'bb/100':>{fig_w}}{'95% CI':>{ci_w}}{'sd':>{sd_w}}"
                      f"{'plain CI':>{plain_w}}{aivat_head}{'hands':>{hands_w}}"]
        for pairing in result.pairings:
            if pairing.opponent is None or pairing.agent > pairing.opponent:
                continue
            dup = pairing.duplicate
            name = f"{result.labels[pairing.agent]} vs {result.labels[pairing.opponent]}"
            mark = " *" if dup.significant else ""
            aivat_cells = ""
            if corrected:
                fixed = pairing.aivat
                ratio = "n/a" if pairing.sd_ratio is None else f"{pairing.sd_ratio:.2f}"
                aivat_cells = (f"{fixed.mean_bb100:>{fig_w}.2f}{f'[{fixed.low:.1f}, {fixed.high:.1f}]':>{ci_w}}"
                               f"{ratio:>9}")
                mark += " !" if pairing.fit.unreliable else " +" if fixed.significant else ""
            lines.append(f"{name[:name_w - 1]:<{name_w}}{dup.mean_bb100:>{fig_w}.2f}"
                         f"{f'[{dup.low:.1f}, {dup.high:.1f}]':>{ci_w}}{dup.sd_bb100:>{sd_w}.1f}"
                         f"{f'±{pairing.plain.half_width:.1f}':>{plain_w}}{aivat_cells}{pairing.hands:>{hands_w}}{mark}")
        lines.append("* 95% CI excludes zero; 'plain CI' is the half-width the same hands give without "
                     "duplicate pairing")
        if corrected:
            lines.append("+ the AIVAT 95% CI excludes zero; ! the AIVAT figure is unreliable; sd ratio: raw SD / "
                         "AIVAT SD, the\n  factor the CI narrows by")
    lines += failure_lines(result)
    return "\n".join(lines)


def _unreliable_lines(result: TournamentResult) -> list[str]:
    """``! AIVAT unreliable: ...``: one line per agent whose actions do not fit its stated policy, naming it and how
    far it strays (its figures and its opponents' are marked)."""
    lines: dict[int, str] = {}
    for pairing in result.pairings:
        fit = pairing.fit
        if fit is not None and fit.unreliable and fit.agent not in lines:
            lines[fit.agent] = (f"! AIVAT unreliable at the tables of {result.labels[fit.agent]}: its actions do not "
                                f"fit its stated policy\n  (fit p <= {fit.shown_p()}: it {fit.worst})")
    return list(lines.values())


def _half(width: float) -> str:
    """A CI half-width as ``±w.ww`` (``n/a`` when unplayed or from one sample)."""
    return f"±{width:.2f}" if math.isfinite(width) else "n/a"


def _aivat_summary(result: TournamentResult) -> dict[str, Any]:
    """What ``summary.json`` says of the AIVAT figures: the value function they used, the policy check behind them,
    the standings' order and, when ``rank_by: aivat_bb_per_100`` fell back to the raw figure, why."""
    fallback = fallback_reason(result)
    return {"value_function": SHOWDOWN_SHARE.stamp(), "policy_fit": POLICY_FIT_STAMP, "ranked_by": ranked_by(result),
            **({"rank_by_fallback": fallback} if fallback else {})}


TERMINAL_WIDTH = 120
"""Columns the terminal report fits in."""


def _crosstable_lines(result: TournamentResult) -> list[str]:
    """The crosstable, its columns numbered as its rows (labels in the rows only, as wide as the longest needs, up to
    22 characters), if it fits :data:`TERMINAL_WIDTH`; else a pointer to crosstable.png and pairings.csv."""
    cell, name = 7, min(23, max((len(label) for label in result.labels), default=0) + 2)
    count = len(result.labels)
    if 4 + name + cell * count > TERMINAL_WIDTH:
        return ["", f"crosstable: {count} agents are too many columns for the terminal; see crosstable.png and "
                    f"pairings.csv, or the pairings below"]
    lines = ["", "crosstable: bb/100 of row agent against column agent (columns numbered as the rows)"]
    lines.append(" " * (4 + name) + "".join(f"{index:>{cell}}" for index in range(1, count + 1)))
    for index, (label, row) in enumerate(zip(result.labels, crosstable(result)), start=1):
        cells = "".join(f"{'-':>{cell}}" if math.isnan(v) else f"{v:>{cell}.1f}" for v in row)
        lines.append(f"{index:>2}  {label[:name - 1]:<{name}}{cells}")
    return lines


def failure_lines(result: TournamentResult) -> list[str]:
    """One line per failed block: the block, the agent that failed, how and why."""
    return [f"FAILED block {failure['task_id']}: agent {result.labels[failure['error']['agent']]} "
            f"{failure['error']['kind']}: {failure['error']['message']}" for failure in result.failures]


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    """``rows`` as a CSV file at ``path``, its header the first row's keys; returns ``path``."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_reports(result: TournamentResult, output: str | Path, plots: bool = True) -> list[Path]:
    """Write ``standings.csv``, ``pairings.csv``, ``summary.json`` and the PNG plots; returns the paths."""
    folder = Path(output)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    rows = pairing_rows(result)
    ranked = standings(result)
    for name, table in (("standings.csv", ranked), ("pairings.csv", rows)):
        if table:
            written.append(write_csv(folder / name, table))
    summary = {
        "config": result.config.to_dict(),
        "config_id": result.config.config_id,
        "standings": ranked,
        "pairings": rows,
        "crosstable": {"labels": result.labels,
                       "bb_per_100": [[None if math.isnan(v) else v for v in row] for row in crosstable(result)]},
        "failures": result.failures,
        **({"aivat": _aivat_summary(result)} if result.config.aivat else {}),
        "blocks_done": result.blocks_done,
        "blocks_total": result.blocks_total,
    }
    path = folder / "summary.json"
    path.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    written.append(path)
    if plots and result.pairings:
        written += _plots(result, folder)
    return written


def text_colour(rgb: tuple[float, ...]) -> str:
    """``"white"`` or ``"black"``, whichever contrasts more with a cell of colour ``rgb`` (0-1, WCAG luminance).

    >>> text_colour((0.05, 0.19, 0.38)), text_colour((0.97, 0.97, 0.97))
    ('white', 'black')
    """
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "white" if (1.05 / (luminance + 0.05)) > ((luminance + 0.05) / 0.05) else "black"


def crosstable_figure(result: TournamentResult) -> Any:
    """The crosstable heatmap (a matplotlib figure): bb/100 of row against column, each number in the colour
    that reads on its cell."""
    import matplotlib.pyplot as plt
    import numpy as np

    labels = result.labels
    table = np.array(crosstable(result))
    limit = (float(np.nanmax(np.abs(table))) if np.isfinite(table).any() else 0.0) or 1.0
    fig, ax = plt.subplots(figsize=(1.2 * len(labels) + 3, 1.0 * len(labels) + 2))
    image = ax.imshow(table, cmap="RdBu", vmin=-limit, vmax=limit)
    ax.set_xticks(range(len(labels)), labels, rotation=35, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if np.isfinite(table[i, j]):
                colour = text_colour(image.cmap(image.norm(table[i, j])))
                ax.text(j, i, f"{table[i, j]:.0f}", ha="center", va="center", fontsize=9, color=colour)
    fig.colorbar(image, ax=ax, label="bb/100 (row vs column)")
    ax.set_title(f"{result.config.name}: crosstable in bb/100")
    fig.tight_layout()
    return fig


MAX_PAIRING_ROWS = 24
"""The CI plot lists each pairing too when there are at most this many (else each agent against the field only;
``pairings.csv`` and the crosstable hold every pairing)."""


def ci_rows(result: TournamentResult) -> list[tuple[str, float, float]]:
    """The CI plot's rows (name, bb/100, 95% half-width): each agent against the field, best first, then each
    pairing when there are at most :data:`MAX_PAIRING_ROWS`."""
    labels = result.labels
    field = sorted((p for p in result.pairings if p.opponent is None), key=lambda p: -p.duplicate.mean_bb100)
    rows = [(f"{labels[p.agent]} vs field", p.duplicate.mean_bb100, p.duplicate.half_width) for p in field]
    pairs = [p for p in result.pairings if p.opponent is not None and p.agent < p.opponent]
    if len(pairs) <= MAX_PAIRING_ROWS:
        rows += [(f"{labels[p.agent]} vs {labels[p.opponent]}", p.duplicate.mean_bb100, p.duplicate.half_width)
                 for p in pairs]
    return rows


def axis_limits(rows: Sequence[tuple[str, float, float]], whole: int) -> tuple[float, float]:
    """The bb/100 axis: every interval of the first ``whole`` rows (each agent against the field) and most of the
    rest (up to the 80th percentile of their far ends, with a margin), so a few far-off pairings are drawn at the
    edge instead of squashing every other interval to its dot."""
    finite = [(mean, half) for _, mean, half in rows if math.isfinite(mean) and math.isfinite(half)]
    if not finite:
        return -1.0, 1.0
    ends = sorted(abs(mean) + half for mean, half in finite)
    limit = 1.1 * ends[min(len(ends) - 1, int(0.8 * len(ends)))]
    limit = max([limit, 1.0] + [abs(mean) + half for _, mean, half in rows[:whole] if math.isfinite(mean + half)])
    low = max(-limit, min(min(mean - half for mean, half in finite), 0.0))
    high = min(limit, max(max(mean + half for mean, half in finite), 0.0))
    margin = 0.05 * (high - low)
    return low - margin, high + margin


def ci_figure(result: TournamentResult) -> Any:
    """Each agent's bb/100 against the field (and each pairing's, when few) with its 95% confidence interval, on an
    axis clipped to a robust range: an interval past it is drawn to the edge with an arrow and its value."""
    import matplotlib.pyplot as plt

    rows = ci_rows(result)
    left, right = axis_limits(rows, sum(p.opponent is None for p in result.pairings))
    fig, ax = plt.subplots(figsize=(8, min(0.3 * len(rows) + 1.6, 12)))
    clipped = False
    for y, (_, mean, half) in enumerate(rows):
        if not math.isfinite(mean):
            continue
        ax.plot([max(mean - half, left), min(mean + half, right)], [y, y], color="tab:blue", lw=1.5)
        if left <= mean <= right:
            ax.plot([mean], [y], "o", color="tab:blue", ms=4)
        else:
            clipped = True
            edge = right if mean > 0 else left
            ax.plot([edge], [y], ">" if mean > 0 else "<", color="tab:red", ms=7)
            ax.annotate(f"{mean:+.0f}", (edge, y), xytext=(-4 if mean > 0 else 4, 5), textcoords="offset points",
                        ha="right" if mean > 0 else "left", fontsize=7, color="tab:red")
    ax.axvline(0, color="grey", lw=1)
    ax.set_xlim(left, right)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_yticks(range(len(rows)), [name for name, _, _ in rows])
    ax.set_xlabel("bb/100 (big bets won per 100 hands) with 95% CI"
                  + ("\nred arrows: off the axis (value shown)" if clipped else ""))
    ax.set_title(f"{result.config.name}: win rates in bb/100 (95% CI)")
    fig.tight_layout()
    return fig


def _plots(result: TournamentResult, folder: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures = [("ci.png", ci_figure(result))]
    if result.config.format == "round_robin":
        figures.insert(0, ("crosstable.png", crosstable_figure(result)))
    written = []
    for name, fig in figures:
        path = folder / name
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written

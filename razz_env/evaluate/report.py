"""Tournament output: the table at the terminal, CSV/JSON files, a crosstable heatmap and a CI plot.

Standings rank agents by bb/100 (duplicate win rate against the field), the quantity every other
report shows; the openskill rating is a column of its own, never the rank.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from razz_env.evaluate.runner import PairingResult, TournamentResult


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
    }


def standings(result: TournamentResult) -> list[dict[str, Any]]:
    """Per-agent rows ranked by bb/100 (highest first, unplayed last), each with its ``rank`` first."""
    ordered = sorted(result.standings, key=lambda row: (math.isnan(row["bb_per_100"]), -row["bb_per_100"]))
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
    lines.append(f"{'rank':<5}{'agent':<28}{'bb/100':>9}{'95% CI':>18}{'hands':>9}{'rating':>9}")
    for row in standings(result):
        ci = f"±{row['ci95']:.2f}" if math.isfinite(row["ci95"]) else "n/a"
        lines.append(f"{row['rank']:<5}{row['agent']:<28}{row['bb_per_100']:>9.2f}{ci:>18}{row['hands']:>9}"
                     f"{row['rating']:>9.2f}")
    lines.append("ranked by bb/100 against the field; rating: openskill mu - 3 sigma over the blocks")
    if config.format == "round_robin":
        width = max(8, max(len(label) for label in result.labels[:12]) + 1)
        lines += ["", "crosstable: bb/100 of row agent against column agent"]
        lines.append(" " * 28 + "".join(f"{label[:width - 1]:>{width}}" for label in result.labels))
        for label, row in zip(result.labels, crosstable(result)):
            cells = "".join(f"{'-':>{width}}" if math.isnan(v) else f"{v:>{width}.1f}" for v in row)
            lines.append(f"{label[:27]:<28}{cells}")
        lines += ["", f"{'pairing':<44}{'bb/100':>9}{'95% CI':>20}{'sd':>9}{'plain CI':>10}{'hands':>9}"]
        for pairing in result.pairings:
            if pairing.opponent is None or pairing.agent > pairing.opponent:
                continue
            dup = pairing.duplicate
            name = f"{result.labels[pairing.agent]} vs {result.labels[pairing.opponent]}"
            mark = " *" if dup.significant else ""
            lines.append(f"{name[:43]:<44}{dup.mean_bb100:>9.2f}{f'[{dup.low:.1f}, {dup.high:.1f}]':>20}"
                         f"{dup.sd_bb100:>9.1f}{f'±{pairing.plain.half_width:.1f}':>10}{pairing.hands:>9}{mark}")
        lines.append("* 95% CI excludes zero; 'plain CI' is the half-width the same hands give without "
                     "duplicate pairing")
    lines += failure_lines(result)
    return "\n".join(lines)


def failure_lines(result: TournamentResult) -> list[str]:
    """One line per failed block: the block, the agent that failed, how and why."""
    return [f"FAILED block {failure['task_id']}: agent {result.labels[failure['error']['agent']]} "
            f"{failure['error']['kind']}: {failure['error']['message']}" for failure in result.failures]


def write_reports(result: TournamentResult, output: str | Path, plots: bool = True) -> list[Path]:
    """Write ``standings.csv``, ``pairings.csv``, ``summary.json`` and the PNG plots; returns the paths."""
    folder = Path(output)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    rows = pairing_rows(result)
    ranked = standings(result)
    for name, table in (("standings.csv", ranked), ("pairings.csv", rows)):
        path = folder / name
        if table:
            with open(path, "w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(table[0]))
                writer.writeheader()
                writer.writerows(table)
            written.append(path)
    summary = {
        "config": result.config.to_dict(),
        "config_id": result.config.config_id,
        "standings": ranked,
        "pairings": rows,
        "crosstable": {"labels": result.labels,
                       "bb_per_100": [[None if math.isnan(v) else v for v in row] for row in crosstable(result)]},
        "failures": result.failures,
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
    limit = float(np.nanmax(np.abs(table))) if np.isfinite(table).any() else 0.0
    limit = limit or 1.0
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


def ci_figure(result: TournamentResult) -> Any:
    """Each pairing's (and each agent's against the field) bb/100 with its 95% confidence interval."""
    import matplotlib.pyplot as plt

    labels = result.labels
    shown = [p for p in result.pairings if p.opponent is None or p.agent < p.opponent]
    names = [f"{labels[p.agent]} vs {'field' if p.opponent is None else labels[p.opponent]}" for p in shown]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(shown) + 1.5))
    means = [p.duplicate.mean_bb100 for p in shown]
    errors = [p.duplicate.half_width for p in shown]
    ax.errorbar(means, range(len(shown)), xerr=errors, fmt="o", capsize=3)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(range(len(shown)), names)
    ax.set_xlabel("bb/100 (big bets won per 100 hands) with 95% CI")
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

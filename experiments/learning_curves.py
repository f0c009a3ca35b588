"""Plot a training run's learning curve: duplicate bb/100 (95% CI) against each baseline.

Two panels: by environment steps and by wall-clock training minutes (2-core CPU).

    python experiments/learning_curves.py runs/ppo_razz experiments/ppo_razz/learning_curve.png
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from pathlib import Path


def read_eval(run: Path) -> dict[str, list[dict[str, float]]]:
    """``eval.csv`` rows grouped by opponent, and by table size (``"tag @ 6 seats"``) when a run of mixed
    table sizes evaluated at several (one curve must not join two sizes' figures)."""
    with open(run / "eval.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    mixed = len({row.get("seats") for row in rows}) > 1
    series: dict[str, list[dict[str, float]]] = defaultdict(list)
    for row in rows:
        name = f"{row['opponent']} @ {row['seats']} seats" if mixed else row["opponent"]
        series[name].append({k: float(v) for k, v in row.items() if k != "opponent"})
    return series


def plot_run(run: Path, target: Path, title: str) -> Path:
    """Write the two-panel learning curve of ``run`` to ``target``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = read_eval(run)
    target.parent.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for axis, x_key, label in ((axes[0], "steps", "environment steps"),
                               (axes[1], "train_minutes", "training minutes (2-core CPU)")):
        for opponent, rows in sorted(series.items()):
            xs = [r[x_key] for r in rows]
            means = [r["bb_per_100"] for r in rows]
            axis.plot(xs, means, marker="o", label=f"vs {opponent}")
            axis.fill_between(xs, [r["ci95_low"] for r in rows], [r["ci95_high"] for r in rows], alpha=0.2)
        axis.axhline(0, color="grey", lw=1)
        axis.set_xlabel(label)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("duplicate bb/100 (95% CI)")
    axes[0].legend()
    fig.suptitle(f"{title}: learning curve")
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python experiments/learning_curves.py RUN_DIR OUTPUT.png")
    print(plot_run(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[1]).name))

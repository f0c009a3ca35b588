"""A training run's learning curve: duplicate bb/100 (95% CI) against each evaluation opponent, from ``eval.csv``.

Two panels: by environment steps and by training minutes. Several run folders, each started from a model of
the one before (``init_model``), plot as one curve: each run's steps and minutes continue from the model it
started from, and a dashed line marks where each run begins. The zoo plots every shipped agent's curve with
it; from the command line:

    razz curves runs/first runs/second curve.png
"""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from razz_env.engine.errors import ConfigError
from razz_env.train.runfolder import CONFIG, RunFolder

KEYS = ("steps", "minutes", "train_minutes")


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


def start_of(run: Path, before: Path) -> dict[str, float]:
    """Steps and minutes of ``before`` at the model ``run`` started from (its ``init_model``, matched by SHA-256
    to ``before``'s final model or a checkpoint); a run that did not start from one of them is a ConfigError."""
    start = RunFolder(run).read_json(CONFIG, {}).get("init_model") or {}
    folder = RunFolder(before)
    names = [name for name, digest in folder.hashes().items()
             if digest == start.get("sha256") and not name.startswith("snapshots/")]
    if not names:
        raise ConfigError(f"{run}: did not start from a model of {before} (its init_model is {start or None})")
    steps = folder.model_steps(names[0])
    minutes, train_minutes = folder.clock_at(steps)
    return {"steps": float(steps), "minutes": minutes, "train_minutes": train_minutes}


def read_chain(runs: list[Path]) -> tuple[dict[str, list[dict[str, float]]], list[dict[str, float]]]:
    """The rows of runs that each continue the one before, on one axis (steps and minutes since the first run's
    start), and where each run after the first begins. A run continued from one of its checkpoints contributes
    its rows up to that checkpoint only."""
    begins = [start_of(run, before) for before, run in zip(runs, runs[1:])]
    series: dict[str, list[dict[str, float]]] = defaultdict(list)
    offset = dict.fromkeys(KEYS, 0.0)
    starts = []
    for index, run in enumerate(runs):
        if index:
            offset = {key: offset[key] + begins[index - 1][key] for key in KEYS}
            starts.append(dict(offset))
        end = begins[index]["steps"] if index < len(begins) else float("inf")
        for name, rows in read_eval(run).items():
            series[name] += [{**row, **{key: row[key] + offset[key] for key in KEYS}} for row in rows
                             if row["steps"] <= end]
    return series, starts


def plot_run(run: Path | list[Path], target: Path, title: str) -> Path:
    """Write the two-panel learning curve of ``run`` (or of runs that each continue the one before) to
    ``target``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series, starts = read_chain(run if isinstance(run, list) else [run])
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
        for start in starts:
            axis.axvline(start[x_key], color="black", lw=1, ls="--")
        axis.set_xlabel(label)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("duplicate bb/100 (95% CI)")
    axes[0].legend()
    fig.suptitle(f"{title}: learning curve")
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


@dataclass(frozen=True)
class Args:
    """``razz curves``'s arguments (:func:`run`)."""

    runs: tuple[str, ...] = field(metadata={"positional": True, "metavar": "RUN"})
    """run folders, each started from a model of the one before"""
    output: str = field(metadata={"positional": True, "metavar": "OUTPUT.png"})
    """the picture to write"""


def run(args: Args) -> int:
    """``razz curves``: plot the runs as one curve and print the picture's path."""
    folders = [Path(folder) for folder in args.runs]
    print(plot_run(folders, Path(args.output), " then ".join(folder.name for folder in folders)))
    return 0

"""``razz solve``: solve a MiniRazz game to a run folder — the average policy, its convergence and a summary.

The folder gets ``policy.npz`` (:class:`~razz_env.solve.policy.TabularPolicy`, which a
``TabularPolicyAgent`` plays), ``convergence.csv`` (iterations, seconds spent iterating,
exploitability in mbb/hand), ``convergence.png`` (exploitability against iterations and
against seconds, both log scale) and ``summary.json`` (the game's size, the method, the
final exploitability, the build and solve times and the peak memory). A folder that
already holds a solve is refused unless ``fresh`` (delete those files first), and
everything is checked before the solve starts, so a bad argument costs nothing.
"""

from __future__ import annotations

import csv
import json
import math
import resource
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.engine.errors import ConfigError
from razz_env.solve.cfr import SOLVERS, Checkpoint
from razz_env.solve.game import Game, build_game

POLICY, CONVERGENCE_CSV, CONVERGENCE_PNG, SUMMARY = "policy.npz", "convergence.csv", "convergence.png", "summary.json"
OUTPUTS = (POLICY, CONVERGENCE_CSV, CONVERGENCE_PNG, SUMMARY)


@dataclass(frozen=True)
class SolveSummary:
    """What ``summary.json`` holds."""

    game: str
    method: str
    iterations: int
    solve_seconds: float
    build_seconds: float
    exploitability_mbb: float
    game_value_chips: float
    counts: dict[str, int]
    tree_megabytes: float
    peak_rss_megabytes: float


def prepare_folder(output: str | Path, fresh: bool) -> Path:
    """The run folder, created; ``ConfigError`` if it holds an earlier solve (unless ``fresh``) or is unwritable."""
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--output: {folder} is a file, not a folder")
    earlier = [name for name in OUTPUTS if (folder / name).exists()]
    if earlier and not fresh:
        raise ConfigError(f"--output: {folder} already holds a solve ({', '.join(earlier)}); "
                          "pass --fresh to replace it or choose another --output")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".razz-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise ConfigError(f"--output: cannot write in {folder}: {err.strerror or err}") from None
    for name in earlier:
        (folder / name).unlink()
    return folder


def solve(game_name: str, output: str | Path, *, method: str = "dcfr", iterations: int | None = None,
          target_mbb: float | None = None, seconds: float | None = None, check_every: int = 10,
          fresh: bool = False, plots: bool = True,
          report: Callable[[Checkpoint], object] | None = None) -> tuple[SolveSummary, list[Path]]:
    """Solve ``game_name`` with ``method`` until the stop rule, write the run folder; returns the summary and files."""
    if method not in SOLVERS:
        raise ConfigError(f"--method: unknown solver {method!r}; known: {', '.join(SOLVERS)}")
    if iterations is None and target_mbb is None and seconds is None:
        raise ConfigError("give --iterations, --target-mbb or --seconds (or several: the first reached stops)")
    if seconds is not None and not math.isfinite(seconds):
        raise ConfigError(f"--seconds: expected a finite number of seconds, got {seconds}; give --iterations or "
                          "--target-mbb for a run that stops on those alone")
    began = time.perf_counter()
    game = build_game(game_name)
    build_seconds = time.perf_counter() - began
    solver = SOLVERS[method](game)
    folder = prepare_folder(output, fresh)
    solver.run(iterations, target_mbb=target_mbb, seconds=seconds, check_every=check_every, callback=report)
    final = solver.exploitability()
    policy = solver.average_policy()
    policy.exploitability_mbb = final.mbb
    summary = SolveSummary(
        game=game_name, method=method, iterations=solver.iterations, solve_seconds=round(solver.seconds, 3),
        build_seconds=round(build_seconds, 3), exploitability_mbb=final.mbb, game_value_chips=final.value,
        counts=game.counts(), tree_megabytes=round(array_bytes(game) / 2**20, 1),
        peak_rss_megabytes=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1))
    written = [policy.save(folder / POLICY), write_convergence(solver.history, folder / CONVERGENCE_CSV)]
    if plots:
        written.append(plot_convergence({f"{game_name} {method}": solver.history}, folder / CONVERGENCE_PNG))
    path = folder / SUMMARY
    path.write_text(json.dumps(asdict(summary), indent=2) + "\n", encoding="utf-8")
    written.append(path)
    return summary, written


def array_bytes(game: Game) -> int:
    """Bytes of the numpy arrays the game (the flattened tree) holds."""
    return sum(value.nbytes for value in vars(game).values() if isinstance(value, np.ndarray))


def write_convergence(history: list[Checkpoint], path: Path) -> Path:
    """``iteration,seconds,exploitability_mbb`` rows, one per measurement."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(("iteration", "seconds", "exploitability_mbb"))
        writer.writerows((point.iteration, f"{point.seconds:.4f}", f"{point.mbb:.6g}") for point in history)
    return path


def read_convergence(path: str | Path) -> list[Checkpoint]:
    """The measurements of a ``convergence.csv``."""
    with open(path, newline="", encoding="utf-8") as handle:
        return [Checkpoint(int(row["iteration"]), float(row["seconds"]), float(row["exploitability_mbb"]))
                for row in csv.DictReader(handle)]


def plot_convergence(curves: dict[str, list[Checkpoint]], path: Path, extra: dict[str, Any] | None = None) -> Path:
    """Exploitability (mbb/hand, log) against iterations and against seconds (log), one line per curve."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (by_iteration, by_time) = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, history in curves.items():
        points = [p for p in history if p.mbb > 0]
        by_iteration.plot([p.iteration for p in points], [p.mbb for p in points], label=label)
        by_time.plot([max(p.seconds, 1e-3) for p in points], [p.mbb for p in points], label=label)
    for ax, xlabel in ((by_iteration, "iterations"), (by_time, "seconds spent iterating")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("exploitability, mbb/hand")
        ax.axhline(1.0, color="grey", lw=0.8, ls=":")
        ax.grid(True, which="both", alpha=0.3)
    by_iteration.legend()
    fig.suptitle((extra or {}).get("title", "exploitability of the average policy"))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path

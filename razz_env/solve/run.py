"""``razz solve``: solve a MiniRazz game to a run folder — the average policy, its convergence and a summary.

Solves a small stud game exactly (the heads-up MiniRazz presets) with vectorised CFR+ or discounted CFR, measuring
the average policy's exact exploitability (NashConv/2, mbb/hand of the big bet) as it goes (docs/solving.md).

The folder gets ``policy.npz`` (:class:`~razz_env.solve.policy.TabularPolicy`, which a
``TabularPolicyAgent`` plays), ``convergence.csv`` (iterations, seconds spent iterating,
exploitability in mbb/hand), ``convergence.png`` (exploitability against iterations and
against seconds, both log scale) and ``summary.json`` (the game's size, the method, the
final exploitability, the build and solve times and the peak memory). A folder that
already holds a solve is refused unless ``fresh``; everything is checked before the solve
starts, so a bad argument costs nothing. The earlier solve's files are replaced only once the
new ones are written (each written whole, then renamed over the old). While it runs, the solver's
state is saved to ``checkpoint.npz`` every :data:`CHECKPOINT_SECONDS` (at a measurement); a solve
stopped by Ctrl-C or a kill resumes from it when the same command is run again (without
``fresh``), and the checkpoint is removed once the solve's files are written.
"""

from __future__ import annotations

import csv
import json
import math
import os
import resource
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import VARIANTS
from razz_env.solve.cfr import SOLVERS, CFRSolver, Checkpoint
from razz_env.solve.game import Game, build_game

POLICY, CONVERGENCE_CSV, CONVERGENCE_PNG, SUMMARY = "policy.npz", "convergence.csv", "convergence.png", "summary.json"
OUTPUTS = (POLICY, CONVERGENCE_CSV, CONVERGENCE_PNG, SUMMARY)
CHECKPOINT = "checkpoint.npz"
CHECKPOINT_SECONDS = 60.0


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
    """The run folder, created; ``ConfigError`` if it holds a finished solve (unless ``fresh``, or a checkpoint
    resumes) or is unwritable. Deletes nothing: a new solve's files replace the old ones once written."""
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--output: {folder} is a file, not a folder")
    earlier = [name for name in OUTPUTS if (folder / name).exists()]
    if earlier and not fresh and not (folder / CHECKPOINT).exists():
        raise ConfigError(f"--output: {folder} already holds a solve ({', '.join(earlier)}); "
                          "pass --fresh to replace it or choose another --output")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".razz-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise ConfigError(f"--output: cannot write in {folder}: {err.strerror or err}") from None
    return folder


def save_checkpoint(solver: CFRSolver, game_name: str, path: Path) -> None:
    """The solver's state (its arrays, iterations, time and measurements), written whole then renamed in."""
    partial = path.with_name(path.name + ".tmp")
    history = np.array([(p.iteration, p.seconds, p.mbb) for p in solver.history], dtype=float).reshape(-1, 3)
    with open(partial, "wb") as handle:
        np.savez(handle, game=game_name, method=solver.method, regret=solver.regret, average=solver.average,
                 policy=solver.policy, iterations=solver.iterations, seconds=solver.seconds, history=history)
    os.replace(partial, path)


def load_checkpoint(solver: CFRSolver, game_name: str, path: Path) -> None:
    """Restore ``solver`` from ``path``; ``ConfigError`` if it is another game's or method's, or unreadable."""
    try:
        with np.load(path, allow_pickle=False) as data:
            saved = (str(data["game"]), str(data["method"]))
            if saved != (game_name, solver.method):
                raise ConfigError(f"--output: {path} is the checkpoint of a {saved[1]} solve of {saved[0]}, not "
                                  f"{solver.method} of {game_name}; pass --fresh to start over or choose another "
                                  f"--output")
            arrays = {name: data[name] for name in ("regret", "average", "policy")}
            if any(arrays[name].shape != getattr(solver, name).shape for name in arrays):
                raise ConfigError(f"--output: {path} does not fit {game_name}'s tree; pass --fresh to start over")
            iterations, seconds, history = int(data["iterations"]), float(data["seconds"]), data["history"]
    except (OSError, ValueError, KeyError, EOFError) as err:
        raise ConfigError(f"--output: {path}: unreadable checkpoint ({type(err).__name__}); pass --fresh to start "
                          f"over") from None
    for name, array in arrays.items():
        getattr(solver, name)[...] = array
    solver.iterations, solver.seconds = iterations, seconds
    solver.history = [Checkpoint(int(i), float(t), float(m)) for i, t, m in history]


@dataclass(frozen=True)
class Args:
    """``razz solve``'s settings (its flags; :func:`run`)."""

    game: str = limited("minirazz", choices=tuple(v for v in VARIANTS if v.startswith("minirazz")))
    """the game"""
    method: str = limited("dcfr", choices=tuple(SOLVERS))
    """the solver: discounted CFR (measured faster, docs/solving.md) or CFR+"""
    iterations: int | None = limited(None, minimum=1)
    """stop after this many iterations"""
    target_mbb: float | None = limited(None, above=0)
    """stop once the average policy is below this exploitability (mbb/hand)"""
    seconds: float | None = limited(None, above=0)
    """stop after this many seconds of iterating"""
    check_every: int = limited(10, minimum=1)
    """measure the exploitability every this many iterations"""
    output: str | None = None
    """run folder (None: runs/solve_<game>_<method>)"""
    fresh: bool = False
    """replace an earlier solve in the folder (once the new one is written) and ignore any checkpoint; without it,
    a checkpoint of an interrupted solve resumes"""
    plots: bool = True
    """draw convergence.png"""
    quiet: bool = False
    """no progress lines"""


def run(args: Args) -> int:
    """``razz solve``: check the arguments, solve with progress lines, print the result (exit status 130 when
    interrupted, keeping any earlier solve and the last checkpoint)."""
    output = args.output or f"runs/solve_{args.game}_{args.method.replace('+', 'plus')}"

    def report(point: Checkpoint) -> None:
        if not args.quiet:
            print(f"iteration {point.iteration:>6}  {point.seconds:8.1f} s  exploitability {point.mbb:.4g} mbb/hand",
                  flush=True)

    try:
        summary, paths = solve(args.game, output, method=args.method, iterations=args.iterations,
                               target_mbb=args.target_mbb, seconds=args.seconds, check_every=args.check_every,
                               fresh=args.fresh, plots=args.plots, report=report)
    except KeyboardInterrupt:
        kept = (f"its last checkpoint ({Path(output) / CHECKPOINT}) resumes when the command is run again without "
                f"--fresh" if (Path(output) / CHECKPOINT).exists() else "no checkpoint was due yet")
        print(f"razz solve: interrupted; an earlier solve in {output} is untouched, and {kept}", file=sys.stderr)
        return 130
    print(f"{summary.game} ({summary.counts['information_sets']:,} information sets): {summary.method} "
          f"{summary.iterations} iterations in {summary.solve_seconds:.1f} s, exploitability "
          f"{summary.exploitability_mbb:.4g} mbb/hand, peak memory {summary.peak_rss_megabytes:.0f} MB")
    print(f"wrote {', '.join(str(p) for p in paths)}")
    return 0


def solve(game_name: str, output: str | Path, *, method: str = "dcfr", iterations: int | None = None,
          target_mbb: float | None = None, seconds: float | None = None, check_every: int = 10,
          fresh: bool = False, plots: bool = True,
          report: Callable[[Checkpoint], object] | None = None) -> tuple[SolveSummary, list[Path]]:
    """Solve ``game_name`` with ``method`` until the stop rule, write the run folder; returns the summary and files.

    Without ``fresh``, a checkpoint in ``output`` resumes: ``iterations`` and ``seconds`` count the whole solve.
    """
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
    checkpoint = folder / CHECKPOINT
    if checkpoint.exists() and not fresh:
        load_checkpoint(solver, game_name, checkpoint)
    saved = [time.perf_counter()]

    def measured(point: Checkpoint) -> None:
        if time.perf_counter() - saved[0] >= CHECKPOINT_SECONDS:
            save_checkpoint(solver, game_name, checkpoint)
            saved[0] = time.perf_counter()
        if report is not None:
            report(point)

    left = None if iterations is None else iterations - solver.iterations
    time_left = None if seconds is None else seconds - solver.seconds
    reached = bool(solver.history) and target_mbb is not None and solver.history[-1].mbb < target_mbb
    if not (reached or (left is not None and left < 1) or (time_left is not None and time_left <= 0)):
        solver.run(left, target_mbb=target_mbb, seconds=time_left, check_every=check_every, callback=measured)
    final = solver.exploitability()
    policy = solver.average_policy()
    policy.exploitability_mbb = final.mbb
    summary = SolveSummary(
        game=game_name, method=method, iterations=solver.iterations, solve_seconds=round(solver.seconds, 3),
        build_seconds=round(build_seconds, 3), exploitability_mbb=final.mbb, game_value_chips=final.value,
        counts=game.counts(), tree_megabytes=round(array_bytes(game) / 2**20, 1),
        peak_rss_megabytes=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1))
    partial = folder / ".partial"
    shutil.rmtree(partial, ignore_errors=True)  # what a run killed while writing left there is not this run's
    partial.mkdir()
    written = [policy.save(partial / POLICY), write_convergence(solver.history, partial / CONVERGENCE_CSV)]
    if plots:
        written.append(plot_convergence({f"{game_name} {method}": solver.history}, partial / CONVERGENCE_PNG))
    path = partial / SUMMARY
    path.write_text(json.dumps(asdict(summary), indent=2) + "\n", encoding="utf-8")
    written.append(path)
    for name in OUTPUTS:
        if (partial / name).exists():
            os.replace(partial / name, folder / name)
        else:
            (folder / name).unlink(missing_ok=True)
    partial.rmdir()
    checkpoint.unlink(missing_ok=True)
    return summary, [folder / p.name for p in written]


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

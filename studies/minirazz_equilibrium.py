"""Which learning method approaches equilibrium in a stud game? MiniRazz, measured exactly, on CPU minutes.

One run = one method, one seed, a budget of training CPU minutes. The learned methods train through the
library's batched trainer (:mod:`razz_env.train.batch_ppo`, heads-up ``minirazz`` at the solved tree's table);
every ``--measure-every`` CPU seconds of training the policy *as it plays* (the masked softmax, stochastic; for
fictitious play the average of its snapshots) is read into the solved tree in one forward pass
(:class:`~razz_env.train.tree_policy.TreePolicies`) and its exploitability computed exactly. The tabular methods
(exact-oracle PSRO, CFR+) run on the tree itself for the same budget.

Methods (the learned ones are :data:`razz_env.train.methods.METHODS`; ``--set name=value`` changes any trainer
setting of a learned one):

- ``ppo``: self-play PPO, the current network in both seats (every decision trained);
- ``ppo_pool``: PPO, half its tables against the newest 10 snapshots of itself;
- ``mmd``: magnetic mirror descent (Sokota et al., 2023) as PPO's loss plus alpha KL(policy || uniform magnet) and
  KL(policy || the rollout's policy), the clipping off;
- ``mmd_moving``: the same with a moving magnet (a copy of the actor renewed every 200 updates);
- ``mmd_ema``: the same with the magnet an exponential moving average of the actor's weights (EMAgnet);
- ``fsp``: fictitious self-play, PPO's best response to the uniform mixture of all its snapshots, measured as
  that mixture (:func:`~razz_env.solve.mixture.mixture`, maintained as the snapshots join): the averaging
  method NFSP approximates with a network;
- ``double_oracle``: PSRO whose oracle is the exact best response (:mod:`razz_env.solve.double_oracle`);
- ``cfr_plus``: CFR+ (:mod:`razz_env.solve.cfr`), the reference;
- ``mccfr``: external-sampling Monte Carlo CFR (:mod:`razz_env.solve.sampled_cfr`: hands dealt by the batched
  engine, information sets keyed on the seat's vector), measured as its agent plays (the average strategy read
  into the tree through :func:`~razz_env.solve.agent.policy_from_agent`); seeded, no tree needed to train, so it
  is the one tree method that scales to razz.

Each run writes ``<output>/<method>[-<tag>]/seed<k>/``: ``curve.csv`` (training CPU minutes, wall minutes, steps
or iterations, mbb/hand), ``args.json``, ``policy.npz`` (the policy it plays at every information set, with its
exploitability: ``razz_env.agents.tabular_zoo.load_policy_file`` seats it), a learned run's ``final.pt`` (its
network), and while it runs a checkpoint that a
rerun of the same command resumes from (a resumed run deals new hands: it is the same run, not the same cards).
``--report`` reads every ``curve.csv`` under ``--output`` and writes ``table.csv`` (each run's exploitability at
5, 20, 60 and 120 CPU minutes: the last measurement at or before the budget; seed 0's runs marked ``tuning``) and
``equilibrium.png`` (every seed but the tuning seed's).

    python studies/minirazz_equilibrium.py --method mmd --seed 1 --minutes 20
    python studies/minirazz_equilibrium.py --report
    python studies/minirazz_equilibrium.py --report --publish docs/studies/minirazz_equilibrium   # into the docs
    python studies/minirazz_equilibrium.py --game minirazz_tiny --method fsp --minutes 0.2 --measure-every 3 \\
        --output /tmp/smoke                                      # a smoke run, seconds

Results: ``docs/studies/minirazz_equilibrium.md``.
"""

from __future__ import annotations

import csv
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from razz_env.command_line import run_script
from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError
from razz_env.train.budgeted import CURVE, STATE, Clock, append_row, budget_spent, read_state, write_json
from razz_env.train.methods import METHODS, method_settings, overrides

LEARNED = tuple(METHODS)
"""The learned methods: :data:`razz_env.train.methods.METHODS`, each over :data:`COMMON`."""
COMMON = {"variant": "minirazz", "stacks": 200, "total_steps": 10**12, "quiet": True}
"""Every learned run's table and horizon: the solved tree's table (200-chip stacks) and no step horizon (the CPU
budget ends a run, so the learning rate stays constant)."""
TABULAR = ("double_oracle", "cfr_plus")
SAMPLED = ("mccfr",)
"""Methods that sample hands instead of sweeping the tree: seeded, no trainer settings."""
SAMPLED_CHUNK = 2_000
"""Iterations between looks at the CPU clock (about a tenth of a second of MiniRazz)."""
TUNING_SEED = 0
"""The seed settings are chosen on: ``table.csv`` marks its runs ``tuning`` and the plot leaves them out."""
BUDGETS = (5, 20, 60, 120)
"""CPU minutes at which ``table.csv`` reads each run."""


@dataclass
class Args:
    """One run (method, seed, budget), or ``--report`` over every run in ``--output``."""

    method: str = "ppo"
    """``ppo``, ``ppo_pool``, ``mmd``, ``mmd_moving``, ``mmd_ema``, ``fsp``, ``double_oracle``, ``cfr_plus`` or
    ``mccfr``"""
    seed: int = 1
    """training seed (the tabular methods are deterministic: seed 1 only)"""
    minutes: float = limited(20.0, above=0)
    """training CPU minutes (the measurements are not counted)"""
    max_steps: int = 0
    """a learned run also stops at this many environment steps (0: the CPU budget alone); a run stopped by steps
    on one machine repeats on another, decision by decision, where one stopped by CPU time does not"""
    measure_every: float = limited(60.0, above=0)
    """training CPU seconds between exact measurements"""
    set: tuple[str, ...] = ()
    """trainer settings over the method's, as ``name=value`` (e.g. ``ent_coef=0.05``)"""
    tag: str = ""
    """a name for a run with ``--set`` settings (its folder is ``<method>-<tag>``)"""
    game: str = "minirazz"
    """the solved game (``minirazz``, or ``minirazz_tiny`` for a smoke run)"""
    output: str = "runs/minirazz_equilibrium"
    """where the runs' folders go, and what ``--report`` reads"""
    report: bool = False
    """write ``table.csv`` and ``equilibrium.png`` from the runs in ``--output`` instead of running"""
    publish: str = ""
    """with ``--report``: first copy each run's ``curve.csv``, ``args.json`` and settings (never its checkpoints)
    from ``--output`` into this folder (e.g. ``docs/studies/minirazz_equilibrium``), then report there"""


def trainer_settings(args: Args) -> dict[str, Any]:
    """The batched trainer's settings of a learned run: the method's, at the study's table, then ``--set``."""
    return method_settings(args.method, **{**COMMON, "variant": args.game, "seed": args.seed, **overrides(args.set)})


def run_folder(args: Args) -> Path:
    """``<output>/<method>[-<tag>]/seed<k>``."""
    return Path(args.output) / (args.method + (f"-{args.tag}" if args.tag else "")) / f"seed{args.seed}"


def figures(measured: Any) -> dict[str, float]:
    """A measurement's columns in ``curve.csv``: exploitability (mbb/hand) and each seat's best response (chips)."""
    return {"mbb": round(measured.mbb, 4), "best_response_0": round(measured.best_response[0], 6),
            "best_response_1": round(measured.best_response[1], 6)}


class ExactMeasure:
    """The evaluator of a learned run: the policy as it plays (fictitious play's: the mixture of its snapshots, kept
    as they join) read into the tree, and its exact exploitability."""

    def __init__(self, game: str, averaging: bool, name: str) -> None:
        from razz_env.solve.game import build_game
        from razz_env.solve.mixture import RunningMixture
        from razz_env.train.tree_policy import TreePolicies

        self.tree = TreePolicies(build_game(game))
        self.average = RunningMixture(self.tree.game) if averaging else None
        self.name = name
        self.policy: Any = None

    def evaluate(self, progress: Any) -> dict[str, float]:
        """Exploitability (mbb/hand) and each seat's best response (chips a hand)."""
        average = self.average
        while average is not None and average.count < len(progress.pool.networks):  # fsp keeps every snapshot
            average.add(self.tree.policy(progress.pool.networks[average.count]), 1.0)
        self.policy = average.policy() if average is not None else self.tree.policy(progress.agent.actor)
        measured = self.tree.exploitability(self.policy)
        self.policy.exploitability_mbb = measured.mbb
        return figures(measured)

    def save(self, folder: Path) -> None:
        """Fictitious play's running mixture."""
        if self.average is not None:
            self.average.save(folder / "mixture.npz")

    def load(self, folder: Path) -> None:
        """Fictitious play's running mixture, as saved."""
        if self.average is not None:
            self.average.load(folder / "mixture.npz")

    def finish(self, progress: Any, folder: Path) -> None:
        """``policy.npz``: what the run plays at every information set, with its exploitability."""
        self.policy.method = f"{self.name}, {progress.steps} steps"
        self.policy.save(folder / "policy.npz")


def run_learned(args: Args, folder: Path) -> None:
    """Train a learned method for ``args.minutes`` CPU minutes, measuring exactly as it goes; resumable."""
    from razz_env.train.budgeted import BudgetedRun

    name = f"{args.method}{'-' + args.tag if args.tag else ''} seed {args.seed}"
    measure = ExactMeasure(args.game, args.method == "fsp", name)
    BudgetedRun(folder, trainer_settings(args), minutes=args.minutes, every=args.measure_every, evaluator=measure,
                max_steps=args.max_steps, label=str(folder)).run()


class SampledSolver:
    """External-sampling MCCFR with the tree solvers' face: ``iterate`` runs :data:`SAMPLED_CHUNK` iterations,
    ``exploitability`` measures its agent exactly (its average strategy read into the tree as it plays)."""

    def __init__(self, game: Any, seed: int) -> None:
        from razz_env.solve.sampled_cfr import SampledCFR

        self.game, self.seed = game, seed
        self.solver = SampledCFR(game.config, seed=seed)
        self.measured_policy: Any = None

    @property
    def iterations(self) -> int:
        """Iterations run."""
        return self.solver.iterations

    def iterate(self) -> None:
        """A chunk of iterations."""
        self.solver.run(SAMPLED_CHUNK)

    def exploitability(self) -> Any:
        """The exact exploitability of the agent that plays the average strategy now."""
        from razz_env.solve.agent import policy_from_agent
        from razz_env.solve.best_response import exploitability
        from razz_env.solve.sampled_policy import SampledCFRAgent

        agent = SampledCFRAgent(self.solver.average_policy(), seed=self.seed)
        self.measured_policy = policy_from_agent(self.game, agent, check_suits=0)
        return exploitability(self.game, self.measured_policy)

    def average_policy(self) -> Any:
        """The policy last measured (a run ends on a measurement)."""
        return self.measured_policy


def run_tabular(args: Args, folder: Path) -> None:
    """Run exact-oracle PSRO, CFR+ or MCCFR for ``args.minutes`` CPU minutes, measuring every ``--measure-every``;
    a run starts over rather than resumes (it is minutes)."""
    from razz_env.solve.cfr import CFRPlus
    from razz_env.solve.double_oracle import DoubleOracle
    from razz_env.solve.game import build_game

    if args.seed != 1 and args.method in TABULAR:
        raise ConfigError(f"--seed: {args.method} is deterministic; run it with seed 1 only")
    for stale in (CURVE, STATE):
        (folder / stale).unlink(missing_ok=True)
    game = build_game(args.game)
    solver = {"double_oracle": DoubleOracle, "cfr_plus": CFRPlus}.get(args.method, lambda g: SampledSolver(
        g, args.seed))(game)
    clock = Clock()
    next_measure = 0.0
    while True:
        solver.iterate()
        clock.pause()
        done = clock.cpu >= args.minutes * 60
        if clock.cpu >= next_measure or done:
            measured = solver.exploitability()
            append_row(folder / CURVE, {"cpu_minutes": round(clock.cpu / 60, 4),
                                        "wall_minutes": round(clock.wall / 60, 4), "steps": solver.iterations,
                                        **figures(measured)})
            print(f"{folder}: {clock.cpu / 60:7.2f} CPU min  {solver.iterations:>8} iterations  "
                  f"{measured.mbb:9.4f} mbb/hand", flush=True)
            next_measure = clock.cpu + args.measure_every
        if done:
            policy = solver.policy() if args.method == "double_oracle" else solver.average_policy()
            policy.exploitability_mbb, policy.iterations = measured.mbb, solver.iterations
            policy.method = f"{args.method}, {solver.iterations} iterations"
            policy.save(folder / "policy.npz")
            write_json(folder / STATE, {"settings": settings_of(args), "clock": [clock.cpu, clock.wall],
                                        "steps": solver.iterations})
            return
        clock.resume()


def settings_of(args: Args) -> dict[str, Any]:
    """What a run's folder is checked against: a learned run's trainer settings, a solver's method (and seed)."""
    if args.method in LEARNED:
        return trainer_settings(args)
    return {"method": args.method, "seed": args.seed} if args.method in SAMPLED else {"method": args.method}


def publish(output: Path, destination: Path) -> Path:
    """Copy each run's results (``curve.csv``, ``args.json``, and ``settings.json``: its trainer settings, CPU
    minutes and steps) from ``output`` to the same place under ``destination``; returns ``destination``."""
    import shutil

    for curve in sorted(output.glob("*/seed*/curve.csv")):
        run = curve.parent
        target = destination / run.relative_to(output)
        target.mkdir(parents=True, exist_ok=True)
        for name in (CURVE, "args.json"):
            if (run / name).exists():
                shutil.copyfile(run / name, target / name)
        state = read_state(run) or {}
        write_json(target / "settings.json", {"settings": state.get("settings"),
                                              "cpu_minutes": round(state.get("clock", [0.0])[0] / 60, 3),
                                              "steps": state.get("steps")})
    return destination


def read_curves(output: Path) -> dict[tuple[str, int], list[dict[str, float]]]:
    """Every run's ``curve.csv`` under ``output``, by (method folder, seed)."""
    curves = {}
    for path in sorted(output.glob("*/seed*/curve.csv")):
        with open(path, newline="", encoding="utf-8") as handle:
            rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(handle)]
        if rows:
            curves[(path.parent.parent.name, int(path.parent.name[4:]))] = rows
    return curves


def at_budget(rows: list[dict[str, float]], minutes: float) -> float | None:
    """The last measurement at or before ``minutes`` CPU minutes (None when the run has not reached the budget)."""
    if rows[-1]["cpu_minutes"] < minutes:
        return None
    return [row for row in rows if row["cpu_minutes"] <= minutes + 1e-9][-1]["mbb"]


def report(output: Path) -> None:
    """``table.csv`` and ``equilibrium.png`` from the runs in ``output``."""
    curves = read_curves(output)
    if not curves:
        raise ConfigError(f"--report: no run in {output} (no */seed*/curve.csv)")
    with open(output / "table.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["method", "seed", "role", *[f"mbb_at_{b}_cpu_min" for b in BUDGETS], "last_cpu_minutes",
                         "last_mbb", "lowest_mbb"])
        for (method, seed), rows in curves.items():
            cells = [at_budget(rows, b) for b in BUDGETS]
            writer.writerow([method, seed, "tuning" if seed == TUNING_SEED else "result",
                             *["" if c is None else round(c, 2) for c in cells],
                             round(rows[-1]["cpu_minutes"], 2), round(rows[-1]["mbb"], 2),
                             round(min(r["mbb"] for r in rows), 2)])
    plot({run: rows for run, rows in curves.items() if run[1] != TUNING_SEED}, output / "equilibrium.png")
    print(f"wrote {output / 'table.csv'} and {output / 'equilibrium.png'}")


def plot(curves: dict[tuple[str, int], list[dict[str, float]]], path: Path) -> None:
    """Exploitability (log scale) against training CPU minutes (every method, CFR+ and exact PSRO included) and
    against environment steps (the learned methods), one colour a method, one line a seed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = sorted({method for method, _ in curves})
    colours = {m: plt.get_cmap("tab10")(i % 10) for i, m in enumerate(methods)}
    figure, (by_time, by_steps) = plt.subplots(1, 2, figsize=(13, 5))
    for (method, seed), rows in curves.items():
        label = method if seed == min(s for m, s in curves if m == method) else None
        mbb = [max(r["mbb"], 1e-3) for r in rows]
        by_time.plot([r["cpu_minutes"] for r in rows], mbb, color=colours[method], label=label, linewidth=1.2)
        if method.split("-")[0] in LEARNED:
            by_steps.plot([r["steps"] for r in rows], mbb, color=colours[method], label=label, linewidth=1.2)
    for axis, xlabel in ((by_time, "training CPU minutes (one core)"), (by_steps, "environment steps")):
        axis.set_yscale("log")
        axis.set_xlabel(xlabel)
        axis.set_ylabel("exact exploitability (mbb/hand)")
        axis.grid(True, which="both", alpha=0.3)
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=8)
    figure.suptitle("MiniRazz: exploitability of the policy as it plays, every seed")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main(args: Args) -> None:
    """Run one method and seed, or report."""
    if args.report:
        report(publish(Path(args.output), Path(args.publish)) if args.publish else Path(args.output))
        return
    if args.method not in (*LEARNED, *TABULAR, *SAMPLED):
        raise ConfigError(f"--method: unknown {args.method!r}; known: {', '.join((*LEARNED, *TABULAR, *SAMPLED))}")
    if args.set and not args.tag:
        raise ConfigError("--set: name the run with --tag, so that its folder differs from the method's own")
    if args.method in (*TABULAR, *SAMPLED) and args.set:
        raise ConfigError(f"--set: {args.method} is not a trainer and has no trainer settings")
    folder = run_folder(args)
    settings = settings_of(args)
    if budget_spent(folder, args.minutes, args.max_steps, settings):
        print(f"{folder}: has its {args.minutes} CPU minutes or {args.max_steps} steps already (a larger budget goes "
              f"on)")
        return
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / "args.json", dataclasses.asdict(args))
    (run_learned if args.method in LEARNED else run_tabular)(args, folder)


if __name__ == "__main__":
    run_script(main, Args, __doc__)

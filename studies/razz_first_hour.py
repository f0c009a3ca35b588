"""A learning method's first hour on heads-up razz, as it trains: local best response and a match against the zoo.

The method (one of :data:`razz_env.train.methods.METHODS`, ``--set`` to change a setting) trains on the batched
engine at razz's default table (1,000-chip stacks, the table of ``ppo_razz_psro`` and of ``razz tournament``) for
``--minutes`` of training CPU time, as a :class:`~razz_env.train.budgeted.BudgetedRun` (checkpointed; rerun the
command to go on). At the start and every ``--evaluate-every`` CPU minutes the policy as it plays (the masked
softmax, stochastic) is saved as ``policy_<steps>.pt`` and measured, the clock paused:

- **LBR**: :func:`razz_env.exploitability` with ``method="lbr"``, ``--lbr-deals`` duplicate deals: a lower bound
  on its exploitability, bb/100 with its 95% CI;
- **a match** against ``--opponent`` (default ``ppo_razz_psro``), ``--match-deals`` duplicate deals with AIVAT
  beside the raw figure, each with its 95% CI.

Both use the same seeds at every evaluation, so the checkpoints meet the same deals. ``curve.csv`` in the run
folder (``<output>/<method>[-<tag>]/seed<k>``) holds a row per evaluation.

    python studies/razz_first_hour.py --method mmd --minutes 60 --evaluate-every 15
    python studies/razz_first_hour.py --minutes 0.05 --evaluate-every 10 --lbr-deals 2 --match-deals 2 \\
        --output /tmp/smoke                                                  # a smoke run, a minute

Results: ``docs/studies/razz_first_hour.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from razz_env.command_line import run_script
from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError
from razz_env.train.methods import method_settings, overrides


@dataclass
class Args:
    """The method, its budget and the measurements."""

    method: str = "mmd"
    """a method of ``razz_env.train.methods`` (``ppo``, ``ppo_pool``, ``mmd``, ``mmd_moving``, ``fsp``)"""
    set: tuple[str, ...] = ()
    """trainer settings over the method's, as ``name=value`` (e.g. ``ent_coef=0.05``)"""
    tag: str = ""
    """a name for a run with ``--set`` settings (its folder is ``<method>-<tag>``)"""
    seed: int = 1
    """training seed"""
    minutes: float = 60.0
    """training CPU minutes (the evaluations are not counted)"""
    evaluate_every: float = 15.0
    """training CPU minutes between evaluations"""
    lbr_deals: int = limited(500, minimum=1)
    """duplicate deals of each LBR measurement"""
    match_deals: int = limited(1000, minimum=1)
    """duplicate deals of each match against ``--opponent``"""
    opponent: str = "ppo_razz_psro"
    """the zoo agent it plays"""
    eval_seed: int = 2026
    """the deals' seed of every evaluation (the same at each, so checkpoints meet the same deals)"""
    workers: int = limited(1, minimum=1)
    """worker processes of the evaluations"""
    output: str = "runs/razz_first_hour"
    """where the run's folder goes"""


def trainer_settings(args: Args) -> dict[str, Any]:
    """The trainer's settings: the method's at razz's default heads-up table, then ``--set``."""
    return method_settings(args.method, variant="razz", stacks=1000, total_steps=10**12, quiet=True, seed=args.seed,
                           **overrides(args.set))


class RazzEvaluation:
    """Saves the policy as it plays and measures it: LBR, and a duplicate match with AIVAT."""

    def __init__(self, args: Args, settings: dict[str, Any], folder: Path) -> None:
        from razz_env.train.budgeted import trainer_args

        self.args, self.folder = args, folder
        self.trainer = trainer_args(settings, folder)

    def evaluate(self, progress: Any) -> dict[str, float]:
        """LBR's bound and the match's raw and AIVAT win rates, each with its 95% CI (bb/100)."""
        from razz_env.evaluate.api import match
        from razz_env.exploit.api import exploitability
        from razz_env.train.batch_ppo import save_policy

        args = self.args
        path = self.folder / f"policy_{progress.steps}.pt"
        save_policy(path, progress.agent, self.trainer, progress.steps)
        spec = {"type": str(path), "deterministic": False, "seed": args.eval_seed}
        bound = exploitability(spec, "lbr", deals=args.lbr_deals, seed=args.eval_seed, workers=args.workers,
                               output=str(self.folder / f"lbr_{progress.steps}"), fresh=True)
        played = match(spec, args.opponent, deals=args.match_deals, seed=args.eval_seed, workers=args.workers,
                       aivat=True)
        figures = {"lbr_bb100": bound.bb_per_100, "lbr_low": bound.ci95_low, "lbr_high": bound.ci95_high,
                   "match_bb100": played.bb_per_100, "match_low": played.ci95_low, "match_high": played.ci95_high,
                   "aivat_bb100": played.aivat_bb_per_100, "aivat_low": played.aivat_ci95_low,
                   "aivat_high": played.aivat_ci95_high}
        return {**{name: round(value, 3) for name, value in figures.items()},
                "lbr_off_policy": bound.off_policy_actions, "aivat_reliable": played.aivat_reliable}

    def save(self, folder: Path) -> None:
        """Nothing of its own to keep."""

    def load(self, folder: Path) -> None:
        """Nothing of its own to read back."""

    def finish(self, progress: Any, folder: Path) -> None:
        """The last evaluation's policy file is the run's result."""


def main(args: Args) -> None:
    """Train and evaluate (or go on)."""
    import json

    from razz_env.train.budgeted import BudgetedRun

    if args.set and not args.tag:
        raise ConfigError("--set: name the run with --tag, so that its folder differs from the method's own")
    settings = trainer_settings(args)
    folder = Path(args.output) / (args.method + (f"-{args.tag}" if args.tag else "")) / f"seed{args.seed}"
    run = BudgetedRun(folder, settings, minutes=args.minutes, every=args.evaluate_every * 60,
                      evaluator=RazzEvaluation(args, settings, folder), label=str(folder))
    if run.done():
        print(f"{folder}: has its {args.minutes} CPU minutes already (a larger --minutes goes on)")
        return
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "args.json").write_text(json.dumps(vars(args), indent=2) + "\n", encoding="utf-8")
    run.run()


if __name__ == "__main__":
    run_script(main, Args, __doc__)

"""The heads-up razz flagship, trained in stages: the MiniRazz study's method on razz, an hour at a time.

The method is the one ``docs/studies/minirazz_equilibrium.md`` selected, ``ppo`` self-play with a decaying
entropy bonus (``--set ent_coef=0.05 regularisation_halflife=1000``), at razz's default heads-up table (1,000-chip
stacks), on the batched engine. Each training seed is one run cut into stages of ``--stage-updates`` updates
(about an hour of one core each): stage ``i`` goes on from stage ``i - 1``'s last checkpoint
(:class:`~razz_env.train.budgeted.BudgetedRun` with ``start_from``) and stops at ``i`` stages' steps, so a stage
that ran uninterrupted repeats decision by decision; one interrupted resumes from its own checkpoint (written every
``--checkpoint-every`` CPU minutes). Each stage's ``final.pt`` is the policy as it plays (the masked softmax).

    python studies/razz_flagship.py --seed 1 --stage 1          # ~1 CPU hour; rerun to go on after a stop
    python studies/razz_flagship.py --seed 1 --stage 2          # starts from stage 1's checkpoint
    python studies/razz_flagship.py --seed 1 --stage 1 --stage-updates 2 --output /tmp/smoke   # a smoke run

The selection rule, written before any figure: ``docs/studies/razz_flagship.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from razz_env.command_line import run_script
from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError
from razz_env.train.methods import method_settings

METHOD = "ppo"
SETTINGS = {"ent_coef": 0.05, "regularisation_halflife": 1000}
"""The study's selected method and settings (``razz_first_hour.py --method ppo --set ent_coef=0.05
regularisation_halflife=1000``)."""


@dataclass
class Args:
    """Which seed's stage to train, and where."""

    seed: int = limited(1, minimum=0)
    """training seed"""
    stage: int = limited(1, minimum=1)
    """the stage to train (stage 1 starts from fresh weights; a later one from the stage before)"""
    stage_updates: int = limited(800, minimum=1)
    """updates per stage (800 x 32,768 steps: about an hour of one core)"""
    checkpoint_every: float = limited(15.0, above=0)
    """training CPU minutes between checkpoints"""
    output: str = "runs/razz_flagship"
    """where the seeds' folders go (``<output>/seed<k>/stage<i>``)"""


def trainer_settings(seed: int) -> dict[str, Any]:
    """The trainer's settings of training seed ``seed``: the method's at razz's default heads-up table; the
    learning rate constant (the run has no planned end)."""
    return method_settings(METHOD, variant="razz", stacks=1000, total_steps=10**12, quiet=True, seed=seed,
                           **SETTINGS)


def stage_folder(output: str | Path, seed: int, stage: int) -> Path:
    """The run folder of a seed's stage."""
    return Path(output) / f"seed{seed}" / f"stage{stage}"


def main(args: Args) -> None:
    """Train the stage (or go on with it)."""
    from razz_env.train.batch_ppo import Args as TrainerArgs
    from razz_env.train.budgeted import BudgetedRun, Checkpoints, budget_spent

    settings = trainer_settings(args.seed)
    rollout = TrainerArgs.num_tables * TrainerArgs.num_steps
    folder = stage_folder(args.output, args.seed, args.stage)
    earlier = stage_folder(args.output, args.seed, args.stage - 1) if args.stage > 1 else None
    if earlier is not None and not budget_spent(earlier, float("inf"), (args.stage - 1) * args.stage_updates * rollout):
        raise ConfigError(f"--stage {args.stage}: stage {args.stage - 1} of seed {args.seed} is not finished "
                          f"({earlier}); train it first")
    run = BudgetedRun(folder, settings, minutes=float("inf"), every=args.checkpoint_every * 60,
                      evaluator=Checkpoints(), max_steps=args.stage * args.stage_updates * rollout,
                      label=str(folder), start_from=earlier)
    if run.done():
        print(f"{folder}: finished already ({folder / 'final.pt'})")
        return
    run.run()


if __name__ == "__main__":
    run_script(main, Args, __doc__)

"""Train an SB3 agent on the single-agent view from a training YAML (``razz train``; needs the train extra).

The run folder holds checkpoints, the learning curve and the final model; a run resumes with --resume. See
docs/training.md.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

from razz_env.engine.checks import limited
from razz_env.train.config import MAX_SEED, VEC_ENVS


@dataclass(frozen=True)
class Args:
    """``razz train``'s settings (its flags; :func:`run`); a flag given replaces the config's setting."""

    config: str = field(metadata={"metavar": "YAML"})
    """training YAML, e.g. configs/train_ppo_razz.yaml"""
    steps: int | None = limited(None, minimum=1)
    """override total_timesteps"""
    n_envs: int | None = limited(None, minimum=1)
    """override n_envs: environments stepped together"""
    vec_env: str | None = limited(None, choices=VEC_ENVS)
    """override vec_env: one process (dummy), one per environment (subproc), the tables of the batched engine
    (batch; needs the batch extra) or batch when the pool allows (auto)"""
    max_minutes: float | None = limited(None, above=0)
    """stop after this wall-clock time"""
    seed: int | None = limited(None, minimum=0, maximum=MAX_SEED)
    """override seed"""
    output: str | None = None
    """run folder (default runs/<config name>)"""
    resume: bool = False
    """continue the run in the folder from its newest checkpoint that verifies and loads"""
    fresh: bool = False
    """delete the earlier run in the folder first (says what it deletes)"""
    dry_run: bool = False
    """check the config, the run folder and the model settings, then stop"""
    quiet: bool = False
    """no progress bar"""


def run(args: Args) -> int:
    """``razz train``: the summary line (the plan as JSON with --dry-run); exit 130 when interrupted."""
    from razz_env.train.config import TrainConfig
    from razz_env.train.trainer import TrainingInterrupted, summary_line, train

    def notify(message: str) -> None:
        print(f"razz train: {message}", file=sys.stderr)

    overrides = {"total_timesteps": args.steps, "output": args.output, "seed": args.seed, "n_envs": args.n_envs,
                 "vec_env": args.vec_env, "max_minutes": args.max_minutes}
    config = TrainConfig.from_yaml(args.config, **overrides)
    try:
        summary = train(config, resume=args.resume, fresh=args.fresh, progress=not args.quiet,
                        dry_run=args.dry_run, notify=notify)
    except TrainingInterrupted as err:
        notify(str(err))
        return 130
    except KeyboardInterrupt:
        notify("interrupted outside the training loop; no checkpoint was saved now")
        return 130
    print(json.dumps(summary, indent=2) if args.dry_run else summary_line(summary, config.output))
    return 0

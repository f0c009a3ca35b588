"""Train an SB3 agent on the single-agent view from a training YAML (``razz train``; needs the train extra).

The run folder holds checkpoints, the learning curve and the final model; a run resumes with --resume. See
docs/training.md.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field

from razz_env.engine.errors import ConfigError


@dataclass(frozen=True)
class Args:
    """``razz train``'s settings (its flags; :func:`run`); a flag given replaces the config's setting."""

    config: str = field(metadata={"metavar": "YAML"})
    """training YAML, e.g. configs/train_ppo_razz.yaml"""
    steps: int | None = None
    """override total_timesteps"""
    n_envs: int | None = None
    """override n_envs: environments stepped together"""
    vec_env: str | None = field(default=None, metadata={"choices": ["auto", "dummy", "subproc", "batch"]})
    """override vec_env: one process (dummy), one per environment (subproc), the tables of the batched engine
    (batch; needs the batch extra) or batch when the pool allows (auto)"""
    max_minutes: float | None = None
    """stop after this wall-clock time"""
    seed: int | None = None
    """override seed (0 to 2**32 - 1)"""
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


def check(args: Args) -> None:
    """Refuse a flag value no config could hold, naming the flag."""
    for flag, value in (("--steps", args.steps), ("--n-envs", args.n_envs)):
        if value is not None and value < 1:
            raise ConfigError(f"{flag}: expected a positive integer, got {value}")
    if args.max_minutes is not None and not (math.isfinite(args.max_minutes) and args.max_minutes > 0):
        raise ConfigError(f"--max-minutes: expected a positive number of minutes, got {args.max_minutes}")
    if args.seed is not None and not 0 <= args.seed < 2**32:
        raise ConfigError(f"--seed: expected an integer from 0 to {2**32 - 1}, got {args.seed}")


def run(args: Args) -> int:
    """``razz train``: the summary line (the plan as JSON with --dry-run); exit 130 when interrupted."""
    from razz_env.train.config import TrainConfig
    from razz_env.train.trainer import TrainingInterrupted, summary_line, train

    def notify(message: str) -> None:
        print(f"razz train: {message}", file=sys.stderr)

    check(args)
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

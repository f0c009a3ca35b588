"""Training throughput: env steps/s and the share of time in the environment, by vectorisation.

Runs short MaskablePPO trainings of the shipped config with the environments in this process
(``dummy``) or in worker processes (``subproc``, one process per environment), and prints steps/s
and the share of wall time spent waiting on the environments (the rest is the learner: policy
inference during rollouts and the PPO updates).

    python experiments/throughput.py --steps 32768
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass

from razz_env.train.config import TrainConfig
from razz_env.train.trainer import train

SETUPS = (("dummy", 2), ("subproc", 2), ("dummy", 16))


@dataclass
class Args:
    """Steps per setup and the config measured."""

    steps: int = 32768
    config: str = "configs/train_ppo_razz.yaml"


def main(args: Args) -> None:
    print(f"{'setup':<28}{'steps/s':>10}{'env share':>11}{'learner share':>15}")
    for vec_env, n_envs in SETUPS:
        with tempfile.TemporaryDirectory() as output:
            config = TrainConfig.from_yaml(args.config, total_timesteps=args.steps, vec_env=vec_env, n_envs=n_envs,
                                           output=output, eval_every=10**9, checkpoint_every=10**9)
            summary = train(config, progress=False)
        processes = n_envs if vec_env == "subproc" else 1
        label = f"{vec_env}, {n_envs} envs, {processes} process{'es' if processes > 1 else ''}"
        print(f"{label:<28}{summary['steps_per_second']:>10.0f}{summary['env_share']:>11.0%}"
              f"{1 - summary['env_share']:>15.0%}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=Args.steps)
    parser.add_argument("--config", default=Args.config)
    main(Args(**vars(parser.parse_args())))

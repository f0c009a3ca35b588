"""Training throughput: env steps/s and the share of time in the environment, by vectorisation.

Runs short MaskablePPO trainings of a train config with the environments in this process (``dummy``) or in
worker processes (``subproc``, one process per environment), and prints steps/s and the share of wall time
spent waiting on the environments (the rest is the learner: policy inference during rollouts and the PPO
updates). Results: ``docs/studies/throughput.md``.

    python studies/throughput.py --steps 32768
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass

from razz_env.command_line import run_script
from razz_env.engine.errors import ConfigError
from razz_env.train.config import TrainConfig
from razz_env.train.trainer import train


@dataclass
class Args:
    """Steps per setup, the setups and the config measured."""

    steps: int = 32768
    """environment steps of each short training"""
    setups: tuple[str, ...] = ("dummy:2", "subproc:2", "dummy:16")
    """``VEC_ENV:N_ENVS`` pairs: ``dummy`` (this process) or ``subproc`` (a process per environment)"""
    config: str = "configs/train_ppo_razz.yaml"
    """the train config whose algorithm, network and table are measured"""


def main(args: Args) -> None:
    """Train ``args.steps`` steps per setup into a temporary folder and print its throughput."""
    setups = [setup.split(":") for setup in args.setups]
    if any(len(s) != 2 or s[0] not in ("dummy", "subproc") or not s[1].isdigit() or int(s[1]) < 1 for s in setups):
        raise ConfigError(f"--setups: expected VEC_ENV:N_ENVS with dummy or subproc and a positive count, got "
                          f"{' '.join(args.setups)}")
    print(f"{'setup':<28}{'steps/s':>10}{'env share':>11}{'learner share':>15}")
    for vec_env, count in setups:
        n_envs = int(count)
        with tempfile.TemporaryDirectory() as output:
            config = TrainConfig.from_yaml(args.config, total_timesteps=args.steps, vec_env=vec_env, n_envs=n_envs,
                                           output=output, eval_every=10**9, checkpoint_every=10**9)
            summary = train(config, progress=False)
        processes = n_envs if vec_env == "subproc" else 1
        label = f"{vec_env}, {n_envs} envs, {processes} process{'es' if processes > 1 else ''}"
        print(f"{label:<28}{summary['steps_per_second']:>10.0f}{summary['env_share']:>11.0%}"
              f"{1 - summary['env_share']:>15.0%}")


if __name__ == "__main__":
    run_script(main, Args, __doc__)

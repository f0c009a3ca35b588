"""MaskablePPO on the batched SB3 VecEnv against SB3's DummyVecEnv of the scalar env, and the env-only rates.

Heads-up razz, the default random opponents, one torch thread, one process. For each ``n_envs`` it times
``MaskablePPO.learn`` (``n_steps`` 128, batch 256, 4 epochs, a 64x64 net) on ``DummyVecEnv`` of
``SingleAgentEnv`` (wrapped as ``razz train`` wraps it: ``Monitor``) and on
:class:`razz_env.batch.sb3_vec_env.BatchSB3VecEnv` (under ``VecMonitor``), and the env alone: learner steps/s
with random legal ids through the same VecEnv API. The scalar env runs only at the sizes in
``--scalar-sizes`` (its cost grows with ``n_envs``; the batch makes large ``n_envs`` cheap). Rates are wall
clock. Run: ``python benchmarks/bench_batch_train.py`` (about two minutes; ``--steps``, ``--sizes``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from razz_env.batch.sb3_vec_env import BatchSB3VecEnv
from razz_env.envs.single_agent import SingleAgentEnv


def scalar_vec_env(n_envs: int) -> DummyVecEnv:
    """``n_envs`` scalar envs in one process, as ``razz train`` builds them with ``vec_env: dummy``."""

    def build(rank: int):
        def make() -> Monitor:
            env = SingleAgentEnv(seat="random")
            env.reset(seed=rank)
            return Monitor(env)

        return make

    return DummyVecEnv([build(rank) for rank in range(n_envs)])


def batch_vec_env(n_envs: int) -> VecMonitor:
    return VecMonitor(BatchSB3VecEnv(n_envs, seed=0))


def env_rate(venv, steps: int) -> float:
    """Learner steps/s of random legal play through the VecEnv API (masks read as MaskablePPO reads them)."""
    rng = np.random.default_rng(0)
    venv.reset()
    done = 0
    start = time.perf_counter()
    while done < steps:
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(np.where(masks > 0, rng.random(masks.shape), -1).argmax(axis=1))
        done += venv.num_envs
    return done / (time.perf_counter() - start)


def train_rate(venv, steps: int) -> float:
    """Env steps/s of ``MaskablePPO.learn`` for about ``steps`` steps (after a short warm-up)."""
    n_steps = max(8, 128 * 8 // venv.num_envs)
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=256, n_epochs=4, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [64, 64]})
    model.learn(total_timesteps=n_steps * venv.num_envs)
    start = time.perf_counter()
    before = model.num_timesteps
    model.learn(total_timesteps=steps, reset_num_timesteps=False)
    return (model.num_timesteps - before) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256], help="n_envs values")
    parser.add_argument("--scalar-sizes", type=int, nargs="+", default=[8, 64], help="n_envs for the scalar env")
    parser.add_argument("--steps", type=int, default=20_000, help="training steps timed per row")
    parser.add_argument("--env-steps", type=int, default=50_000, help="env-only steps timed per row")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("| vec env | n_envs | env steps/s (random legal) | MaskablePPO env steps/s |")
    print("|---|---|---|---|")
    for n_envs in args.sizes:
        kinds = [("DummyVecEnv(SingleAgentEnv)", scalar_vec_env)] if n_envs in args.scalar_sizes else []
        kinds.append(("BatchSB3VecEnv", batch_vec_env))
        for label, build in kinds:
            venv = build(n_envs)
            env_only = env_rate(venv, args.env_steps)
            trained = train_rate(venv, args.steps)
            venv.close()
            print(f"| {label} | {n_envs} | {env_only:,.0f} | {trained:,.0f} |", flush=True)


if __name__ == "__main__":
    main()

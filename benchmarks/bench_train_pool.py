"""``razz train`` against a strong pool: MaskablePPO steps/s on the scalar envs (``vec_env: dummy``) and on the
batched engine (``vec_env: batch``), same config, same run.

The pool is that of ``ppo_razz_psro``'s last recipe stage (``lbr``: random, calling_station, razz_heuristic,
monte_carlo, check_raiser, board_bully, tag, eight learned best responses and a suit-blind local best response,
by the stage's weights), with shipped models standing in for the stage's best responses (they are stage
products, not in the repository: ``ppo_razz`` and ``ppo_razz_pool`` alternate) and the LBR's target
``ppo_razz_psro`` itself; the stage's network (256x256), ``n_envs`` 64, ``n_steps`` 128, batch 2048, 6 epochs,
one torch thread. Each vec env trains ``--steps`` steps in a fresh folder, engines alternating over
``--rounds`` (best kept); the time includes building the pool and the first compile is done before timing.

Run: ``python benchmarks/bench_train_pool.py [--steps 16384] [--rounds 1] [--n-envs 64] [--without-lbr]`` (needs
the train and batch extras; ``--without-lbr`` drops the local best response, to show the rest of the pool's rate).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import tempfile
import time
from typing import Any

import torch

from razz_env.train.config import TrainConfig
from razz_env.train.trainer import train

VEC_ENVS = ("dummy", "batch")
STAND_INS = ("ppo_razz", "ppo_razz_pool")
LBR = {"type": "lbr", "target": "ppo_razz_psro", "stacks": 1000, "ante": 1, "bring_in": 2, "small_bet": 5,
       "big_bet": 10, "raise_cap": 4, "samples": 400, "max_outcomes": 250000, "suit_blind": True,
       "name": "lbr_psro"}


def pool(with_lbr: bool = True) -> dict[str, Any]:
    """The ``lbr`` stage's pool and weights, shipped models standing in for its eight best responses (without its
    local best response, the rest of the pool alone, when not ``with_lbr``)."""
    baselines: list[Any] = ["random", "calling_station", "razz_heuristic", "monte_carlo", "check_raiser",
                            "board_bully", "tag"]
    baselines += [STAND_INS[i % len(STAND_INS)] for i in range(8)] + [LBR]
    weights = [0.25, 0.25, 1.5, 8.0, 0.5, 0.5, 0.5, 0.3, 0.3, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 3]
    if not with_lbr:
        baselines, weights = baselines[:-1], weights[:-1]
    return {"baselines": baselines, "weights": weights, "self_play_start": 0.0, "self_play_end": 0.0}


def config(vec_env: str, steps: int, n_envs: int, folder: str, with_lbr: bool = True) -> TrainConfig:
    """The stage's training settings at ``steps`` steps, no evaluation or checkpoint inside the timing."""
    return TrainConfig.from_dict({
        "name": f"bench_{vec_env}", "algorithm": "maskable_ppo", "variant": "razz", "num_seats": 2, "stacks": 1000,
        "total_timesteps": steps, "n_envs": n_envs, "vec_env": vec_env, "seed": 80, "torch_threads": 1,
        "net_arch": [256, 256], "opponents": pool(with_lbr), "eval_every": 10 * steps, "eval_deals": 10,
        "eval_opponents": ["random"], "checkpoint_every": 10 * steps, "output": folder,
        "algo_kwargs": {"n_steps": 128, "batch_size": 2048, "n_epochs": 6, "learning_rate": 0.0001,
                        "gamma": 1.0, "gae_lambda": 0.95, "ent_coef": 0.003},
    })


def timed(vec_env: str, steps: int, n_envs: int, with_lbr: bool = True) -> tuple[float, dict[str, Any]]:
    """Wall seconds of one fresh ``train`` run and its summary."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        summary = train(config(vec_env, steps, n_envs, f"{folder}/run", with_lbr), progress=False)
        return time.perf_counter() - started, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=16_384, help="training steps per run")
    parser.add_argument("--n-envs", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=1, help="runs per vec env, alternating; best kept")
    parser.add_argument("--without-lbr", action="store_true", help="the pool without its local best response")
    args = parser.parse_args()
    torch.set_num_threads(1)
    timed("batch", 128 * args.n_envs, args.n_envs)  # compile the kernels and fill the disk caches first
    best: dict[str, dict[str, Any]] = {}
    for _ in range(args.rounds):
        for vec_env in VEC_ENVS:
            seconds, summary = timed(vec_env, args.steps, args.n_envs, not args.without_lbr)
            if seconds < best.get(vec_env, {"wall": float("inf")})["wall"]:
                best[vec_env] = {"wall": seconds, **summary}
    which = "without its LBR" if args.without_lbr else "with its LBR"
    print(f"razz train, ppo_razz_psro's lbr-stage pool {which}, {args.n_envs} envs, 256x256 MaskablePPO, one thread")
    print("| vec_env | steps | wall s (with start-up) | training steps/s | x dummy | share in the env |")
    print("|---|---:|---:|---:|---:|---:|")
    for vec_env in VEC_ENVS:
        run = best[vec_env]
        ratio = run["steps_per_second"] / best["dummy"]["steps_per_second"]
        print(f"| {vec_env} | {run['steps']:,} | {run['wall']:.1f} | {run['steps_per_second']:,.0f} | {ratio:.2f} | "
              f"{run['env_share']:.0%} |")

if __name__ == "__main__":
    main()

"""``razz train`` against a strong pool: MaskablePPO steps/s on the scalar envs (``vec_env: dummy``) and on the
batched engine (``vec_env: batch``), same config, same run.

The pool and the settings are those of ``ppo_razz_psro``'s last recipe stage (``lbr``, read from its recipe:
random, calling_station, razz_heuristic, monte_carlo, check_raiser, board_bully, tag, eight learned best
responses and a suit-blind local best response, by the stage's weights; 256x256 MaskablePPO, ``n_steps`` 128,
batch 2048, 6 epochs, one torch thread), trained from scratch, with shipped models standing in for the models
it names by ``@`` (stage products, not in the repository: ``ppo_razz`` and ``ppo_razz_pool`` in turn for the
best responses, ``ppo_razz_psro`` itself as the LBR's target). Each vec env trains ``--steps`` steps in a
fresh folder, engines alternating over ``--rounds`` (best kept); the time includes building the pool and the
first compile is done before timing.

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

from razz_env.recipes import load_recipe
from razz_env.train.config import TrainConfig
from razz_env.train.trainer import train

VEC_ENVS = ("dummy", "batch")
STAND_INS = ("ppo_razz", "ppo_razz_pool")
"""Shipped models standing in, in turn, for the stage's learned best responses (stage products, not shipped)."""


def stage_config() -> dict[str, Any]:
    """The ``lbr`` stage's config as its recipe writes it (``razz_env/agents/zoo/ppo_razz_psro.recipe.yaml``)."""
    (stage,) = [s for s in load_recipe("ppo_razz_psro").stages if s.name == "lbr"]
    return stage.config


def pool(with_lbr: bool = True) -> dict[str, Any]:
    """The stage's pool and weights, shipped models standing in for the models it names by ``@`` (its best
    responses, and the local best response's target, then ``ppo_razz_psro`` itself); without its LBR when not
    ``with_lbr``."""
    opponents = stage_config()["opponents"]
    baselines, weights = [], []
    stand_ins = iter(STAND_INS * 8)
    for spec, weight in zip(opponents["baselines"], opponents["weights"], strict=True):
        if isinstance(spec, dict) and spec.get("type") == "lbr":
            if not with_lbr:
                continue
            spec = {**spec, "target": "ppo_razz_psro"}
        elif isinstance(spec, dict) and str(spec.get("path", "")).startswith("@"):
            spec = next(stand_ins)
        baselines.append(spec)
        weights.append(weight)
    return {**opponents, "baselines": baselines, "weights": weights}


def config(vec_env: str, steps: int, n_envs: int, folder: str, with_lbr: bool = True) -> TrainConfig:
    """The stage's training settings at ``steps`` steps from scratch, no evaluation or checkpoint inside the
    timing."""
    stage = {key: value for key, value in stage_config().items() if key != "init_model"}
    return TrainConfig.from_dict({
        **stage, "name": f"bench_{vec_env}", "total_timesteps": steps, "n_envs": n_envs, "vec_env": vec_env,
        "opponents": pool(with_lbr), "eval_every": 10 * steps, "eval_deals": 10, "eval_opponents": ["random"],
        "checkpoint_every": 10 * steps, "output": folder,
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

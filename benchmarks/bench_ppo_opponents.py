"""The batched PPO trainer's cost per step by what it plays: self-play, legal-action baselines, view readers.

Heads-up razz, 1,024 tables, 32 steps a rollout, the trainer's default network, one torch thread, one process.
Each row trains ``--updates`` updates (after one to warm up) with half the tables self-play and the other half
the row's opponents (the first row: every table self-play), and reports training steps per CPU second and the
ratio to self-play alone in the same run. View readers (``razz_heuristic``, ``monte_carlo``, the flagship study's
``opponents`` arm) are asked at each step on the host, from the seat views the engine then keeps. Run:
``python benchmarks/bench_ppo_opponents.py`` (about three CPU minutes; ``--updates``).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import torch

from razz_env.train.batch_ppo import Args, train


def study_arm() -> dict:
    """The opponents and weights of ``studies/razz_flagship.py``'s ``opponents`` arm (read from the study)."""
    spec = importlib.util.spec_from_file_location("razz_flagship", Path(__file__).parents[1] / "studies" /
                                                  "razz_flagship.py")
    study = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # its dataclasses look themselves up
    spec.loader.exec_module(study)
    return {"opponents": tuple(study.ARM_OPPONENTS), "opponent_weights": tuple(study.ARM_OPPONENTS.values())}


ROWS = {
    "self-play": {"self_play_fraction": 1.0},
    "random, calling_station": {"opponents": ("random", "calling_station")},
    "razz_heuristic": {"opponents": ("razz_heuristic",)},
    "monte_carlo": {"opponents": ("monte_carlo",)},
    "the study's opponents arm": study_arm(),
}


def steps_per_cpu_second(options: dict, updates: int, folder: str) -> float:
    """Training steps per CPU second over ``updates`` updates after the first (which compiles and warms up)."""
    marks: list[float] = []
    args = Args(**{"output": folder, "force": True, "quiet": True, "seed": 1, "anneal_lr": False,
                   "self_play_fraction": 0.5, "total_steps": 1024 * 32 * (updates + 1), **options})
    train(args, hook=lambda progress: marks.append(time.process_time()) and False)
    return 1024 * 32 * updates / (marks[-1] - marks[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=5, help="timed updates per row (32,768 steps each)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("| opponents (half the tables) | steps per CPU second | CPU time per step vs self-play |")
    print("|---|---|---|")
    base = None
    with tempfile.TemporaryDirectory() as folder:
        for label, options in ROWS.items():
            rate = steps_per_cpu_second(options, args.updates, folder)
            base = base or rate
            print(f"| {label} | {rate:,.0f} | {base / rate:.2f}x |", flush=True)


if __name__ == "__main__":
    main()

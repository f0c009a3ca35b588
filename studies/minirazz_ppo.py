"""Does self-play PPO approach equilibrium? MaskablePPO on MiniRazz, measured exactly, beside CFR+.

MaskablePPO is trained through the ordinary pipeline (``razz train``'s run folder, the
single-agent view, an opponent pool) in two settings: mostly against snapshots of itself
(``self_play``) and against the baselines only (``baselines``). Every ``checkpoint_every``
steps a checkpoint is written; afterwards each checkpoint's stochastic policy is read into
the solver's tree (one query per information set) and its exact exploitability computed.
CFR+ runs on the same game for the same wall-clock budget. Outputs, in ``--output``:
``exploitability.csv`` (setting, steps, training minutes, mbb/hand), the CFR+
``convergence.csv``, ``ppo_vs_cfr.png`` (exploitability against steps/iterations and
against wall-clock seconds, log scale) and ``args.json``; the two training runs go to
``<output>/<game>_<setting>/``.

    python studies/minirazz_ppo.py                     # default MiniRazz, about 40 minutes on a 2-core CPU
    python studies/minirazz_ppo.py --game minirazz_tiny --steps 20000 --checkpoint-every 5000   # a smoke run

Results: ``docs/studies/minirazz_ppo.md``.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

from razz_env.command_line import run_script
from razz_env.engine.errors import ConfigError
from razz_env.solve.cfr import CFRPlus, Checkpoint
from razz_env.solve.game import build_game
from razz_env.solve.run import plot_convergence, write_convergence

SETTINGS = {
    "self_play": {"baselines": ["random", "calling_station"], "weights": [1, 1],
                  "self_play_start": 0.5, "self_play_end": 0.9},
    "baselines": {"baselines": ["random", "calling_station"], "weights": [1, 1],
                  "self_play_start": 0.0, "self_play_end": 0.0},
}
@dataclass
class Args:
    """The game, the two PPO settings' training and where everything goes."""

    game: str = "minirazz"
    """the solved game (``minirazz``, or ``minirazz_tiny`` for a smoke run)"""
    steps: int = 2_000_000
    """environment steps of each PPO setting"""
    checkpoint_every: int = 100_000
    """steps between checkpoints, each measured exactly"""
    settings: tuple[str, ...] = ("self_play", "baselines")
    """opponent pools trained: ``self_play`` (snapshots of itself) and ``baselines`` (random, calling_station)"""
    seed: int = 1
    """training seed"""
    n_envs: int = 8
    """environments per training"""
    net_arch: tuple[int, ...] = (128, 128)
    """hidden layers of the policy and value networks"""
    output: str = "runs/minirazz_ppo"
    """results folder; the runs go in ``<output>/<game>_<setting>/``"""
    fresh: bool = False
    """start the runs over instead of continuing them"""


def train_setting(args: Args, setting: str) -> Path:
    """Train MaskablePPO in ``setting`` through ``razz train``'s pipeline; returns the run folder."""
    from razz_env.train.config import TrainConfig
    from razz_env.train.trainer import train

    folder = Path(args.output) / f"{args.game}_{setting}"
    config = TrainConfig.from_dict({
        "name": f"ppo_{args.game}_{setting}", "algorithm": "maskable_ppo", "variant": args.game,
        "num_seats": 2, "stacks": 200, "total_timesteps": args.steps, "n_envs": args.n_envs,
        "seed": args.seed, "net_arch": list(args.net_arch),
        "algo_kwargs": {"n_steps": 256, "batch_size": 512, "n_epochs": 4, "learning_rate": 3e-4, "gamma": 1.0,
                        "gae_lambda": 0.95, "ent_coef": 0.01},
        "opponents": {**SETTINGS[setting], "snapshot_every": max(args.checkpoint_every, 2_000), "max_snapshots": 5},
        "eval_every": args.steps, "eval_deals": 200, "eval_opponents": ["random", "calling_station"],
        "checkpoint_every": args.checkpoint_every, "output": str(folder),
    })
    train(config, fresh=args.fresh, progress=False)
    return folder


def measure_checkpoints(game_name: str, folder: Path) -> list[dict[str, float]]:
    """Exact exploitability (mbb/hand) of the stochastic policy of every checkpoint in ``folder``."""
    from razz_env.agents.sb3_agent import SB3Agent, load_model
    from razz_env.solve.agent import policy_from_agent
    from razz_env.solve.best_response import exploitability
    from razz_env.train.runfolder import CHECKPOINTS, RunFolder

    run = RunFolder(folder)
    game = build_game(game_name)
    rows = []
    for steps, relative in run.numbered(CHECKPOINTS)[0]:
        agent = SB3Agent(load_model(run.verified_bytes(relative), "maskable_ppo"), name=relative,
                         deterministic=False)
        began = time.perf_counter()
        measured = exploitability(game, policy_from_agent(game, agent, check_suits=0))
        minutes = run.clock_at(steps)[1]
        rows.append({"steps": steps, "train_minutes": round(minutes, 3), "mbb": measured.mbb,
                     "value_chips": measured.value, "measure_seconds": round(time.perf_counter() - began, 2)})
        print(f"{folder.name}: {steps:>8} steps  {minutes:6.1f} min  {measured.mbb:9.1f} mbb/hand", flush=True)
    return rows


def main(args: Args) -> None:
    """Train, measure, solve, plot."""
    unknown = [s for s in args.settings if s not in SETTINGS]
    if unknown:
        raise ConfigError(f"--settings: unknown {unknown[0]!r}; known: {', '.join(SETTINGS)}")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    measured: dict[str, list[dict[str, float]]] = {}
    for setting in args.settings:
        measured[setting] = measure_checkpoints(args.game, train_setting(args, setting))
    budget = max(row["train_minutes"] for rows in measured.values() for row in rows) * 60
    solver = CFRPlus(build_game(args.game))
    solver.run(seconds=budget, target_mbb=0.1, check_every=10)
    write_convergence(solver.history, out / "convergence.csv")
    with open(out / "exploitability.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["setting", "steps", "train_minutes", "mbb", "value_chips",
                                                    "measure_seconds"])
        writer.writeheader()
        for setting, rows in measured.items():
            writer.writerows({"setting": setting, **row} for row in rows)
    curves = {"CFR+ (x: iterations)": solver.history}
    for setting, rows in measured.items():
        curves[f"PPO {setting} (x: env steps)"] = [
            Checkpoint(int(row["steps"]), row["train_minutes"] * 60, row["mbb"]) for row in rows]
    plot_convergence(curves, out / "ppo_vs_cfr.png",
                     {"title": f"{args.game}: exact exploitability, MaskablePPO vs CFR+ (2-core CPU)"})
    (out / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out / 'exploitability.csv'}, {out / 'convergence.csv'}, {out / 'ppo_vs_cfr.png'}")


if __name__ == "__main__":
    run_script(main, Args, __doc__)

"""``razz train``: train an SB3 algorithm on the single-agent view against an opponent pool.

The run folder (``config.output``) holds ``config.json``, TensorBoard logs
(``tb/``), periodic checkpoints and self-play snapshots, ``eval.csv`` (duplicate
bb/100 with 95% CI against each evaluation opponent, by steps and wall-clock
minutes), ``final.zip`` and ``summary.json`` (throughput and the share of time
spent in the environment). ``resume=True`` continues from the newest checkpoint.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

from razz_env.training.config import TrainConfig
from razz_env.training.pool import OpponentPool, PoolWrapper

EVAL_FIELDS = ("steps", "minutes", "train_minutes", "opponent", "bb_per_100", "ci95_low", "ci95_high", "hands")


def make_env_fn(config: TrainConfig, rank: int) -> Any:
    """Factory for the ``rank``-th training environment (picklable for subprocess envs)."""

    def build() -> Any:
        from stable_baselines3.common.monitor import Monitor

        from razz_env.env.single_agent import SingleAgentEnv

        seed = config.seed * 1000 + rank
        pool = OpponentPool(config.opponents, config.algorithm, config.encoding, seed)
        mode = "raise" if config.masks_natively else "check_fold"
        env = SingleAgentEnv(opponent_sampler=pool, seat="random", illegal_action=mode, **config.table_kwargs())
        env.reset(seed=seed)
        return PoolWrapper(Monitor(env), pool)

    return build


def _timed_vec_env(venv: Any) -> Any:
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        """Counts the seconds spent waiting on the environments."""

        def __init__(self, inner: Any) -> None:
            super().__init__(inner)
            self.env_seconds = 0.0

        def reset(self) -> Any:
            started = time.perf_counter()
            out = self.venv.reset()
            self.env_seconds += time.perf_counter() - started
            return out

        def step_wait(self) -> Any:
            started = time.perf_counter()
            out = self.venv.step_wait()
            self.env_seconds += time.perf_counter() - started
            return out

    return TimedVecEnv(venv)


def build_vec_env(config: TrainConfig) -> Any:
    """``n_envs`` environments, in this process (``dummy``) or in worker processes (``subproc``)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [make_env_fn(config, rank) for rank in range(config.n_envs)]
    if config.vec_env == "subproc":
        return _timed_vec_env(SubprocVecEnv(fns, start_method="spawn"))
    return _timed_vec_env(DummyVecEnv(fns))


def build_model(config: TrainConfig, venv: Any, tensorboard: str | None) -> Any:
    """A fresh model of the configured algorithm."""
    from agents.sb3_agent import algorithm_class

    cls = algorithm_class(config.algorithm)
    policy_kwargs = {"net_arch": list(config.net_arch), **config.policy_kwargs}
    return cls("MlpPolicy", venv, policy_kwargs=policy_kwargs, seed=config.seed,
               tensorboard_log=tensorboard, device="cpu", verbose=0, **config.algo_kwargs)


def evaluate(model: Any, config: TrainConfig, seed: str) -> list[dict[str, Any]]:
    """Duplicate bb/100 of the current (greedy, masked) policy against each evaluation opponent.

    At a table of more than two seats the opponent fills every other seat.
    """
    from agents.registry import make_agent
    from agents.sb3_agent import SB3Agent
    from razz_env.engine.config import HandConfig
    from razz_env.evaluation.match import play_deals, summarise_tables
    from razz_env.evaluation.stats import win_rate
    from razz_env.evaluation.tournament import agent_label

    seats = config.num_players
    hand_config = HandConfig.create(config.variant, num_seats=seats, starting_stack=config.starting_stacks,
                                    ante=config.ante, bring_in=config.bring_in, small_bet=config.small_bet,
                                    big_bet=config.big_bet)
    learner = SB3Agent(model, name=config.name, encoding=config.encoding)
    rows = []
    for index, spec in enumerate(config.eval_opponents):
        opponent = make_agent(spec, seed=index)
        tables = play_deals([learner] + [opponent] * (seats - 1), hand_config, config.eval_deals, f"{seed}/{index}")
        sums = summarise_tables(tables, seats, config.eval_deals, hand_config.stakes.big_bet_size)
        rate = win_rate(sums["deals"], sums["deal_sum"][0], sums["deal_sumsq"][0])
        rows.append({"opponent": agent_label(spec), "bb_per_100": round(rate.mean_bb100, 2),
                     "ci95_low": round(rate.low, 2), "ci95_high": round(rate.high, 2), "hands": sums["hands"]})
    return rows


def _minutes_so_far(eval_path: Path) -> tuple[float, float]:
    """Wall-clock and training minutes of the last evaluation already logged (0 for a fresh run)."""
    if not eval_path.exists():
        return 0.0, 0.0
    with open(eval_path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return (float(rows[-1]["minutes"]), float(rows[-1]["train_minutes"])) if rows else (0.0, 0.0)


def _callback(config: TrainConfig, output: Path, started: float, eval_state: dict[str, Any], bar: Any) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class TrainingCallback(BaseCallback):
        """Snapshots for self-play, periodic evaluation and checkpoints, progress, time limit."""

        def __init__(self) -> None:
            super().__init__()
            self.next_snapshot = self.next_eval = self.next_checkpoint = 0
            self.eval_seconds = 0.0
            self.minutes_before, self.train_minutes_before = _minutes_so_far(output / "eval.csv")

        def _on_training_start(self) -> None:
            steps = self.model.num_timesteps
            self.next_snapshot = steps + config.opponents.snapshot_every
            self.next_eval = steps + config.eval_every
            self.next_checkpoint = steps + config.checkpoint_every

        def _on_step(self) -> bool:
            steps = self.model.num_timesteps
            if steps % 1024 < config.n_envs:
                self.training_env.env_method("set_progress", steps / config.total_timesteps)
                if bar is not None:
                    bar.n = steps
                    bar.refresh()
            if steps >= self.next_snapshot:
                self.next_snapshot += config.opponents.snapshot_every
                path = output / "snapshots" / f"step_{steps}.zip"
                self.model.save(path)
                self.training_env.env_method("add_snapshot", str(path))
            if steps >= self.next_checkpoint:
                self.next_checkpoint += config.checkpoint_every
                self.model.save(output / "checkpoints" / f"step_{steps}.zip")
            if steps >= self.next_eval:
                self.next_eval += config.eval_every
                self._evaluate(steps)
            if config.max_minutes is not None and (time.time() - started) / 60 > config.max_minutes:
                return False
            return True

        def _evaluate(self, steps: int) -> None:
            eval_started = time.perf_counter()
            rows = evaluate(self.model, config, f"eval/{steps}")
            self.eval_seconds += time.perf_counter() - eval_started
            minutes = (time.time() - started) / 60
            with open(output / "eval.csv", "a", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=EVAL_FIELDS)
                for row in rows:
                    writer.writerow({"steps": steps, "minutes": round(self.minutes_before + minutes, 2),
                                     "train_minutes": round(self.train_minutes_before + minutes
                                                            - self.eval_seconds / 60, 2), **row})
                    self.logger.record(f"eval/bb100_vs_{row['opponent']}", row["bb_per_100"])
                    self.logger.record(f"eval/ci95_low_vs_{row['opponent']}", row["ci95_low"])
            eval_state["latest"] = {row["opponent"]: row["bb_per_100"] for row in rows}
            if bar is not None:
                bar.set_postfix({k[:10]: v for k, v in eval_state["latest"].items()})

    return TrainingCallback()


def latest_checkpoint(output: Path) -> Path | None:
    """The checkpoint with the most steps, if any."""
    checkpoints = sorted((output / "checkpoints").glob("step_*.zip"), key=lambda p: int(p.stem.split("_")[1]))
    return checkpoints[-1] if checkpoints else None


def train(config: TrainConfig, resume: bool = False, progress: bool = True) -> dict[str, Any]:
    """Run (or resume) training; returns the summary written to ``summary.json``."""
    import torch

    from agents.sb3_agent import algorithm_class

    torch.set_num_threads(config.torch_threads)
    output = Path(config.output)
    for sub in ("checkpoints", "snapshots"):
        (output / sub).mkdir(parents=True, exist_ok=True)
    (output / "config.json").write_text(json.dumps(config.to_dict(), indent=2), encoding="utf-8")
    eval_path = output / "eval.csv"
    venv = build_vec_env(config)
    checkpoint = latest_checkpoint(output) if resume else None
    if checkpoint is not None:
        model = algorithm_class(config.algorithm).load(str(checkpoint), env=venv, device="cpu")
        model.tensorboard_log = str(output / "tb")
        for snapshot in sorted((output / "snapshots").glob("step_*.zip"),
                               key=lambda p: int(p.stem.split("_")[1]))[-config.opponents.max_snapshots:]:
            venv.env_method("add_snapshot", str(snapshot))
    else:
        model = build_model(config, venv, str(output / "tb"))
        with open(eval_path, "w", newline="", encoding="utf-8") as handle:
            csv.DictWriter(handle, fieldnames=EVAL_FIELDS).writeheader()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=config.total_timesteps, initial=model.num_timesteps, unit="step", desc=config.name,
                   dynamic_ncols=True)
    started = time.time()
    eval_state: dict[str, Any] = {}
    callback = _callback(config, output, started, eval_state, bar)
    steps_before = model.num_timesteps
    remaining = max(config.total_timesteps - steps_before, 0)
    wall_started = time.perf_counter()
    model.learn(remaining, callback=callback, reset_num_timesteps=checkpoint is None, tb_log_name=config.name)
    wall = time.perf_counter() - wall_started - callback.eval_seconds
    if bar is not None:
        bar.close()
    model.save(output / "final.zip")
    model.save(output / "checkpoints" / f"step_{model.num_timesteps}.zip")
    final_eval = evaluate(model, config, "eval/final")
    steps_done = model.num_timesteps - steps_before
    summary = {
        "name": config.name, "algorithm": config.algorithm, "steps": model.num_timesteps,
        "train_seconds": round(wall, 1), "steps_per_second": round(steps_done / wall, 1) if wall > 0 else None,
        "env_seconds": round(venv.env_seconds, 1),
        "env_share": round(venv.env_seconds / wall, 3) if wall > 0 else None,
        "vec_env": config.vec_env, "n_envs": config.n_envs, "final_eval": final_eval,
        "opponent_draws": venv.env_method("opponent_counts"),
    }
    (output / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    venv.close()
    return summary

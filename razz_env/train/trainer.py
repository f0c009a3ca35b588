"""``razz train``: train an SB3 algorithm on the single-agent view against an opponent pool.

The run folder (``config.output``, see :mod:`razz_env.train.runfolder`) holds
``config.json``, TensorBoard logs (``tb/``), periodic checkpoints and self-play
snapshots with their SHA-256 in ``hashes.json``, ``eval.csv`` (duplicate bb/100 with
95% CI against each evaluation opponent at each table size trained at, by steps and
wall-clock minutes, ending with the final evaluation), ``final.zip`` and ``summary.json`` (throughput and the
share of time spent in the environment). A new run starts from random weights, or from
a verified model file's (``init_model``, :func:`initialise_from`).

A run never mixes with another: a folder holding a run is refused unless
``resume`` (continue from the newest checkpoint that verifies and loads, after
cutting what was logged past it) or ``fresh`` (delete it first). Everything is
checked before the folder is touched. Ctrl-C saves a checkpoint and raises
:class:`TrainingInterrupted`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from razz_env.encoding.interface import declaration_of
from razz_env.engine.errors import ConfigError, labelled
from razz_env.evaluate.spawning import without_main
from razz_env.train.config import TrainConfig
from razz_env.train.pool import BatchPoolControls, OpponentPool, PoolWrapper
from razz_env.train.runfolder import (
    CHECKPOINTS,
    CONFIG,
    FINAL,
    SNAPSHOTS,
    SUMMARY,
    TENSORBOARD,
    RunFolder,
    interrupts_deferred,
)

# Settings a resumed run may change (they are applied, and recorded in config.json); any other change is refused.
RESUMABLE = ("total_timesteps", "max_minutes", "n_envs", "vec_env", "torch_threads", "output")


class TrainingInterrupted(Exception):
    """Training was stopped with Ctrl-C; a checkpoint was saved (the message names it)."""


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def make_env_fn(config: TrainConfig, rank: int) -> Any:
    """Factory for the ``rank``-th training environment (picklable for subprocess envs); with mixed table sizes
    it plays ``num_seats[rank % len(num_seats)]`` seats."""
    table = config.env_kwargs(config.seat_counts[rank % len(config.seat_counts)])

    def build() -> Any:
        import multiprocessing
        import signal

        from stable_baselines3.common.monitor import Monitor

        from razz_env.envs.single_agent import SingleAgentEnv

        if multiprocessing.parent_process() is not None:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the trainer's to handle, not the workers'
        seed = config.seed * 1000 + rank
        pool = OpponentPool(config.opponents, config.algorithm, config.encoding, seed)
        mode = "raise" if config.masks_natively else "check_fold"
        env = SingleAgentEnv(opponent_sampler=pool, seat="random", illegal_action=mode, **table)
        env.reset(seed=seed)
        return PoolWrapper(Monitor(env), pool)

    return build


def _timed_vec_env(venv: Any, kind: str) -> Any:
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        """Counts the seconds spent waiting on the environments; ``kind`` is the vec_env they are."""

        def __init__(self, inner: Any) -> None:
            super().__init__(inner)
            self.env_seconds = 0.0
            self.kind = kind

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


def vec_env_kind(config: TrainConfig) -> str:
    """The vec_env ``config`` trains on: ``auto`` is ``batch`` when the batched engine is installed and every
    baseline of the pool acts in batch or reads no seat view, else ``dummy``."""
    if config.vec_env != "auto":
        return config.vec_env
    try:
        import razz_env.batch  # noqa: F401 - only whether the extra is installed
    except ImportError:
        return "dummy"
    from razz_env.agents.registry import make_agent

    for spec in config.opponents.baselines:
        declared = declaration_of(make_agent(spec, seed=0))
        if "view" in declared.observes and not declared.acts_in_batch:
            return "dummy"
    return "batch"


def build_vec_env(config: TrainConfig) -> Any:
    """``n_envs`` environments, in this process (``dummy``), in worker processes (``subproc``) or as the
    tables of batched engines (``batch``, one per table size); ``auto`` picks (:func:`vec_env_kind`)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    kind = vec_env_kind(config)
    if kind == "batch":
        return _timed_vec_env(build_batch_vec_env(config), kind)
    fns = [make_env_fn(config, rank) for rank in range(config.n_envs)]
    if kind == "subproc":
        with without_main():  # a user's script without a __main__ guard is not run again in each worker
            return _timed_vec_env(SubprocVecEnv(fns, start_method="spawn"), kind)
    return _timed_vec_env(DummyVecEnv(fns), kind)


def build_batch_vec_env(config: TrainConfig) -> Any:
    """``n_envs`` tables of the batched engine (split evenly across the table sizes, one engine each), one opponent
    pool drawing the opponent of every hand; seat views are kept when a baseline reads them.

    ``ConfigError`` names a baseline the batched env cannot seat (one that reads another encoding).
    """
    from stable_baselines3.common.vec_env import VecMonitor

    try:
        from razz_env.batch.sb3_vec_env import BatchSB3VecEnv
        from razz_env.batch.vec_env import BatchSingleAgentVecEnv
    except ImportError as err:
        raise ConfigError(f"vec_env: 'batch' needs numba: pip install 'razz-env[batch]' ({err})") from None
    pool = OpponentPool(config.opponents, config.algorithm, config.encoding, config.seed * 1000)
    mode = "raise" if config.masks_natively else "check_fold"
    views = any("view" in declaration_of(agent).observes for agent in pool.baselines)
    tables = config.n_envs // len(config.seat_counts)
    parts = [BatchSingleAgentVecEnv(tables, opponent_sampler=pool, illegal_action=mode, seed=config.seed * 1000 + k,
                                    views=views, **config.env_kwargs(seats))
             for k, seats in enumerate(config.seat_counts)]
    for index, agent in enumerate(pool.baselines):
        for part in parts:
            try:
                part.check_opponent(agent)
            except ValueError as err:
                raise ConfigError(f"opponents.baselines[{index}]: vec_env 'batch' cannot seat it ({err}); "
                                  "use vec_env 'dummy' or drop it from the pool") from None
    return VecMonitor(BatchSB3VecEnv.of_parts(parts, controls=BatchPoolControls(pool)))


def build_model(config: TrainConfig, venv: Any, tensorboard: str | None) -> Any:
    """A fresh model of the configured algorithm; SB3's refusal of a setting is a :class:`ConfigError`."""
    from razz_env.agents.sb3_agent import algorithm_class

    cls = algorithm_class(config.algorithm)
    policy_kwargs = {"net_arch": list(config.net_arch), **config.policy_kwargs}
    try:
        return cls("MlpPolicy", venv, policy_kwargs=policy_kwargs, seed=config.seed,
                   tensorboard_log=tensorboard, device="cpu", verbose=0, **config.algo_kwargs)
    except (AssertionError, ValueError, TypeError, RuntimeError, MemoryError) as err:
        raise ConfigError(f"algo_kwargs/policy_kwargs/net_arch: {config.algorithm} refuses them: "
                          f"{' '.join(str(err).split()) or type(err).__name__}") from err


def _space(space: Any) -> str:
    """A gymnasium space in a few words: its kind, shape or size, and a digest of its bounds."""
    if hasattr(space, "n"):
        return f"{type(space).__name__}({space.n})"
    bounds = hashlib.sha256(space.low.tobytes() + space.high.tobytes()).hexdigest()[:8]
    return f"{type(space).__name__}{space.shape} (bounds {bounds})"


def init_model_bytes(init_model: dict[str, str]) -> bytes:
    """The bytes of an ``init_model`` file (``{path, sha256}``), read once, if they match the SHA-256; a missing
    file or other bytes are a :class:`ConfigError` saying so."""
    from razz_env.agents.sb3_agent import UntrustedModelError, read_verified

    path = init_model["path"]
    try:
        exists, is_file = Path(path).exists(), Path(path).is_file()
    except (OSError, ValueError):
        exists = is_file = False
    if not exists:
        raise ConfigError(f"init_model.path: {path} does not exist (train the run that writes it first, or give "
                          f"the path of a model file)")
    if not is_file:
        raise ConfigError(f"init_model.path: {path} is not a file; give the path of a model file (.zip)")
    with labelled("init_model", UntrustedModelError):
        return read_verified(path, init_model["sha256"])


def initialise_from(model: Any, config: TrainConfig) -> None:
    """Give ``model`` the weights and optimizer state of ``config.init_model`` (a new run starting from them).

    The file is read once and loaded only if its bytes match the recorded SHA-256; one that does not
    load as ``config.algorithm``, or whose observation space, action space or network differs from
    ``model``'s (the config's table, encoding and ``net_arch``), is a :class:`ConfigError` saying so.
    """
    from razz_env.agents.sb3_agent import load_model

    path = config.init_model["path"]
    data = init_model_bytes(config.init_model)
    try:
        loaded = load_model(data, config.algorithm)
    except Exception as err:  # noqa: BLE001 - whatever a foreign archive raises, it does not load
        raise ConfigError(f"init_model: {path} does not load as a {config.algorithm} model "
                          f"({type(err).__name__}: {' '.join(str(err).split())})") from None
    if "widen_from" in config.init_model:
        loaded = _widened(loaded, config)
    kinds = [(type(m.policy).__name__, type(m.policy.optimizer).__name__) for m in (loaded, model)]
    if kinds[0] != kinds[1]:
        raise ConfigError(f"init_model: {path} holds a {kinds[0][0]} with a {kinds[0][1]} optimizer, not the "
                          f"{kinds[1][0]} with a {kinds[1][1]} optimizer of this {config.algorithm} config; give a "
                          f"model file of the same algorithm and optimizer")
    if loaded.observation_space != model.observation_space or loaded.action_space != model.action_space:
        raise ConfigError(f"init_model: {path} reads observations {_space(loaded.observation_space)} with actions "
                          f"{_space(loaded.action_space)}, but this table ({config.variant}, "
                          f"{'/'.join(str(seats) for seats in config.seat_counts)} seats, stacks "
                          f"{config.stacks}, encoding {config.encoding}) has "
                          f"{_space(model.observation_space)} with {_space(model.action_space)}")
    theirs, ours = loaded.policy.state_dict(), model.policy.state_dict()
    shapes = {name: tuple(tensor.shape) for name, tensor in theirs.items()}
    if shapes != {name: tuple(tensor.shape) for name, tensor in ours.items()}:
        raise ConfigError(f"init_model: {path} has another network than net_arch {list(config.net_arch)} and "
                          f"policy_kwargs {config.policy_kwargs} build; give the ones it was trained with")
    model.set_parameters(loaded.get_parameters(), exact_match=True, device="cpu")


def _widened(loaded: Any, config: TrainConfig) -> Any:
    """``loaded`` (trained on ``init_model.widen_from``'s encoding and table size) with its input layer widened
    to the config's padded encoding; a file that does not read that table is a :class:`ConfigError`."""
    from razz_env.encoding import make_encoder
    from razz_env.train.widen import widen_model, widening_columns

    widen_from = config.init_model["widen_from"]
    source = make_encoder(widen_from["encoding"], config.table(widen_from["num_seats"]).hand_config())
    target = make_encoder(config.encoding, config.table().hand_config())
    if loaded.observation_space != source.observation_space:
        raise ConfigError(f"init_model: {config.init_model['path']} reads observations "
                          f"{_space(loaded.observation_space)}, not those of widen_from ({widen_from['encoding']} at "
                          f"{widen_from['num_seats']} seats, {config.variant}, stacks "
                          f"{config.stacks}): {_space(source.observation_space)}")
    return widen_model(loaded, widening_columns(source, target), target.observation_space)


def evaluate(model: Any, config: TrainConfig, seed: str) -> list[dict[str, Any]]:
    """Duplicate bb/100 of the current (greedy, masked) policy against each evaluation opponent, at each table
    size trained at (a row per size and opponent, its ``seats`` named).

    At a table of more than two seats the opponent fills every other seat.
    """
    from razz_env.agents.registry import make_agent
    from razz_env.agents.sb3_agent import SB3Agent
    from razz_env.evaluate.block_sums import Sums, summarise_tables
    from razz_env.evaluate.blocks import play_deals
    from razz_env.evaluate.config import agent_label

    learner = SB3Agent(model, name=config.name, encoding=config.encoding)
    rows = []
    for seats in config.seat_counts:
        hand_config = config.table(seats).hand_config()
        for index, spec in enumerate(config.eval_opponents):
            opponent = make_agent(spec, seed=index)
            # no time limit: a busy machine must not end a run (these agents are the trainer's own, not untrusted)
            tables = play_deals([learner] + [opponent] * (seats - 1), hand_config, config.eval_deals,
                                f"{seed}/{index}", timeout=None)
            sums = summarise_tables(tables, seats, config.eval_deals, hand_config.big_bet)
            rate = Sums.of(sums, 0).per_deal
            rows.append({"opponent": agent_label(spec), "bb_per_100": round(rate.mean_bb100, 2),
                         "ci95_low": round(rate.low, 2), "ci95_high": round(rate.high, 2), "hands": sums["hands"],
                         "seats": seats})
    return rows


def summary_line(summary: dict[str, Any], output: str | Path) -> str:
    """One readable line of a run's summary: steps, minutes, steps/s and the final evaluation with its 95% CIs."""
    rows = summary["final_eval"]
    several = len({row.get("seats") for row in rows}) > 1
    tables = [f" at {row['seats']} seats" if several else "" for row in rows]
    evals = [f"{row['opponent']}{table} {row['bb_per_100']:+.1f} [{row['ci95_low']:+.1f}, {row['ci95_high']:+.1f}]"
             for row, table in zip(rows, tables)]
    rate = f"{summary['steps_per_second']:,.0f} steps/s" if summary["steps_per_second"] else "steps/s n/a"
    return (f"{summary['name']}: {summary['steps']:,} steps in {summary['train_seconds'] / 60:.1f} min ({rate}); "
            f"final eval bb/100 [95% CI]: {', '.join(evals) or 'none'}; details in {Path(output) / SUMMARY}")


def eval_label(config: TrainConfig, row: dict[str, Any]) -> str:
    """An evaluation row's name in TensorBoard and the progress bar: the opponent, and the table size when the run
    trains at several."""
    return f"{row['opponent']}@{row['seats']}" if config.mixed_sizes else row["opponent"]


class Clock:
    """Wall-clock and training minutes (wall-clock less evaluations), continued across resumes."""

    def __init__(self, minutes_before: float = 0.0, train_minutes_before: float = 0.0) -> None:
        self.minutes_before = minutes_before
        self.train_minutes_before = train_minutes_before
        self.started = time.time()
        self.eval_seconds = 0.0

    def elapsed_minutes(self) -> float:
        """Minutes since this segment started."""
        return (time.time() - self.started) / 60

    def minutes(self) -> float:
        """Wall-clock minutes of the whole run so far."""
        return self.minutes_before + self.elapsed_minutes()

    def train_minutes(self) -> float:
        """Minutes of the whole run so far spent outside evaluations."""
        return self.train_minutes_before + self.elapsed_minutes() - self.eval_seconds / 60


def save_checkpoint(folder: RunFolder, clock: Clock, model: Any, deliver_interrupts: bool = True) -> str:
    """Save a checkpoint (and the clock) at the model's steps, Ctrl-C held until both are written; returns its path
    in the folder. ``deliver_interrupts=False`` drops a Ctrl-C pressed meanwhile (the save it asks for is this one)."""
    relative = f"{CHECKPOINTS}/step_{model.num_timesteps}.zip"
    with interrupts_deferred(deliver=deliver_interrupts):
        folder.save_model(model, relative)
        folder.record_clock(model.num_timesteps, clock.minutes(), clock.train_minutes())
    return relative


def _callback(config: TrainConfig, folder: RunFolder, clock: Clock, bar: Any) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class TrainingCallback(BaseCallback):
        """Snapshots for self-play, periodic evaluation and checkpoints, progress, time limit."""

        def __init__(self) -> None:
            super().__init__()
            self.next_snapshot = self.next_eval = self.next_checkpoint = 0
            self.last_eval: tuple[int, list[dict[str, Any]]] | None = None

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
                relative = f"{SNAPSHOTS}/step_{steps}.zip"
                digest = folder.save_model(self.model, relative)
                self.training_env.env_method("add_snapshot", str(folder.path / relative), digest)
            if steps >= self.next_checkpoint:
                self.next_checkpoint += config.checkpoint_every
                save_checkpoint(folder, clock, self.model)
            if steps >= self.next_eval:
                self.next_eval += config.eval_every
                self.evaluate(steps)
            return config.max_minutes is None or clock.elapsed_minutes() <= config.max_minutes

        def evaluate(self, steps: int) -> list[dict[str, Any]]:
            """Evaluate at ``steps`` once: logged to ``eval.csv`` and TensorBoard (at that step)."""
            if self.last_eval is not None and self.last_eval[0] == steps:
                return self.last_eval[1]
            eval_started = time.perf_counter()
            rows = evaluate(self.model, config, f"eval/{steps}")
            clock.eval_seconds += time.perf_counter() - eval_started
            stamp = {"steps": steps, "minutes": round(clock.minutes(), 2),
                     "train_minutes": round(clock.train_minutes(), 2)}
            folder.append_eval_rows([{**stamp, **row} for row in rows])
            for row in rows:
                self.logger.record(f"eval/bb100_vs_{eval_label(config, row)}", row["bb_per_100"])
                self.logger.record(f"eval/ci95_low_vs_{eval_label(config, row)}", row["ci95_low"])
            self.logger.dump(step=steps)
            self.last_eval = (steps, rows)
            if bar is not None:
                bar.set_postfix({eval_label(config, row)[:13]: row["bb_per_100"] for row in rows})
            return rows

    return TrainingCallback()


def flat_settings(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested settings as one level, keys joined by dots (``opponents.weights``), to name what differs."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            flat.update(flat_settings(value, f"{prefix}{key}."))
        else:
            flat[prefix + str(key)] = value
    return flat


def stored_config(folder: RunFolder) -> TrainConfig:
    """The config of the run in ``folder`` (its ``config.json``); one that does not load is a :class:`ConfigError`
    naming the file."""
    try:
        return TrainConfig.from_dict(folder.read_json(CONFIG, {}))
    except ConfigError as err:
        raise ConfigError(f"{folder.path / CONFIG}: {err}") from err


def check_resumable(folder: RunFolder, config: TrainConfig) -> list[str]:
    """Refuse to resume a different run (only :data:`RESUMABLE` settings may change); returns what changes."""
    if not folder.holds_run():
        raise ConfigError(f"{folder.path}: no run to resume (no {CONFIG}); start it without --resume")
    old, new = (flat_settings(json.loads(json.dumps(c.to_dict()))) for c in (stored_config(folder), config))
    changed = [key for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]
    refused = [key for key in changed if key.split(".")[0] not in RESUMABLE]
    if refused:
        details = "; ".join(f"{key} was {old.get(key)!r}, now {new.get(key)!r}" for key in refused)
        raise ConfigError(f"--resume: the config differs from the run's {CONFIG} ({details}); only "
                          f"{', '.join(RESUMABLE[:-1])} may change when resuming; start a new run with --fresh "
                          f"or another --output")
    return [f"applying {key}: {old.get(key)!r} -> {new.get(key)!r}" for key in changed if key != "output"]


def load_checkpoint(folder: RunFolder, config: TrainConfig, venv: Any,
                    notify: Callable[[str], None]) -> tuple[Any, str]:
    """The newest checkpoint that verifies against ``hashes.json`` and loads, and its path; others are skipped."""
    from razz_env.agents.sb3_agent import UntrustedModelError, load_model

    folder.hashes()  # an unreadable hashes.json is an error, not a reason to skip every checkpoint
    checkpoints, odd = folder.numbered(CHECKPOINTS)
    for relative in odd:
        notify(f"warning: skipping {relative}: not named step_<steps>.zip")
    for _, relative in reversed(checkpoints):
        try:
            model = load_model(folder.verified_bytes(relative), config.algorithm, env=venv)
        except UntrustedModelError as err:
            notify(f"warning: skipping {relative}: {err}")
            continue
        except Exception as err:  # any archive that does not load is skipped, with its reason
            notify(f"warning: skipping {relative}: it does not load ({type(err).__name__}: "
                   f"{' '.join(str(err).split())})")
            continue
        return model, relative
    found = "none verifies and loads" if checkpoints else f"no {CHECKPOINTS}/step_<steps>.zip"
    raise ConfigError(f"{folder.path}: no checkpoint to resume from ({found}); start again with --fresh")


def _restore_snapshots(folder: RunFolder, config: TrainConfig, venv: Any, notify: Callable[[str], None]) -> None:
    """Put the newest verified self-play snapshots back in the pools."""
    from razz_env.agents.sb3_agent import UntrustedModelError

    hashes = folder.hashes()
    snapshots, odd = folder.numbered(SNAPSHOTS)
    for relative in odd:
        notify(f"warning: skipping {relative}: not named step_<steps>.zip")
    usable = []
    for _, relative in snapshots:
        try:
            folder.verified_bytes(relative)
        except UntrustedModelError as err:
            notify(f"warning: skipping {relative}: {err}")
            continue
        usable.append(relative)
    for relative in usable[-config.opponents.max_snapshots:]:
        venv.env_method("add_snapshot", str(folder.path / relative), hashes[relative])


def train(config: TrainConfig, resume: bool = False, fresh: bool = False, progress: bool = True,
          dry_run: bool = False, notify: Callable[[str], None] = _to_stderr) -> dict[str, Any]:
    """Run (``resume``: continue; ``fresh``: delete the earlier run first) and return the summary.

    Everything (folder, config against a resumed run, checkpoint, model settings) is checked
    before the folder is touched; ``dry_run`` stops there and returns the plan. Messages
    (what is deleted, resumed, skipped) go to ``notify``. A run holds the folder's lock from its checks to its
    summary: a second run in the same folder is refused.
    """
    if resume and fresh:
        raise ConfigError("--resume and --fresh exclude each other: continue the run, or delete it")
    folder = RunFolder(config.output)
    with contextlib.nullcontext() if dry_run else folder.locked():
        import torch

        resume_notes: list[str] = []
        if resume:
            resume_notes = check_resumable(folder, config)
            doomed: list[Path] = []
        else:
            doomed = folder.check_new_run(fresh)
        torch.set_num_threads(config.torch_threads)
        venv = build_vec_env(config)
        try:
            if resume:
                model, checkpoint = load_checkpoint(folder, config, venv, notify)
                if model.num_timesteps >= config.total_timesteps:
                    raise ConfigError(f"--resume: the run is already at {model.num_timesteps} steps and "
                                      f"total_timesteps is {config.total_timesteps}; pass a larger --steps to "
                                      f"train further")
                resume_notes.insert(0, f"resuming {folder.path} from {checkpoint} ({model.num_timesteps} steps)")
            else:
                model = build_model(config, venv, str(folder.path / TENSORBOARD))
                if config.init_model is not None:
                    initialise_from(model, config)
            if dry_run:
                return {"dry_run": True, "output": str(folder.path), "start_steps": model.num_timesteps,
                        "would_delete": [str(p) for p in doomed], "resume": resume_notes, "config": config.to_dict()}
            return _run(config, folder, venv, model, resume, doomed, resume_notes, progress, notify)
        finally:
            venv.close()


def _run(config: TrainConfig, folder: RunFolder, venv: Any, model: Any, resume: bool, doomed: list[Path],
         resume_notes: list[str], progress: bool, notify: Callable[[str], None]) -> dict[str, Any]:
    if doomed:
        notify(f"--fresh: deleting {RunFolder.describe(doomed)}")
        RunFolder.delete(doomed)
    steps_before = model.num_timesteps
    if resume:
        for line in resume_notes:
            notify(line)
        dropped = folder.cut_after(steps_before)
        if dropped:
            notify(f"dropping what was logged past step {steps_before}: {', '.join(dropped)}")
        model.tensorboard_log = str(folder.path / TENSORBOARD)
        _restore_snapshots(folder, config, venv, notify)
        clock = Clock(*folder.clock_at(steps_before))
    else:
        folder.path.mkdir(parents=True, exist_ok=True)
        folder.write_eval_rows([])
        clock = Clock()
    folder.write_json(CONFIG, config.to_dict())
    notify(f"training {config.name} in {folder.path}: steps {steps_before} to {config.total_timesteps}")
    if config.init_model is not None and not resume:
        notify(f"starting from the weights and optimizer state of {config.init_model['path']}")
    bar = None
    if progress:
        from razz_env.evaluate.progress import progress_bar

        bar = progress_bar(config.total_timesteps, steps_before, "step", config.name)
    callback = _callback(config, folder, clock, bar)
    wall_started = time.perf_counter()
    try:
        model.learn(config.total_timesteps - steps_before, callback=callback, reset_num_timesteps=not resume,
                    tb_log_name=config.name)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        saved = save_checkpoint(folder, clock, model, deliver_interrupts=False)
        with contextlib.suppress(AttributeError):  # no logger yet if interrupted as training started
            model.logger.close()
        raise TrainingInterrupted(f"interrupted at step {model.num_timesteps}: saved {folder.path / saved}; "
                                  f"continue with --resume") from None
    wall = time.perf_counter() - wall_started - clock.eval_seconds
    if bar is not None:
        bar.close()
    save_checkpoint(folder, clock, model)
    final_eval = callback.evaluate(model.num_timesteps)
    folder.save_model(model, FINAL)
    model.logger.close()
    steps_done = model.num_timesteps - steps_before
    summary = {
        "name": config.name, "algorithm": config.algorithm, "steps": model.num_timesteps,
        "resumed_from": steps_before if resume else None,
        "train_seconds": round(wall, 1), "steps_per_second": round(steps_done / wall, 1) if wall > 0 else None,
        "env_seconds": round(venv.env_seconds, 1),
        "env_share": round(venv.env_seconds / wall, 3) if wall > 0 else None,
        "vec_env": venv.kind, "n_envs": config.n_envs, "seat_counts": list(config.seat_counts),
        "final_eval": final_eval,
        "opponent_draws": venv.env_method("opponent_counts"),
    }
    folder.write_json(SUMMARY, summary)
    return summary

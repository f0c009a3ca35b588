"""Learned best response: MaskablePPO trained against one frozen agent, heads-up.

:func:`train_best_response` is ``razz train`` with the target as the only opponent: the
learner plays the single-agent view (:class:`razz_env.SingleAgentEnv`, its seat drawn at
random each hand, so both seats equally often), no self-play, one torch thread, and the
settings of :data:`DEFAULTS` (``configs/best_response.yaml`` holds the same, as a config
``razz train`` runs). The run folder is ``razz train``'s (checkpoints written atomically
with their SHA-256, evaluations against the target in ``eval.csv``, Ctrl-C saves a
checkpoint). The result names the model of the last step as an ``sb3_model`` agent spec
(:func:`razz_env.agents.sb3_zoo.load_model_file`): its checkpoint file and SHA-256, loaded only if
the bytes match.

One folder holds one best response. Called again on a folder holding a run:

* the same target, seed, variant and settings: the run is reused (when it reached the
  steps asked for), continued to more steps (from its newest verified checkpoint, after an
  interruption or with a larger ``steps``), or refused when it was run toward more steps;
* anything else differing: refused, naming the differences (``fresh`` deletes the earlier
  run first, or choose another output).
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from razz_env.engine.checks import as_int
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.variants import get_variant
from razz_env.evaluate.config import agent_label
from razz_env.train.config import MAX_SEED, TrainConfig, check_agent_spec
from razz_env.train.runfolder import CHECKPOINTS, CLOCK, CONFIG, RunFolder
from razz_env.train.trainer import TrainingInterrupted, stored_config, train

SEATS = 2
ALGORITHM = "maskable_ppo"
# No self-play: snapshots are never drawn, so they are (practically) never taken either.
NEVER = 1_000_000_000
DEFAULTS: dict[str, Any] = {
    "name": "best_response",
    "algorithm": ALGORITHM,
    "encoding": "flat",
    "n_envs": 8,
    "vec_env": "dummy",
    "net_arch": [256, 256],
    "algo_kwargs": {"n_steps": 256, "batch_size": 256, "n_epochs": 10, "learning_rate": 0.0003, "gamma": 1.0,
                    "gae_lambda": 0.95, "ent_coef": 0.01},
    "opponents": {"weights": [1.0], "self_play_start": 0.0, "self_play_end": 0.0, "snapshot_every": NEVER,
                  "max_snapshots": 1},
    "eval_every": 50_000,
    "eval_deals": 200,
    "checkpoint_every": 50_000,
    "torch_threads": 1,
}
# What a best response's settings may not set: the call gives them.
GIVEN_BY_CALL = ("total_timesteps", "output", "seed", "variant", "num_seats", "eval_opponents")


def _to_stderr(message: str) -> None:
    print(f"best response: {message}", file=sys.stderr)


def _target_spec(target: Any) -> str | dict[str, Any]:
    """The target as an agent spec (a tournament ``label`` key is display only and dropped)."""
    if isinstance(target, str):
        if not target:
            raise ConfigError("target: expected an agent name or a mapping with 'type', got ''")
        return target
    if isinstance(target, Mapping):
        return {key: value for key, value in target.items() if key != "label"}
    raise ConfigError(f"target: expected an agent name or a mapping with 'type', got {shown(target)}")


def best_response_config(target: str | Mapping[str, Any], *, steps: int, output: str | Path, seed: int = 0,
                         variant: str = "razz", settings: Mapping[str, Any] | None = None) -> TrainConfig:
    """The training config of a best response to ``target`` (:data:`DEFAULTS` updated by ``settings``).

    Everything is checked here, before any folder is touched: ``steps`` (positive), ``seed``,
    the variant, the target (known, buildable, able to sit at a heads-up table of ``variant``)
    and the settings (as ``razz train`` checks a config file).
    """
    as_int("steps", steps, 1, what="a number of training steps")
    as_int("seed", seed, 0, MAX_SEED)
    if not isinstance(output, (str, Path)) or not str(output).strip():
        raise ConfigError(f"output: expected a folder path, got {shown(output)}")
    spec = _target_spec(target)
    get_variant(variant)
    check_agent_spec("target", spec, variant, SEATS)
    if settings is not None and not isinstance(settings, Mapping):
        raise ConfigError(f"settings: expected a mapping of training settings, got {shown(settings)}")
    data = copy.deepcopy(DEFAULTS)
    for key, value in (settings or {}).items():
        if key in GIVEN_BY_CALL:
            raise ConfigError(f"settings: {key} is given by the call (steps, output, seed, variant, target), "
                              f"not by the settings")
        if key == "opponents":
            if not isinstance(value, Mapping):
                raise ConfigError(f"settings: opponents: expected a mapping of opponent-pool settings, got "
                                  f"{shown(value)}")
            data["opponents"] = {**data["opponents"], **value}
        else:
            data[key] = copy.deepcopy(value)
    data["opponents"] = {**data["opponents"], "baselines": [spec]}
    data.update(total_timesteps=steps, output=str(output), seed=seed, variant=variant, num_seats=SEATS,
                eval_opponents=[spec])
    config = TrainConfig.from_dict(data)
    if config.algorithm != ALGORITHM or config.opponents.self_play_start or config.opponents.self_play_end:
        pool = config.opponents
        raise ConfigError(f"settings: a best response is {ALGORITHM} against the frozen target alone (no "
                          f"self-play), got algorithm {shown(config.algorithm)}, self-play shares "
                          f"{pool.self_play_start} to {pool.self_play_end}")
    return config


def _comparable(config: TrainConfig) -> dict[str, Any]:
    data = json.loads(json.dumps(config.to_dict()))
    return {key: value for key, value in data.items() if key not in ("total_timesteps", "output")}


def _newest_checkpoint(folder: RunFolder) -> tuple[int, str] | None:
    """Steps and path of the newest checkpoint whose bytes match ``hashes.json`` (None if none)."""
    from razz_env.agents.sb3_agent import UntrustedModelError

    checkpoints, _ = folder.numbered(CHECKPOINTS)
    for steps, relative in reversed(checkpoints):
        try:
            folder.verified_bytes(relative)
        except UntrustedModelError:
            continue
        return steps, relative
    return None


def _plan(folder: RunFolder, config: TrainConfig, fresh: bool) -> str:
    """``"new"``, ``"resume"`` or ``"reuse"`` for ``config`` in ``folder``; refuses another run's folder."""
    if fresh:
        return "new"
    if not folder.holds_run():
        entries = folder.entries()
        if entries:
            raise ConfigError(f"{folder.path}: has {', '.join(p.name for p in entries)} but no {CONFIG} written by "
                              f"a training run; choose another output")
        return "new"
    previous = stored_config(folder)
    old, new = _comparable(previous), _comparable(config)
    differing = [f"{key} was {shown(old.get(key))}, now {shown(new.get(key))}"
                 for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]
    if differing:
        raise ConfigError(f"{folder.path}: holds another run ({'; '.join(differing)}); pass fresh (--fresh) to "
                          f"delete it, or choose another output")
    newest = _newest_checkpoint(folder)
    if previous.total_timesteps > config.total_timesteps:
        done = f", now at {newest[0]}" if newest else ""
        raise ConfigError(f"{folder.path}: holds this best response run toward {previous.total_timesteps} steps"
                          f"{done}, more than the {config.total_timesteps} asked for; ask for "
                          f"{previous.total_timesteps} steps to reuse it, pass fresh (--fresh) to start over, or "
                          f"choose another output")
    if newest is None:
        raise ConfigError(f"{folder.path}: holds this best response but no checkpoint that verifies; pass fresh "
                          f"(--fresh) to start over, or choose another output")
    return "reuse" if newest[0] >= config.total_timesteps else "resume"


def run_best_response(config: TrainConfig, *, fresh: bool = False, progress: bool = True,
                      notify: Callable[[str], None] = _to_stderr) -> dict[str, Any]:
    """Train (or continue, or reuse) the best response ``config`` describes; see :func:`train_best_response`."""
    folder = RunFolder(config.output)
    plan = _plan(folder, config, fresh)
    if plan == "reuse":
        notify(f"{folder.path} already holds this best response; reusing it")
    else:
        try:
            train(config, resume=plan == "resume", fresh=fresh, progress=progress, notify=notify)
        except TrainingInterrupted as err:
            raise TrainingInterrupted(f"interrupted; a checkpoint is saved in {folder.path}: the same call (same "
                                      f"target, steps, seed and output) continues from it") from err
    steps, relative = _newest_checkpoint(folder) or (0, "")
    if not relative:
        raise ConfigError(f"{folder.path}: no checkpoint verifies after training")
    target = config.opponents.baselines[0]
    spec = folder.model_spec(relative, name=f"best_response({agent_label(target)})")
    return {"spec": spec, "steps": steps, "train_seconds": _train_seconds(folder, steps), "output": str(folder.path)}


def _train_seconds(folder: RunFolder, steps: int) -> float:
    """Training seconds (evaluations excluded) up to the checkpoint of ``steps``, over every segment of the run."""
    try:
        _, train_minutes = folder.clock_at(steps)
    except (AttributeError, KeyError, TypeError, ValueError) as err:  # ConfigError included
        raise ConfigError(f"{folder.path / CLOCK}: no readable training time for step {steps} "
                          f"({' '.join(str(err).split()) or type(err).__name__}); pass fresh (--fresh) to start "
                          f"over") from err
    return round(train_minutes * 60, 1)


def train_best_response(target: str | Mapping[str, Any], *, steps: int, output: Path, seed: int = 0,
                        variant: str = "razz", fresh: bool = False, progress: bool = True) -> dict[str, Any]:
    """Train a MaskablePPO best response to the frozen ``target`` (an agent name or spec) for ``steps`` steps.

    Returns ``{"spec", "steps", "train_seconds", "output"}``: ``spec`` builds the trained agent with
    :func:`razz_env.agents.registry.make_agent` (type ``sb3_model``: the checkpoint of the last step, its
    SHA-256 and table), ``steps`` the steps trained (a whole number of rollouts, so at least
    ``steps``), ``train_seconds`` the training time without evaluations, over all segments.
    Raises :class:`ConfigError` on bad input (nothing touched) and
    :class:`~razz_env.train.trainer.TrainingInterrupted` on Ctrl-C (a checkpoint saved).
    """
    config = best_response_config(target, steps=steps, output=output, seed=seed, variant=variant)
    return run_best_response(config, fresh=fresh, progress=progress)

"""The opponent pool: baselines by weight plus self-play snapshots, sampled once per hand.

A :class:`OpponentPool` is the ``opponent_sampler`` of each training
environment. :class:`PoolWrapper` exposes ``add_snapshot`` and ``set_progress`` so
the trainer can reach pools living in subprocess environments (``env_method``).

The pools of one process share each snapshot's model (one copy per process, not one per
environment: 64 environments with 10 snapshots each held 640 models and filled 20 GB); each
pool's snapshot agent keeps its own random generator.
"""

from __future__ import annotations

import random
import weakref
from pathlib import Path
from typing import Any

import gymnasium

from razz_env.encoding.interface import Agent
from razz_env.train.config import OpponentPoolConfig

# Snapshot models loaded in this process, by (resolved path, SHA-256, algorithm); a model goes when no pool holds it.
_SNAPSHOT_MODELS: weakref.WeakValueDictionary[tuple[str, str, str], Any] = weakref.WeakValueDictionary()


def snapshot_model(path: str | Path, sha256: str, algorithm: str) -> Any:
    """The model of a snapshot file, loaded once per process from bytes whose SHA-256 is ``sha256``."""
    from razz_env.agents.sb3_agent import load_model, read_verified

    key = (str(Path(path).resolve()), sha256.lower(), algorithm)
    model = _SNAPSHOT_MODELS.get(key)
    if model is None:
        model = load_model(read_verified(path, sha256), algorithm)
        _SNAPSHOT_MODELS[key] = model
    return model


class OpponentPool:
    """Samples the opponent of each hand (see :class:`OpponentPoolConfig` for the schedule)."""

    def __init__(self, config: OpponentPoolConfig, algorithm: str, encoding: str, seed: int) -> None:
        from razz_env.agents.registry import make_agent

        self.config = config
        self.algorithm = algorithm
        self.encoding = encoding
        self._rng = random.Random(seed)
        self.baselines: list[Agent] = [make_agent(spec, seed=seed + i) for i, spec in enumerate(config.baselines)]
        self.snapshots: list[Agent] = []
        self.progress = 0.0
        self.counts: dict[str, int] = {}

    def add_snapshot(self, path: str | Path, sha256: str) -> None:
        """Add a saved learner snapshot as an opponent (oldest dropped past ``max_snapshots``).

        The file is loaded only if its SHA-256 is ``sha256`` (the one recorded when it was written), once per
        process (:func:`snapshot_model`).
        """
        from razz_env.agents.sb3_agent import SB3Agent

        agent = SB3Agent(snapshot_model(path, sha256, self.algorithm), name=f"snapshot:{Path(path).stem}",
                         deterministic=False, encoding=self.encoding, seed=self._rng.randrange(2**31))
        self.snapshots.append(agent)
        del self.snapshots[: -self.config.max_snapshots]

    def set_progress(self, progress: float) -> None:
        """Training progress from 0 to 1 (drives the self-play share)."""
        self.progress = progress

    def __call__(self) -> Agent:
        if self.snapshots and self._rng.random() < self.config.share_at(self.progress):
            agent = self._rng.choice(self.snapshots)
            kind = "self"
        else:
            agent = self._rng.choices(self.baselines, weights=self.config.weights)[0]
            kind = getattr(agent, "name", type(agent).__name__)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return agent


class BatchPoolControls:
    """The pool's controls: the batched VecEnv's (one pool for all its tables), and a single environment's through
    :class:`PoolWrapper`."""

    def __init__(self, pool: OpponentPool) -> None:
        self.pool = pool

    def add_snapshot(self, path: str, sha256: str) -> None:
        """Forwarded to :meth:`OpponentPool.add_snapshot`."""
        self.pool.add_snapshot(path, sha256)

    def set_progress(self, progress: float) -> None:
        """Forwarded to :meth:`OpponentPool.set_progress`."""
        self.pool.set_progress(progress)

    def opponent_counts(self) -> dict[str, int]:
        """How often each opponent kind was drawn."""
        return dict(self.pool.counts)


class PoolWrapper(gymnasium.Wrapper, BatchPoolControls):
    """Makes the pool's controls reachable through ``VecEnv.env_method``."""

    def __init__(self, env: gymnasium.Env, pool: OpponentPool) -> None:
        gymnasium.Wrapper.__init__(self, env)
        self.pool = pool

    def action_masks(self) -> Any:
        """The wrapped environment's mask (for MaskablePPO)."""
        return self.env.unwrapped.action_masks()

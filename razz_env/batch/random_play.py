"""Uniformly random legal action ids for a whole batch, drawn inside numba (random play without numpy passes).

Benchmarks and rollouts that play random legal actions spend more time drawing them with numpy (a (T, 5)
random array, a product and an argmax a step) than on some of the engine's work; this draws them in one
kernel call from one splitmix64 stream, as Pgx's benchmarks draw theirs inside JIT. With one stream per row
(``policy_state(seed, rows=T)``) row ``t`` draws from its own stream, as the CUDA engine's threads do, so the
two engines play the same random games for a seed.

>>> import numpy as np
>>> masks = np.array([[0, 1, 0, 1, 0], [0, 0, 0, 1, 0]], dtype=np.int8)
>>> state = policy_state(seed=0)
>>> actions = random_legal_actions(masks, state)
>>> bool(masks[np.arange(2), actions].all())
True
"""

from __future__ import annotations

import numpy as np

from razz_env.batch import kernels as _k
from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.engine.checks import as_int


def policy_state(seed: int | None = None, rows: int = 1) -> np.ndarray:
    """Fresh random streams for :func:`random_legal_actions`: a uint64 array of ``rows`` states (one shared by
    every row, or one per row), advanced in place."""
    rows = as_int("rows", rows, 1)
    return np.random.SeedSequence(None if seed is None else as_int("seed", seed, 0)).generate_state(rows, np.uint64)


def random_legal_actions(masks: np.ndarray, state: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """One uniformly random legal id per row of ``masks`` ((T, 5) int8, as ``BatchEngine.masks``), drawn from
    ``state`` (:func:`policy_state`, advanced in place: one stream, or one per row); into ``out`` ((T,) int64)
    when given, else a new array."""
    if not isinstance(masks, np.ndarray) or masks.ndim != 2 or masks.shape[1] != NUM_ACTIONS or masks.dtype != np.int8:
        raise ValueError(f"masks: expected int8 legal-id masks of shape (tables, {NUM_ACTIONS}), got "
                         f"{_described(masks)}")
    if (not isinstance(state, np.ndarray) or state.shape not in ((1,), (masks.shape[0],)) or state.dtype != np.uint64
            or not state.flags.writeable):
        raise ValueError(f"state: expected a writeable uint64 array of shape (1,) or ({masks.shape[0]},) "
                         f"(policy_state(seed) or policy_state(seed, rows={masks.shape[0]})), got {_described(state)}")
    if out is None:
        out = np.empty(masks.shape[0], dtype=np.int64)
    elif (not isinstance(out, np.ndarray) or out.shape != (masks.shape[0],) or out.dtype != np.int64
          or not out.flags.writeable):
        raise ValueError(f"out: expected a writeable int64 array of shape ({masks.shape[0]},), got {_described(out)}")
    empty = _k.random_legal(masks, state, out)
    if empty >= 0:
        raise ValueError(f"masks[{empty}]: no legal id to draw from (a row of zeros); nothing was drawn")
    return out


def _described(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"{value.dtype} of shape {value.shape}" + ("" if value.flags.writeable else " (read-only)")
    return type(value).__name__

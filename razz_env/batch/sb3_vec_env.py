"""The batched single-agent env as a Stable-Baselines3 ``VecEnv``: MaskablePPO trains on it with no glue.

:class:`BatchSB3VecEnv` takes :class:`razz_env.batch.vec_env.BatchSingleAgentVecEnv`'s arguments and answers
``action_masks()`` (and ``env_method("action_masks")`` / ``has_attr``, as sb3-contrib reads it);
``infos[i]["terminal_observation"]`` marks a finished table (a zero vector: see ``batch_vec``). ``controls``
(an object, e.g. the training opponent pool) receives the other ``env_method`` calls: one call, whose answer
is returned once, since the tables share it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from razz_env.batch.vec_env import BatchSingleAgentVecEnv

__all__ = ["BatchSB3VecEnv"]


class BatchSB3VecEnv(VecEnv):
    """:class:`BatchSingleAgentVecEnv` as a Stable-Baselines3 ``VecEnv`` with ``action_masks()``.

    Takes the same arguments, or (:meth:`of_parts`) several batched envs of one observation layout, one per
    table size, whose tables follow one another. ``env_method("action_masks")`` and
    ``get_attr("action_masks")`` answer per table, as sb3-contrib's ``MaskablePPO`` asks them.
    """

    def __init__(self, num_envs: int, opponents: Any = None, seat: int | str = "random", *, controls: Any = None,
                 **options: Any) -> None:
        self._setup([BatchSingleAgentVecEnv(num_envs, opponents, seat, **options)], controls)

    @classmethod
    def of_parts(cls, parts: list[BatchSingleAgentVecEnv], controls: Any = None) -> BatchSB3VecEnv:
        """One VecEnv over the tables of ``parts`` in order (e.g. one part per table size, padded encodings)."""
        spaces = {(part.single_observation_space.shape, part.encoder.name) for part in parts}
        if len(spaces) != 1:
            raise ValueError(f"parts: expected one observation layout (a padded encoding for mixed table sizes), "
                             f"got {sorted(spaces)}")
        env = cls.__new__(cls)
        env._setup(list(parts), controls)
        return env

    def _setup(self, parts: list[BatchSingleAgentVecEnv], controls: Any) -> None:
        self.parts = parts
        self.venv = parts[0]
        self.controls = controls
        self._bounds = np.cumsum([0] + [part.num_envs for part in parts])
        super().__init__(int(self._bounds[-1]), self.venv.single_observation_space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None

    def set_opponents(self, opponents: Any) -> None:
        """Seat new opponents from the next step on (see :meth:`BatchSingleAgentVecEnv.set_opponents`)."""
        for part in self.parts:
            part.set_opponents(opponents)

    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if self._seeds else None
        self._reset_seeds()
        return np.concatenate([part.reset(seed=None if seed is None else seed + k)[0]
                               for k, part in enumerate(self.parts)])

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        observations, rewards, dones, out = [], [], [], []
        for k, part in enumerate(self.parts):
            obs, reward, terminated, _, infos = part.step(self._actions[self._bounds[k]:self._bounds[k + 1]])
            observations.append(obs)
            rewards.append(reward)
            dones.append(terminated)
            finished = [{} for _ in range(part.num_envs)]
            for t in np.flatnonzero(terminated).tolist():
                finished[t] = {"terminal_observation": infos["final_obs"][t], "TimeLimit.truncated": False}
            out.extend(finished)
        return (np.concatenate(observations), np.concatenate(rewards).astype(np.float32), np.concatenate(dones),
                out)

    def action_masks(self) -> np.ndarray:
        """(T, 5) masks of the learner at every table."""
        return np.concatenate([part.action_masks() for part in self.parts]).astype(bool)

    def close(self) -> None:
        for part in self.parts:
            part.engine = None

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks] * len(self._indices(indices))
        value = getattr(self.venv, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"set_attr({attr_name!r}): the tables of a batched env share their settings")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[t] for t in rows]
        method = getattr(self.controls, method_name, None) if not method_name.startswith("_") else None
        if method is None:
            raise AttributeError(f"env_method({method_name!r}): the batched env answers 'action_masks' and its "
                                 "controls' methods only")
        return [method(*method_args, **method_kwargs)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

"""RLlib glue: ``razz_env.env()`` in RLlib's ``PettingZooEnv``, observed as RLlib's action-masking module reads it.

``masked_env(config)`` is what ``ray.tune.registry.register_env`` takes: it builds the PettingZoo env with
``config`` as its keywords and returns it wrapped so that each agent's observation is
``{"observations": vector, "action_mask": float32 mask}``. Ray is imported only when it is called (the
``rllib`` extra), and the module is part of the package so RLlib's env-runner processes can import it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np


def masked_env(config: dict | None = None) -> Any:
    """``razz_env.env(**config)`` in RLlib's ``PettingZooEnv`` with action-masking observations."""
    from razz_env.envs.aec import env

    return _masked_env_class()(env(**(config or {})))


@cache
def _masked_env_class() -> type:
    import gymnasium
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    class MaskedPettingZooEnv(PettingZooEnv):
        """RLlib's ``PettingZooEnv`` with observations as RLlib's action-masking module reads them."""

        def __init__(self, env: Any) -> None:
            super().__init__(env)
            self.observation_spaces = {agent: gymnasium.spaces.Dict({
                "observations": space["observation"],
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, space["action_mask"].shape, np.float32),
            }) for agent, space in self.observation_spaces.items()}
            self.observation_space = gymnasium.spaces.Dict(self.observation_spaces)

        def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
            observations, infos = super().reset(seed=seed, options=options)
            return _masked(observations), infos

        def step(self, action: dict) -> tuple:
            observations, *rest = super().step(action)
            return (_masked(observations), *rest)

    return MaskedPettingZooEnv


def _masked(observations: dict) -> dict:
    return {agent: {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}
            for agent, o in observations.items()}

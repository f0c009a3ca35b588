"""Trained Stable-Baselines3 policies as agents, with masking for every algorithm.

One adapter serves all algorithms: the policy's per-action scores (logits for
PPO/A2C/MaskablePPO, Q-values for DQN, mean quantiles for QR-DQN) are computed
for a whole batch of observations in one forward pass, illegal ids are set to
``-inf``, and the best legal id is taken (or sampled from the masked
distribution when ``deterministic=False``). So a trained agent never sends an
illegal action, whichever algorithm trained it. During training, algorithms
without native masking play through ``SingleAgentEnv(illegal_action="check_fold")``,
which plays the passive action (check, else fold) for an illegal choice.

Trust boundary: SB3 archives can carry pickled Python objects. Load only files you
trust; the shipped zoo files are verified against their SHA-256 before loading
(:mod:`agents.sb3_zoo`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.agent import Observation

ALGORITHMS = ("maskable_ppo", "ppo", "a2c", "dqn", "qrdqn")


def algorithm_class(name: str) -> Any:
    """The SB3 / sb3-contrib class for an algorithm name in :data:`ALGORITHMS`."""
    if name == "maskable_ppo":
        from sb3_contrib import MaskablePPO

        return MaskablePPO
    if name == "qrdqn":
        from sb3_contrib import QRDQN

        return QRDQN
    if name in ("ppo", "a2c", "dqn"):
        import stable_baselines3

        return getattr(stable_baselines3, name.upper())
    raise ValueError(f"algorithm: unknown {name!r}; known: {', '.join(ALGORITHMS)}")


def action_scores(model: Any, observations: np.ndarray) -> Any:
    """Per-action scores (higher = preferred) of ``model`` for a batch, as a torch tensor."""
    import torch

    policy = model.policy
    with torch.no_grad():
        obs, _ = policy.obs_to_tensor(observations)
        if hasattr(policy, "quantile_net"):
            return policy.quantile_net(obs).mean(dim=1)
        if hasattr(policy, "q_net"):
            return policy.q_net(obs)
        distribution = policy.get_distribution(obs)
        return distribution.distribution.logits


def masked_actions(model: Any, observations: np.ndarray, masks: np.ndarray, deterministic: bool = True,
                   generator: Any = None) -> np.ndarray:
    """Legal action ids for a batch: best (or sampled) among the ids each mask allows."""
    import torch

    scores = action_scores(model, observations)
    legal = torch.as_tensor(masks, dtype=torch.bool, device=scores.device)
    scores = scores.masked_fill(~legal, -torch.inf)
    if deterministic:
        return scores.argmax(dim=1).cpu().numpy()
    probabilities = torch.softmax(scores, dim=1)
    return torch.multinomial(probabilities, 1, generator=generator).squeeze(1).cpu().numpy()


class SB3Agent:
    """A trained policy playing by the agent interface; batches decisions in one forward pass."""

    observes = ("vector",)

    def __init__(self, model: Any, name: str = "sb3", deterministic: bool = True, encoding: str = "flat",
                 seed: int | None = None) -> None:
        import torch

        self.model = model
        self.name = name
        self.deterministic = deterministic
        self.encoding = encoding
        self._generator = torch.Generator().manual_seed(seed if seed is not None else 0)

    @classmethod
    def load(cls, path: str | Path, algorithm: str, **kwargs: Any) -> SB3Agent:
        """Load a saved model (trusted files only: archives may hold pickled objects)."""
        model = algorithm_class(algorithm).load(str(path), device="cpu")
        return cls(model, **kwargs)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Stateless: nothing to clear between hands."""

    def act(self, observation: Observation) -> int:
        """One decision (prefer :meth:`act_batch`: one forward pass for many tables)."""
        return self.act_batch([observation])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """Decisions for many tables in one forward pass."""
        vectors = np.stack([o.vector for o in observations])
        masks = np.stack([o.action_mask for o in observations]).astype(bool)
        actions = masked_actions(self.model, vectors, masks, self.deterministic, self._generator)
        return [int(a) for a in actions]

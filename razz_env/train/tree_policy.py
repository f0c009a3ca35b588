"""A policy network read into a solved game's tree in one forward pass, so that its exact exploitability takes a
second or two and a training run can be measured exactly every few minutes.

:func:`razz_env.solve.agent.policy_from_agent` asks an agent once per information set through the agent
interface (about 15 s on MiniRazz); here the vectors of every information set are built once
(:func:`~razz_env.solve.agent.infoset_vectors`: the same observations, the same encoder) and a network's masked
softmax over all of them is one batched pass: the same :class:`~razz_env.solve.policy.TabularPolicy`, as a test
checks against the agent path.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from razz_env.solve.agent import infoset_vectors
from razz_env.solve.best_response import Exploitability, exploitability
from razz_env.solve.game import Game
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.sweep import Sweeper

BATCH = 65_536
"""Rows of one forward pass."""


class TreePolicies:
    """The inputs of every information set of ``game`` (built once) and the sweeps that measure a policy there."""

    def __init__(self, game: Game, encoding: str = "flat") -> None:
        self.game = game
        vectors, masks = infoset_vectors(game, encoding)
        self.vectors = torch.from_numpy(vectors)
        self.masks = torch.from_numpy(masks)
        self.sweeper = Sweeper(game)

    def policy(self, network: Any, method: str = "network") -> TabularPolicy:
        """``network``'s masked softmax (its logits over the five ids, as :class:`~razz_env.agents.torch_policy.
        TorchPolicyAgent` plays with ``deterministic=False``) at every information set; the rows go to the network's
        device (a GPU-trained run is measured where it trains) and the probabilities come back."""
        parameters = getattr(network, "parameters", None)
        device = next(parameters()).device if parameters is not None else torch.device("cpu")
        rows = []
        with torch.no_grad():
            for start in range(0, len(self.vectors), BATCH):
                logits = network(self.vectors[start:start + BATCH].to(device)).double().cpu()
                logits = logits.masked_fill(~self.masks[start:start + BATCH], -np.inf)
                rows.append(torch.softmax(logits, dim=1))
        return TabularPolicy.from_table(self.game, torch.cat(rows).numpy(), method=method)

    def exploitability(self, policy: TabularPolicy) -> Exploitability:
        """``policy``'s exact exploitability (NashConv / 2)."""
        return exploitability(self.game, policy, self.sweeper)

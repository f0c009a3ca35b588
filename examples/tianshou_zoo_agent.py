"""A zoo agent inside Tianshou: ``ppo_razz`` as a Tianshou policy, against Tianshou's ``RandomPolicy``.

Tianshou's ``PettingZooEnv`` hands each policy batches of ``obs.obs`` (vectors), ``obs.mask`` (booleans)
and ``obs.agent_id``; :class:`ZooPolicy` turns them into the agent's observations through a bare
:class:`razz_env.envs.adapters.AgentAdapter` (so only agents that read the vector can play here: ``ppo_razz``,
``random``, ``calling_station``). Any Tianshou learner can take the other seat instead of ``RandomPolicy``.
Written for Tianshou 0.5 (``pip install "razz-env[tianshou]"``).

    python examples/tianshou_zoo_agent.py --hands 200
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from tianshou.data import Batch, Collector
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.policy import BasePolicy, MultiAgentPolicyManager, RandomPolicy

import razz_env
from razz_env.agents.registry import make_agent
from razz_env.envs.adapters import AgentAdapter

TABLE = {"variant": "razz", "num_seats": 2, "stacks": 1000}  # the table ppo_razz was trained at


class ZooPolicy(BasePolicy):
    """A razz-env agent as a Tianshou policy (it learns nothing: ``learn`` is a no-op)."""

    def __init__(self, agent: Any) -> None:
        super().__init__()
        self.adapter = AgentAdapter(agent, variant=TABLE["variant"], num_seats=TABLE["num_seats"])

    def forward(self, batch: Batch, state: Any = None, **kwargs: Any) -> Batch:
        """One action per row, every row decided in one call (one network pass for the SB3 agents)."""
        obs = batch.obs
        observations = [{"observation": vector, "action_mask": mask} for vector, mask in zip(obs.obs, obs.mask)]
        return Batch(act=np.array(self.adapter.act_batch(observations, list(obs.agent_id))))

    def learn(self, batch: Batch, **kwargs: Any) -> dict[str, float]:
        """A shipped agent does not learn here."""
        return {}


def make_env() -> PettingZooEnv:
    return PettingZooEnv(razz_env.env(**TABLE))


def play(hands: int, seed: int = 0, num_envs: int = 2) -> dict[str, float]:
    """Mean big bets per hand of each seat (``player_0``: ``ppo_razz``, ``player_1``: Tianshou's random policy)."""
    np.random.seed(seed)  # RandomPolicy draws from numpy's global generator
    envs = DummyVectorEnv([make_env for _ in range(num_envs)])
    envs.seed(seed)
    policy = MultiAgentPolicyManager([ZooPolicy(make_agent("ppo_razz")), RandomPolicy()], make_env())
    result = Collector(policy, envs).collect(n_episode=hands)
    returns = np.asarray(result["rews"], dtype=float).reshape(-1, TABLE["num_seats"])
    envs.close()
    return {name: float(returns[:, i].mean()) for i, name in enumerate(("player_0 (ppo_razz)", "player_1 (random)"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands to collect (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and of the random policy (default 0)")
    args = parser.parse_args()
    if args.hands < 1:
        parser.error(f"--hands: expected a positive number of hands, got {args.hands}")
    for name, per_hand in play(args.hands, args.seed).items():
        print(f"{name:>20}: {100 * per_hand:+8.2f} bb/100 over {args.hands} hands")


if __name__ == "__main__":
    main()

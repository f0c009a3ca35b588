"""Every zoo agent pickles (``pickle`` and ``cloudpickle``, as Ray, Tianshou's and SB3's subprocess envs ship
them) and the copy decides exactly as the original would, its random state included."""

from __future__ import annotations

import pickle
import random

import cloudpickle
import pytest

from razz_env.agents.registry import make_agent
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Observer
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState

ZOO = ["random", "calling_station", "razz_heuristic", {"type": "monte_carlo", "samples": 16},
       {"type": "ppo_razz", "deterministic": False}]


def decisions(agent, hands: int = 3) -> list[int]:
    """The agent's actions at every seat of a few seeded heads-up razz hands."""
    config = HandConfig.create("razz", num_seats=2)
    observer = Observer(agent, config)
    chosen = []
    for number in range(hands):
        hand = HandState(config, rng=random.Random(number))
        for seat in range(2):
            agent.reset(seat, 2, "razz")
        while not hand.is_over:
            action = agent.act(observer(hand, hand.actor))
            chosen.append(action)
            hand.act(to_engine(action, hand.legal_actions()))
    return chosen


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
@pytest.mark.parametrize("spec", ZOO, ids=lambda spec: spec if isinstance(spec, str) else spec["type"])
def test_a_pickled_agent_decides_as_the_original(spec, dumps) -> None:
    agent = make_agent(spec, seed=5)
    decisions(agent, hands=1)  # some random state consumed before the copy
    copy = pickle.loads(dumps(agent))
    assert decisions(copy) == decisions(agent)

"""Shared fixtures of the solver tests: the tiny game and a CFR+ policy for it (built once per session), and the
decisions of random hands."""

import random
from collections.abc import Callable

import numpy as np
import pytest

from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Observation, observe
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.solve.cfr import CFRPlus
from razz_env.solve.game import build_game

SOLVED_ITERATIONS = 60


@pytest.fixture(scope="session")
def tiny():
    return build_game("minirazz_tiny")


@pytest.fixture(scope="session")
def solved(tiny):
    solver = CFRPlus(tiny)
    solver.run(iterations=SOLVED_ITERATIONS, check_every=SOLVED_ITERATIONS)
    policy = solver.average_policy()
    policy.exploitability_mbb = solver.history[-1].mbb
    return policy


def play_random_decisions(config: HandConfig, hands: int, seed: int) -> list[Observation]:
    """Every decision of ``hands`` hands of uniformly random play, as observations with views, shuffled (rows of
    every hand, street and seat mixed)."""
    rng = random.Random(seed)
    observations = []
    for number in range(hands):
        hand = HandState(config, seed=seed * 1_000_003 + number)
        while not hand.is_over:
            observation = observe(hand, hand.actor)
            observations.append(observation)
            choice = rng.choice(np.flatnonzero(observation.action_mask).tolist())
            hand.act(to_engine(choice, hand.legal_actions()))
    rng.shuffle(observations)
    return observations


@pytest.fixture(scope="session")
def random_decisions() -> Callable[[HandConfig, int, int], list[Observation]]:
    """:func:`play_random_decisions`: ``(config, hands, seed)`` to every decision of random hands, shuffled."""
    return play_random_decisions

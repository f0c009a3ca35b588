"""Shared helpers for the agent tests: drive a hand with agents, play duplicate heads-up matches, collect
the decisions of random hands (what batched agents are checked on)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Agent, Observation, Observer, observe
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState


def run_hand(hand: HandState, agents: Sequence[Agent]) -> HandState:
    """Play ``hand`` to the end with ``agents[seat]`` at each seat, failing on any illegal id."""
    observers = [Observer(agent, hand.config) for agent in agents]
    for seat, agent in enumerate(agents):
        agent.reset(seat, hand.num_seats, hand.config.variant.name)
    while not hand.is_over:
        seat = hand.actor
        observation = observers[seat](hand, seat)
        action_id = agents[seat].act(observation)
        assert observation.action_mask[action_id] == 1, (
            f"{agents[seat].name} chose illegal id {action_id} with mask {observation.action_mask.tolist()}"
        )
        hand.act(to_engine(action_id, hand.legal_actions()))
    return hand


def duplicate_match(hero: Agent, villain: Agent, deals: int, variant: str = "razz", seed: int = 0) -> float:
    """Hero's result in big bets per 100 hands, each deal played twice with the seats swapped."""
    config = HandConfig.create(variant, num_seats=2)
    chips = 0
    for deal in range(deals):
        for hero_seat in (0, 1):
            seats = [hero, villain] if hero_seat == 0 else [villain, hero]
            hand = run_hand(HandState(config, seed=seed * 1_000_003 + deal), seats)
            chips += hand.payoffs[hero_seat]
    return chips / config.stakes.big_bet / (2 * deals) * 100


@pytest.fixture
def play_hand() -> Callable[[HandState, Sequence[Agent]], HandState]:
    """:func:`run_hand`: plays a hand to the end, asserting every chosen id is legal."""
    return run_hand


@pytest.fixture
def bb_per_100() -> Callable[..., float]:
    """:func:`duplicate_match`: hero's big bets per 100 hands over duplicate heads-up deals."""
    return duplicate_match


WEIGHTS = ((1, 4, 3, 2, 2), (0, 6, 1, 2, 1))
"""How often the random chooser of :func:`random_decisions` takes each legal id: few folds, many raises, so
hands reach the late streets, capped rounds and (with short stacks) all-ins; and, every fifth hand, no folds
at all, so that eight seats reach 7th street and share a community card."""


@functools.cache
def random_decisions(variant: str, num_seats: int, hands: int = 40, seed: int = 0) -> tuple[Observation, ...]:
    """The acting seat's observation at every decision of ``hands`` seeded random hands (every third with short
    stacks, every fourth letting a seat fold for free): rows of every street, seat and betting state."""
    observations = []
    for deal in range(hands):
        rng = random.Random(seed * 7919 + deal)
        stacks = [rng.randint(3, 60) if deal % 3 == 1 else 200 for _ in range(num_seats)]
        hand = HandState(HandConfig.create(variant, stacks=stacks), seed=seed * 7919 + deal)
        open_fold, weights = deal % 4 == 3, WEIGHTS[deal % 5 == 4]
        while not hand.is_over:
            observation = observe(hand, hand.actor, allow_open_fold=open_fold)
            observations.append(observation)
            legal = np.flatnonzero(observation.action_mask).tolist()
            action_id = rng.choices(legal, [weights[i] for i in legal])[0]
            hand.act(to_engine(action_id, hand.legal_actions(), allow_open_fold=open_fold))
    return tuple(observations)


@pytest.fixture
def decisions() -> Callable[..., tuple[Observation, ...]]:
    """:func:`random_decisions`: observations at every decision of seeded random hands (cached)."""
    return random_decisions

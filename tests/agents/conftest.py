"""Shared helpers for the agent tests: drive a hand with agents, play duplicate heads-up matches."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Agent, Observer
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

"""Every baseline returns only legal ids, in every variant, at 2-6 seats (and 8), short stacks included."""

from __future__ import annotations

import random

import pytest

from agents.registry import available_agents, make_agent
from razz_env.agent import observe
from razz_env.encoding.actions import to_engine
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS

BASELINES = ("random", "calling_station", "razz_heuristic", "monte_carlo")
SPECS = ("random", "calling_station", "razz_heuristic", {"type": "monte_carlo", "samples": 24})


def test_baselines_are_registered() -> None:
    assert set(BASELINES) <= set(available_agents())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_baselines_play_only_legal_ids(variant: str, seats: int, play_hand) -> None:
    rng = random.Random(f"{variant}/{seats}")
    agents = [make_agent(SPECS[i % len(SPECS)], seed=i) for i in range(seats)]
    for deal in range(10):
        short = deal % 2 == 1  # short stacks: all-ins, side pots, a bring-in that is all the seat has
        stacks = [rng.randint(1, 40) if short else 200 for _ in range(seats)]
        rotation = agents[deal % seats:] + agents[:deal % seats]
        hand = play_hand(HandState(HandConfig.create(variant, stacks=stacks), seed=rng.randrange(2**32)), rotation)
        assert sum(hand.payoffs) == 0


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_full_table_with_community_card(variant: str) -> None:
    """Eight seats that all reach 7th street share a community card: every agent decides legally there."""
    agents = [make_agent(spec, seed=1) for spec in SPECS]
    hand = HandState(HandConfig.create(variant, num_seats=8), seed=3)
    station = make_agent("calling_station")
    while not hand.is_over:
        observation = observe(hand, hand.actor)
        for agent in agents:
            assert observation.action_mask[agent.act(observation)] == 1
        hand.act(to_engine(station.act(observation), hand.legal_actions()))
    assert hand.community is not None


@pytest.mark.parametrize("name", BASELINES)
def test_forced_bring_in_only(name: str, play_hand) -> None:
    """A seat whose whole stack is the bring-in has one legal action; every agent takes it."""
    config = HandConfig.create("razz", stacks=[3, 3, 3], bring_in=2)
    for deal in range(5):
        play_hand(HandState(config, seed=deal), [make_agent(name, seed=deal) for _ in range(3)])


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_play(spec, play_hand) -> None:
    def actions(seed: int) -> list:
        agents = [make_agent(spec, seed=seed), make_agent(spec, seed=seed + 1)]
        hands = [play_hand(HandState(HandConfig.create("razz"), seed=deal), agents) for deal in range(5)]
        return [e.action for hand in hands for e in hand.history]

    assert actions(7) == actions(7)

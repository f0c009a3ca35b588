"""Every baseline returns only legal ids, in every variant it plays, at 2-6 seats (and 8), short stacks included;
the seven-card agents refuse a MiniRazz table before any hand."""

from __future__ import annotations

import random

import pytest

import razz_env.agents.lbr  # noqa: F401  (registers "lbr")
from razz_env.agents.registry import available_agents, make_agent
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import Declaration, observe, seating_problem
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.state import HandState
from razz_env.engine.variants import SEVEN_CARD_GAMES, VARIANTS

MINIRAZZ = tuple(name for name in VARIANTS if name not in SEVEN_CARD_GAMES)

BASELINES = ("random", "calling_station", "razz_heuristic", "monte_carlo")
SPECS = ("random", "calling_station", "razz_heuristic", {"type": "monte_carlo", "samples": 24})


def test_baselines_are_registered() -> None:
    assert set(BASELINES) <= set(available_agents())


@pytest.mark.parametrize("variant", SEVEN_CARD_GAMES)
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


@pytest.mark.parametrize("variant", MINIRAZZ)
def test_the_variant_free_baselines_play_minirazz_at_every_table_size(variant: str, play_hand) -> None:
    rng = random.Random(variant)
    for seats in range(2, max_seats(VARIANTS[variant]) + 1):
        agents = [make_agent(("random", "calling_station")[i % 2], seed=i) for i in range(seats)]
        for deal in range(10):
            stacks = [rng.randint(1, 12) if deal % 2 else 200 for _ in range(seats)]  # short: all-ins, side pots
            hand = play_hand(HandState(HandConfig.create(variant, stacks=stacks), seed=rng.randrange(2**32)), agents)
            assert sum(hand.payoffs) == 0 and all(len(held) <= VARIANTS[variant].cards_per_seat for held in hand.cards)


@pytest.mark.parametrize(("spec", "plays", "trained"), [
    ("razz_heuristic", "razz or action_razz or stud or stud8 at any number of", False),
    ("monte_carlo", "razz or action_razz or stud or stud8 at any number of", False),
    ({"type": "lbr", "target": "random"}, "razz or action_razz or stud or stud8 at 2", False),
    ({"type": "lbr", "target": "ppo_razz"}, "razz at 2", True),
    ("ppo_razz", "razz at 2", True),
    ("qrdqn_razz", "razz at 2", True),
    ("ppo_razz_pool", "razz at 2", True),
    ("ppo_razz_multiway", "razz at 2/3/4/5/6/7/8", True),
    ("ppo_razz_psro", "razz at 2", True),
    ("ppo_stud", "stud at 2", True),
])
def test_agents_that_read_seven_card_stud_refuse_a_minirazz_table(spec, plays: str, trained: bool) -> None:
    if trained:
        pytest.importorskip("sb3_contrib", reason="the zoo's trained agents need the train extra")
    agent = make_agent(spec, seed=0)
    for variant in MINIRAZZ:
        assert seating_problem(agent, variant, 2) == (f"agent {agent.name!r} plays {plays} seats; it cannot be "
                                                      f"seated at {variant} with 2 seats")
    home = plays.split(" or ")[0].split(" at ")[0]
    assert seating_problem(agent, home, 2) is None


def test_lbr_of_a_target_that_plays_only_minirazz_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"target 'random' plays minirazz; LBR plays the seven-card games only"):
        make_agent({"type": "lbr", "target": f"{MiniRazzOnly.__module__}:MiniRazzOnly"})


class MiniRazzOnly:
    """A policy agent that declares it plays MiniRazz only."""

    name = "random"
    declaration = Declaration(variants=("minirazz",), states_policy=True)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Stateless."""

    def act(self, observation) -> int:
        return int(observation.action_mask.nonzero()[0][0])

    def action_probabilities(self, observation):
        return observation.action_mask / observation.action_mask.sum()


@pytest.mark.parametrize("variant", SEVEN_CARD_GAMES)
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

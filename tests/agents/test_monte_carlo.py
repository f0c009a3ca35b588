"""The Monte Carlo agent: it decides on what its seat can see only, and its equity makes sense."""

from __future__ import annotations

import random

import pytest

from agents.monte_carlo import MonteCarloAgent
from agents.registry import make_agent
from razz_env.agent import observe
from razz_env.encoding.actions import to_engine
from razz_env.engine.cards import parse_cards
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS

HIDDEN_POSITIONS = (0, 1, 6)  # down, down, 7th street


def _two_deals(seed: int, seats: int) -> tuple[list[list[int]], list[list[int]]]:
    """The same deal twice, except that every other seat's down cards differ."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    cards = [deck[7 * s:7 * s + 7] for s in range(seats)]
    spare = iter(deck[7 * seats:])
    other = [list(held) for held in cards]
    for seat in range(1, seats):
        for position in HIDDEN_POSITIONS:
            other[seat][position] = next(spare)
    return cards, other


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("spec", [{"type": "monte_carlo", "samples": 64}, "razz_heuristic"])
def test_opponents_down_cards_do_not_matter(variant: str, spec) -> None:
    """Seat 0's decisions and equity are identical whatever the opponents hold face down."""
    for deal in range(4):
        seats = 2 + deal % 2
        first, second = _two_deals(deal, seats)
        config = HandConfig.create(variant, num_seats=seats)
        hands = [HandState(config, cards=first), HandState(config, cards=second)]
        agents = [make_agent(spec, seed=11), make_agent(spec, seed=11)]
        station = make_agent("calling_station")
        decisions = 0
        while not hands[0].is_over:
            assert hands[0].actor == hands[1].actor and hands[0].street == hands[1].street
            seat = hands[0].actor
            observations = [observe(hand, seat) for hand in hands]
            if seat == 0:
                chosen = [agent.act(obs) for agent, obs in zip(agents, observations)]
                assert chosen[0] == chosen[1]
                if isinstance(agents[0], MonteCarloAgent):
                    assert agents[0].equity(observations[0].view) == agents[1].equity(observations[1].view)
                decisions += 1
            else:
                chosen = [station.act(obs) for obs in observations]
            if seat == 0 and chosen[0] == 0:  # seat 0 folded: the rest is not its decision
                break
            for hand, action_id in zip(hands, chosen):
                hand.act(to_engine(action_id, hand.legal_actions()))
        assert decisions > 0


def _to_seventh(variant: str, cards: str, seats: int = 2) -> HandState:
    held = [parse_cards(cards)] + [list(range(7 * s + 24, 7 * s + 31)) for s in range(seats - 1)]
    hand = HandState(HandConfig.create(variant, num_seats=seats), cards=held)
    station = make_agent("calling_station")
    while hand.street < 7 or hand.actor != 0:
        hand.act(to_engine(station.act(observe(hand, hand.actor)), hand.legal_actions()))
    return hand


def test_equity_of_the_nuts_and_of_a_dead_hand() -> None:
    agent = MonteCarloAgent(samples=300, seed=1)
    wheel = _to_seventh("razz", "Ac 2c 3d 4h 5s Ks Kh")
    assert agent.equity(wheel.view(0)) > 0.95
    trips = _to_seventh("razz", "Kc Kd Ks Qh Qs Qd Jh")
    assert agent.equity(trips.view(0)) < 0.05


def test_equity_in_every_variant_is_a_share() -> None:
    agent = MonteCarloAgent(samples=100, seed=2)
    for variant in VARIANTS:
        hand = _to_seventh(variant, "Ac 2c 3d 4h 5s Ks Kh", seats=3)
        equity = agent.equity(hand.view(0))
        assert 0.0 <= equity <= 1.0
    stud8_scoop = _to_seventh("stud8", "Ac 2c 3c 4c 5c Kh Kd")  # steel wheel: best high and best low
    assert agent.equity(stud8_scoop.view(0)) > 0.9


def test_samples_must_be_positive() -> None:
    with pytest.raises(ValueError, match="samples"):
        MonteCarloAgent(samples=0)

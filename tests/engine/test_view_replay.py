"""replay_view: from any seat's view of a random hand (any variant, 2-8 seats, random stakes, stacks and rules),
the replay reaches the same view (the same chips in, once the hand is over), and at each decision of the history
the seat's view is the one it had then."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.engine import HandConfig, HandState
from razz_env.engine.view_replay import replay_view
from tests.engine.test_properties import configs


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=st.integers(0, 2**31), stop=st.floats(0, 1))
def test_every_seat_replays_its_view_and_its_earlier_views(config: HandConfig, seed: int, stop: float) -> None:
    hand = HandState(config, seed=seed)
    choose = random.Random(seed)
    seen: list[list] = []  # each seat's view before each history entry
    while not hand.is_over and choose.random() > stop / 8:
        seen.append([hand.view(s) for s in range(config.num_seats)])
        hand.act(choose.choice(hand.legal_actions()))
    for seat in range(config.num_seats):
        view = hand.view(seat)
        visited: list[int] = []

        def visit(number: int, replayed: HandState, seat: int = seat, visited: list[int] = visited) -> None:
            visited.append(number)
            assert replayed.view(seat) == seen[number][seat]

        replayed = replay_view(view, config, visit)
        assert visited == list(range(len(view.history)))
        assert replayed.contributed == hand.contributed
        if not hand.is_over:  # a finished hand's pots went by cards the view does not show
            assert replayed.view(seat) == view
        assert replayed.cards[seat] == hand.cards[seat]


def test_a_view_of_another_table_is_named_with_both_stacks() -> None:
    hand = HandState(HandConfig.create("razz", stacks=200), seed=1)
    hand.act(hand.legal_actions()[0])
    with pytest.raises(ValueError, match=r"started from stacks \[200, 200\] .* replayed at stacks \[1000, 1000\]"):
        replay_view(hand.view(0), HandConfig.create("razz", stacks=1000))


def test_a_view_of_another_raise_cap_is_refused_though_its_chips_agree() -> None:
    """Bring-in, complete, raise: at a cap of 4 the bring-in may raise again, at a cap of 2 not; the chips are the
    same, the decision is not."""
    hand = HandState(HandConfig.create("razz", raise_cap=4), seed=1)
    for action in ("bring_in", "complete", "raise"):
        hand.act(action)
    view = hand.view(hand.actor)
    assert replay_view(view, HandConfig.create("razz", raise_cap=4)).view(view.seat) == view
    with pytest.raises(ValueError, match=r"to act \(fold, call, raise\); replayed at .* raise cap 2 .* to act "
                                         r"\(fold, call\)"):
        replay_view(view, HandConfig.create("razz", raise_cap=2))

"""Pictures of the table (razz_env.envs.render) and the environments' rgb_array render mode: pixels checked."""

from __future__ import annotations

import atexit
import os
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.engine.cards import card_str, parse_cards
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS
from razz_env.envs.render import (
    COLOURS,
    HEIGHT,
    SUIT_COLOURS,
    WIDTH,
    card_box,
    draw_table,
    render_rgb,
    seat_origin,
    table_state,
)

# Seat 0: (4c 5d) 2h | 3s 6c 7d | 8h; seat 1: (Kc Qd) Ks | Qs Jc Td | 9h; seat 2: (As 2c) 3h | 4s 5c 6d | 7h.
CARDS = [parse_cards("4c 5d 2h 3s 6c 7d 8h"), parse_cards("Kc Qd Ks Qs Jc Td 9h"),
         parse_cards("As 2c 3h 4s 5c 6d 7h")]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def _crop(picture: np.ndarray, box: tuple[int, int, int, int], inset: int = 3) -> np.ndarray:
    left, top, right, bottom = box
    return picture[top + inset:bottom - inset, left + inset:right - inset]


def _share(region: np.ndarray, colour: str) -> float:
    """Fraction of the region's pixels that are exactly ``colour``."""
    return float(np.all(region == _rgb(colour), axis=-1).mean())


def _hand() -> HandState:
    """Seat 1 (king up) brings in, seat 2 completes, seat 0 calls, seat 1 folds: 4th street, seat 0 (2-3) to act."""
    hand = HandState(HandConfig.create("razz", num_seats=3), cards=CARDS)
    for action in ("bring_in", "complete", "call", "fold"):
        hand.act(action)
    return hand


def test_picture_is_an_rgb_uint8_array_of_the_declared_size():
    picture = render_rgb(_hand(), viewer=0)
    assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8
    assert tuple(picture[2, 2]) == _rgb(COLOURS["background"])


def test_the_same_hand_draws_the_same_picture_and_another_viewer_a_different_one():
    first, again = render_rgb(_hand(), viewer=0), render_rgb(_hand(), viewer=0)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, render_rgb(_hand(), viewer=2))


def test_face_down_cards_show_a_back_and_the_viewers_own_down_cards_their_face():
    hand = _hand()
    picture = render_rgb(hand, viewer=0)
    back, hole_face, face = COLOURS["back"], COLOURS["hole_face"], COLOURS["face"]
    own_hole = _crop(picture, card_box(3, 0, 0))
    other_hole = _crop(picture, card_box(3, 2, 0))
    other_up = _crop(picture, card_box(3, 2, 2))
    assert _share(other_hole, back) > 0.3 and _share(other_hole, hole_face) == 0
    assert _share(own_hole, hole_face) > 0.3 and _share(own_hole, back) == 0
    assert _share(other_up, face) > 0.3
    assert not np.array_equal(own_hole, other_hole)
    everything = render_rgb(hand, viewer=None)
    assert _share(_crop(everything, card_box(3, 2, 0)), hole_face) > 0.3  # all face up: no backs at all
    assert _share(everything, back) == 0


def test_suits_are_painted_in_their_colours():
    picture = render_rgb(_hand(), viewer=None)
    hearts = _crop(picture, card_box(3, 0, 2))  # 2h
    spades = _crop(picture, card_box(3, 0, 3))  # 3s
    assert _share(hearts, SUIT_COLOURS["h"]) > 0.05 and _share(hearts, SUIT_COLOURS["s"]) == 0
    assert _share(spades, SUIT_COLOURS["s"]) > 0.05 and _share(spades, SUIT_COLOURS["h"]) == 0


def test_whose_turn_is_framed_and_a_folded_seat_is_dimmed():
    hand = _hand()
    assert hand.actor == 0 and hand.folded[1]
    picture = render_rgb(hand, viewer=2)
    for seat in range(3):
        x, y = seat_origin(3, seat)
        edge = picture[y + 40, x:x + 3]
        assert (_share(edge, COLOURS["turn"]) > 0) == (seat == 0)
    folded_up = _crop(picture, card_box(3, 1, 2))
    live_up = _crop(picture, card_box(3, 2, 2))
    assert _share(live_up, COLOURS["face"]) > 0.3 and _share(folded_up, COLOURS["face"]) == 0


def test_table_state_lists_what_the_viewer_may_see():
    hand = _hand()
    state = table_state(hand, viewer=0, names=["ann", "bob", "cy"])
    assert [s.name for s in state.seats] == ["ann", "bob", "cy"]
    assert state.seats[0].cards[0] == ("4c", True) and state.seats[2].cards[0] == (None, True)
    assert state.seats[2].cards[2] == ("3h", False)
    assert state.actor == 0 and state.street == "4th street" and state.pot == hand.pot
    assert state.seats[1].folded and not state.over
    assert state.actions[-1] == "3rd s1 folds"
    with pytest.raises(ValueError, match="expected 3 names"):
        table_state(hand, names=["ann"])


def test_a_closed_street_shows_its_cards_and_actions_only_and_hides_later_showdowns():
    hand = HandState(HandConfig.create("razz", num_seats=2), cards=CARDS[:2])
    hand.act("bring_in")
    hand.act("call")
    third = table_state(hand, viewer=0, street=3)
    assert [len(s.cards) for s in third.seats] == [3, 3]
    assert third.actor is None and third.actions == ("3rd s1 brings in 2", "3rd s0 calls 2")
    assert [s.bet for s in third.seats] == [2, 2]
    while not hand.is_over:
        hand.act("check" if hand.can_act("check") else "call")
    assert table_state(hand, viewer=0).seats[1].cards[0][0] == "Kc"  # shown down at the end
    assert table_state(hand, viewer=0, street=4).seats[1].cards[0][0] is None  # but not on 4th street
    final = table_state(hand, viewer=0, street=7)
    assert final.over and final.result and final.seats[0].payoff == hand.payoffs[0]
    assert "low" in final.seats[0].shows


def test_eight_seats_fit_without_overlapping():
    boxes = [(*seat_origin(8, s), seat_origin(8, s)[0] + 244, seat_origin(8, s)[1] + 108) for s in range(8)]
    for i, a in enumerate(boxes):
        assert 0 <= a[0] and a[2] <= WIDTH and 0 <= a[1] and a[3] <= HEIGHT
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    hand = HandState(HandConfig.create("stud8", num_seats=8), seed=3)
    assert draw_table(table_state(hand, viewer=hand.actor)).shape == (HEIGHT, WIDTH, 3)


def test_aec_rgb_array_render_passes_pettingzoo_render_test_and_shows_the_viewer():
    pytest.importorskip("pettingzoo", reason="the environments need the env extra")
    from pettingzoo.test import render_test

    import razz_env

    render_test(lambda render_mode=None: razz_env.env(num_seats=3, render_mode=render_mode))
    env = razz_env.env(num_seats=3, render_mode="rgb_array", viewer="player_0")
    env.reset(options={"cards": CARDS})
    picture = env.render()
    assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8
    assert np.array_equal(picture, render_rgb(env.unwrapped.hand, viewer=0, names=env.possible_agents))


def test_single_agent_rgb_array_render_is_from_the_learners_seat():
    pytest.importorskip("gymnasium", reason="the environments need the env extra")
    from razz_env import SingleAgentEnv
    from razz_env.agents.simple import CallingStation

    env = SingleAgentEnv(CallingStation(), seat=0, num_seats=3, render_mode="rgb_array")
    env.reset(seed=4)
    picture = env.render()
    assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8
    names = ["learner", "calling_station", "calling_station"]
    assert np.array_equal(picture, render_rgb(env.hand, viewer=0, names=names))
    assert "rgb_array" in SingleAgentEnv.metadata["render_modes"]


# ------------------------------------------------------------------ property
# RAZZ_FUZZ_EXAMPLES=500 pytest tests/test_render.py -n 0 -s -k random_hands prints the figures.

EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "12"))
FIGURES: Counter = Counter()
if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nrender figures:", dict(sorted(FIGURES.items()))))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32), moves=st.integers(0, 60),
       data=st.data())
def test_random_hands_draw_backs_exactly_where_the_viewer_cannot_see(variant, seed, moves, data):
    seats = data.draw(st.integers(2, max_seats(VARIANTS[variant])), label="seats")
    hand = HandState(HandConfig.create(variant, num_seats=seats), seed=seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        if hand.is_over:
            break
        hand.act(chooser.choice(hand.legal_actions()))
    viewer = data.draw(st.none() | st.integers(0, seats - 1), label="viewer")
    state = table_state(hand, viewer)
    picture = draw_table(state)
    assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8
    for seat in state.seats:
        for position, (name, down) in enumerate(seat.cards):
            hidden = name is None
            assert hidden == (down and viewer not in (None, seat.seat) and not (
                hand.is_over and not hand.folded[seat.seat] and hand.folded.count(False) > 1))
            if not seat.folded:
                region = _crop(picture, card_box(seats, seat.seat, position, state.cards_per_seat))
                assert (_share(region, COLOURS["back"]) > 0.3) == hidden
    FIGURES[f"random hands: {'over' if hand.is_over else 'in play'}, valid picture"] += 1


def test_a_minirazz_table_centres_its_three_cards_and_shows_the_showdown_in_three_card_lows():
    cards = [parse_cards("Ac 2c 3c"), parse_cards("6d 5d 4d")]
    config = HandConfig.create("minirazz", num_seats=2)
    picture = draw_table(table_state(HandState(config, cards=cards), viewer=0))
    assert _share(_crop(picture, card_box(2, 1, 0, 3)), COLOURS["back"]) > 0.3  # seat 1's down card: a back
    assert _share(_crop(picture, card_box(2, 0, 0, 3)), COLOURS["hole_face"]) > 0.3  # seat 0's own: its face
    hand = HandState(config, cards=cards)
    for action in ("bring_in", "call", "check", "check"):
        hand.act(action)
    state = table_state(hand, viewer=0)
    assert state.street == "3rd street" and state.cards_per_seat == 3 and state.over
    assert state.seats[0].shows == "low: 3-2-A low" and state.seats[1].shows == "low: 6-5-4 low"
    assert [down for _, down in state.seats[1].cards] == [True, False, False]
    x = seat_origin(2, 0)[0]
    margins = card_box(2, 0, 0, 3)[0] - x, x + 244 - card_box(2, 0, 2, 3)[2]
    assert abs(margins[0] - margins[1]) <= 1  # the row of three is centred in the seat's box


def test_a_short_minirazz_deck_deals_the_last_street_as_a_community_card_and_pictures_it():
    hand = HandState(HandConfig.create("minirazz", num_seats=5), seed=4)
    while not hand.is_over:
        hand.act(next(a for a in hand.legal_actions() if str(a) in ("bring_in", "check", "call")))
    assert hand.community is not None  # five seats: 10 cards on 2nd street leave 2 for five 3rd-street cards
    assert table_state(hand, viewer=None).community == card_str(hand.community)
    assert table_state(hand, viewer=None, street=2).community is None

"""Unknown cards (``"??"``) in hand records: replayed with placeholders, refused where the play needed them."""

from __future__ import annotations

import copy
import random
import re

import pytest

from razz_env.engine import HandConfig, HandState, hand_from_record, replay_record, to_record
from razz_env.engine.record import UNKNOWN_CARD
from razz_env.engine.text import render_hand


def random_hand(variant: str, seats: int, seed: int) -> HandState:
    policy = random.Random(seed)
    hand = HandState(HandConfig.create(variant, stacks=[policy.choice([12, 40, 200]) for _ in range(seats)]),
                     seed=seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(legal[policy.randrange(len(legal))])
    return hand


def hide_folded_down_cards(record: dict, hand: HandState) -> tuple[dict, int]:
    """The record with every folded seat's down cards written as unknown; how many were hidden."""
    hidden = copy.deepcopy(record)
    up = hand.config.variant.up_positions
    count = 0
    for seat, held in enumerate(hidden["cards"]):
        if hand.folded[seat]:
            for position in range(len(held)):
                if position not in up:
                    held[position] = UNKNOWN_CARD
                    count += 1
    return hidden, count


@pytest.mark.parametrize("variant", ["razz", "action_razz", "stud", "stud8"])
def test_folded_seats_down_cards_may_be_unknown_and_replay_to_the_same_hand(variant):
    hidden_total = 0
    for seed in range(60):
        hand = random_hand(variant, 2 + seed % 6, seed)
        record, count = hide_folded_down_cards(to_record(hand), hand)
        hidden_total += count
        replayed = hand_from_record(record)
        assert replayed.payoffs == hand.payoffs
        assert replayed.history == hand.history
        assert replayed.bring_in_seat == hand.bring_in_seat
        flat = [c for held in replayed.cards for c in held]
        assert len(set(flat)) == len(flat)  # placeholders never collide with real cards
        assert to_record(replayed) == record  # "??" written back
        assert replay_record(record).ok
    assert hidden_total > 50


def three_way() -> dict:
    """Razz, three seats: seat 0 (K♠ door) brings in and folds; seats 1 and 2 check it down."""
    return {"variant": "razz", "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
            "stacks": [100, 100, 100],
            "cards": [["??", "??", "Ks"], ["3c", "4c", "5c", "6c", "7c", "8c", "9c"],
                      ["Ac", "2c", "3d", "4d", "5d", "6d", "7d"]],
            "community": None, "actions": ["bring_in", "complete", "call", "fold"] + ["check"] * 8,
            "payoffs": [-3, -6, 9]}


def test_unknown_cards_never_reach_a_view_or_the_text():
    hand = hand_from_record(three_way())
    assert hand.unknown == {(0, 0), (0, 1)}
    assert hand.view(0).own_down == ()
    assert hand.view(0).own_up == hand.view(1).up_cards[0] == hand.view(1).dead_cards
    assert "seat 0: [## ##] Ks" in render_hand(hand, viewer=None)


def test_an_unknown_door_is_accepted_when_no_card_could_have_brought_in():
    record = three_way()
    record["cards"][1][2] = "??"  # seat 1 plays on, so its door must be known: refused
    assert "played past 3rd street" in replay_record(record).message
    record = three_way()
    record["cards"][0] = ["Qs", "Jd", "Ks"]
    record["cards"].append(["??", "??", "??"])  # a fourth seat whose door is below K♠: it cannot bring in
    record["stacks"].append(100)
    record["actions"] = ["bring_in", "complete", "call", "fold", "fold"] + ["check"] * 8
    record["payoffs"] = [-3, -6, 10, -1]
    assert replay_record(record).ok, replay_record(record).message


@pytest.mark.parametrize("where, value, match", [
    ((0, 2), "??", r"cards\[0\]\[2\]: the door card is unknown .* decide who brings in: "
                   r"with .. there seat 0 would have brought in"),
    ((1, 0), "??", r"cards\[1\]\[0\]: the 1st down card is unknown .* reaches the showdown"),
    ((2, 6), "??", r"cards\[2\]\[6\]: the 7th-street card is unknown .* reaches the showdown"),
    ((1, 4), "??", r"cards\[1\]\[4\]: the 5th-street card is unknown .* boards decide who acts first"),
])
def test_an_unknown_card_the_hand_needed_is_refused_naming_its_place(where, value, match):
    record = three_way()
    seat, position = where
    record["cards"][seat][position] = value
    result = replay_record(record)
    assert result.status == "invalid"
    assert re.search(match, result.message), result.message


def test_an_unknown_community_card_at_a_showdown_is_refused():
    rng = random.Random(3)
    for seed in range(400):  # an eight-seat hand that reaches a community card and a showdown
        hand = HandState(HandConfig.create("razz", num_seats=8), seed=seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.act("call" if "call" in map(str, legal) else "check" if "check" in map(str, legal)
                     else legal[rng.randrange(len(legal))])
        if hand.community is not None:
            break
    record = to_record(hand)
    record["community"] = "??"
    assert "community: unknown" in replay_record(record).message

"""Dealing (rules.md "Dealing"): antes; down, down, up; up on 4th-6th; down on 7th; the community card.

Hands are built from explicit cards (``HandState(config, cards=...)``, listed per seat in dealing
order) or from a full deck, which deals by fixed slots ``deck[position * seats + seat]``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from razz_env.engine import Action, ConfigError, HandConfig, HandState, parse_card, parse_cards, to_record
from razz_env.engine.dealing import deck_for, shuffled_deck
from razz_env.engine.order import strongest_seat


def explicit(variant: str, cards: list[str], stacks: list[int] | None = None, community: str | None = None,
             **kwargs) -> HandState:
    config = HandConfig.create(variant, stacks=stacks or [200] * len(cards), **kwargs)
    return HandState(config, cards=[parse_cards(c) for c in cards],
                     community=parse_card(community) if community else None)




def passive(hand: HandState) -> None:
    """Bring in, then check or call every decision to the end of the hand."""
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))


def with_down_cards(boards: list[str], community: str) -> list[str]:
    """Each seat's six cards: two down cards from the unused cards, then its four listed up cards."""
    used = {c for b in boards for c in parse_cards(b)} | {parse_card(community)}
    spare = iter(c for c in range(52) if c not in used)
    out = []
    for board in boards:
        down = [next(spare), next(spare)]
        out.append(" ".join([*(("A23456789TJQK"[c >> 2] + "cdhs"[c & 3]) for c in down), board]))
    return out


# ---------------------------------------------------------------------------- antes


def test_every_seat_antes_before_any_card_is_dealt():
    hand = HandState(HandConfig.create("razz", stacks=[100, 90, 80], ante=3, bring_in=4, small_bet=10), seed=1)
    assert hand.contributed == [3, 3, 3]
    assert hand.stacks == [97, 87, 77]
    assert hand.pot == 9
    assert hand.history == []


def test_a_stack_smaller_than_the_ante_antes_everything_it_has():
    hand = HandState(HandConfig.create("razz", stacks=[2, 100, 100], ante=3, bring_in=4, small_bet=10), seed=1)
    assert hand.contributed[0] == 2
    assert hand.stacks[0] == 0
    assert hand.is_all_in(0)


def test_zero_ante_puts_nothing_in():
    hand = HandState(HandConfig.create("stud", stacks=[50, 50], ante=0), seed=3)
    assert hand.contributed == [0, 0]
    assert hand.stacks == [50, 50]


# ---------------------------------------------------------------------------- streets


def test_third_street_is_down_down_up_from_fixed_deck_slots():
    deck = list(range(52))
    random.Random(5).shuffle(deck)
    hand = HandState(HandConfig.create("razz", num_seats=3), deck=deck)
    for seat in range(3):
        assert hand.down_cards(seat) == [deck[seat], deck[3 + seat]]
        assert hand.up_cards(seat) == [deck[6 + seat]]
        assert hand.cards[seat] == [deck[seat], deck[3 + seat], deck[6 + seat]]


def test_fourth_to_sixth_are_dealt_up_and_seventh_down():
    cards = ["As 2s 3s 4s 5s 6s 7s", "Ah 2h 3h 4h 5h 6h 7h"]
    hand = explicit("razz", cards)
    seen_up, seen_down = {}, {}
    while not hand.is_over:
        seen_up[hand.street] = [hand.up_cards(s) for s in range(2)]
        seen_down[hand.street] = [hand.down_cards(s) for s in range(2)]
        legal = hand.legal_actions()
        hand.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))
    assert seen_up[3][0] == parse_cards("3s") and seen_down[3][0] == parse_cards("As 2s")
    assert seen_up[4][0] == parse_cards("3s 4s") and seen_down[4][0] == parse_cards("As 2s")
    assert seen_up[5][1] == parse_cards("3h 4h 5h")
    assert seen_up[6][1] == parse_cards("3h 4h 5h 6h") and seen_down[6][1] == parse_cards("Ah 2h")
    assert seen_up[7][0] == parse_cards("3s 4s 5s 6s")
    assert seen_down[7][0] == parse_cards("As 2s 7s")
    assert [len(h) for h in hand.cards] == [7, 7]


def test_deck_slots_give_a_seat_the_same_cards_whoever_folds():
    deck = list(range(52))
    random.Random(11).shuffle(deck)
    config = HandConfig.create("razz", num_seats=4)
    everyone = HandState(config, deck=deck)
    passive(everyone)
    with_fold = HandState(config, deck=deck)
    while not with_fold.is_over:
        legal = with_fold.legal_actions()
        if with_fold.actor == with_fold.bring_in_seat and Action.BRING_IN not in legal:
            with_fold.act(Action.FOLD if Action.FOLD in legal else legal[0])
        else:
            with_fold.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))
    folded = [s for s in range(4) if with_fold.folded[s]]
    assert folded, "the bring-in seat should have folded on a later street"
    for seat in range(4):
        if seat not in folded:
            assert with_fold.cards[seat] == everyone.cards[seat]
        else:
            assert with_fold.cards[seat] == everyone.cards[seat][: len(with_fold.cards[seat])]
    for seat in range(4):
        for position in range(6):
            if position < len(everyone.cards[seat]):
                assert everyone.cards[seat][position] == deck[position * 4 + seat]


def test_shuffled_deck_is_a_permutation_and_repeats_for_a_seed():
    deck = shuffled_deck(random.Random(42))
    assert sorted(deck) == list(range(52))
    assert deck == shuffled_deck(random.Random(42))
    assert deck != shuffled_deck(random.Random(43))


def test_same_seed_deals_the_same_cards_and_another_seed_does_not():
    config = HandConfig.create("stud8", num_seats=6)
    a, b, c = HandState(config, seed=123), HandState(config, seed=123), HandState(config, seed=124)
    assert a.cards == b.cards
    assert a.cards != c.cards


# ---------------------------------------------------------------------------- community card

# Eight seats, nobody folds: 48 cards dealt by 6th street, 4 left for 8 live seats.
_PAIRED_JUNK = ["2h 2s 8c 8d 9c 9d", "3h 3s Tc Td Jc Jd", "4h 4s 8h 8s Qd Qh",
                    "5d 5h 5s 9h 9s Ks", "6c 6h 6s Th Ts Kh", "7c 7h 7s Jh Js Qs"]


def test_eight_seats_to_seventh_street_share_one_face_up_community_card():
    cards = ["Kc Kd 2c 3c 4c 5c", "Qc 7d 2d 3d 4d 6d", *_PAIRED_JUNK]
    hand = explicit("razz", cards, community="Ah")
    passive(hand)
    assert hand.community == parse_card("Ah")
    assert [len(held) for held in hand.cards] == [6] * 8
    for seat in range(8):
        assert hand.showdown_cards(seat) == hand.cards[seat] + [parse_card("Ah")]
        assert len(hand.down_cards(seat)) == 2
    record = to_record(hand)
    assert record["community"] == "Ah"
    assert all(len(held) == 6 for held in record["cards"])


def test_every_live_seat_plays_the_community_card_at_showdown():
    # Seat 0 holds K5432 + a pair of kings; with the community ace it has the wheel.
    # Seat 1 holds 76432: without the community card it would win; with it, 6432A loses to the wheel.
    cards = ["Kc Kd 2c 3c 4c 5c", "Qc 7d 2d 3d 4d 6d", *_PAIRED_JUNK]
    hand = explicit("razz", cards, community="Ah", ante=1, bring_in=2, small_bet=5, big_bet=10)
    passive(hand)
    assert hand.payoffs == [21, -3, -3, -3, -3, -3, -3, -3]


def test_the_deck_deals_a_community_card_when_eight_seats_reach_seventh_street():
    hand = HandState(HandConfig.create("stud", num_seats=8), seed=9)
    passive(hand)
    assert hand.community is not None
    all_cards = [c for held in hand.cards for c in held] + [hand.community]
    assert len(all_cards) == len(set(all_cards)) == 49


def test_no_community_card_when_one_of_eight_seats_folded():
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    hand = HandState(HandConfig.create("razz", num_seats=8), deck=deck)
    folded_one = False
    while not hand.is_over:
        legal = hand.legal_actions()
        if not folded_one and Action.FOLD in legal:
            hand.act(Action.FOLD)
            folded_one = True
        else:
            hand.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))
    assert hand.community is None
    live = [s for s in range(8) if not hand.folded[s]]
    assert len(live) == 7
    assert all(len(hand.cards[s]) == 7 for s in live)
    dealt = [c for held in hand.cards for c in held]
    assert len(dealt) == len(set(dealt)) == 3 + 7 * 7


def test_seventh_street_opener_is_decided_by_own_four_up_cards_not_the_community_card():
    # Seat 0's board K Q J 9 is the only unpaired one: the best razz board on its own.
    # With the community Kd added it would pair kings and seat 1 (pair of deuces) would be best.
    boards = ["Kc Qc Jc 9c", "2c 2d 3c 4c", "3d 3h 5c 6c", "4d 4h 5d 6d",
              "5h 5s 7c 8c", "6h 6s 7d 8d", "7h 7s 8h 9d", "8s 9h 9s Td"]
    hand = explicit("razz", with_down_cards(boards, "Kd"), community="Kd")
    while hand.street < 7:
        legal = hand.legal_actions()
        hand.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))
    assert hand.community == parse_card("Kd")
    assert hand.actor == 0
    with_community = [parse_cards(b) + [parse_card("Kd")] for b in boards]
    assert strongest_seat(with_community, low=True) == 1


# ---------------------------------------------------------------------------- explicit-card errors


def _snapshot(hand: HandState) -> tuple:
    return (list(hand.history), [list(h) for h in hand.cards], list(hand.stacks), list(hand.bets), hand.street,
            hand.actor, hand.legal_actions(), hand.is_over, hand.payoffs, hand.community)


def test_an_action_needing_a_card_that_is_not_listed_is_refused_and_changes_nothing():
    hand = explicit("razz", ["As 2s 3s", "Ah 2h Kh 4h"])
    hand.act(Action.BRING_IN)
    before = _snapshot(hand)
    with pytest.raises(ConfigError, match=r"cards\[0\]: seat 0 must be dealt a 4th-street card .* call refused, "
                                          r"the hand is unchanged"):
        hand.act(Action.CALL)
    assert _snapshot(hand) == before
    hand.act(Action.FOLD)  # folding needs no card: the hand goes on from where it was
    assert hand.is_over and hand.payoffs == [-1, 1]


def test_a_missing_community_card_refuses_the_action_and_changes_nothing():
    cards = ["Kc Kd 2c 3c 4c 5c", "Qc 7d 2d 3d 4d 6d", *_PAIRED_JUNK]
    hand = explicit("razz", cards)
    while True:
        legal = hand.legal_actions()
        action = next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal)
        before = _snapshot(hand)
        try:
            hand.act(action)
        except ConfigError as err:
            assert "community: the deck cannot give every live seat a 7th card" in str(err)
            assert "refused, the hand is unchanged" in str(err)
            break
    assert _snapshot(hand) == before
    assert hand.street == 6 and not hand.is_over and hand.payoffs is None


def test_missing_third_street_card_is_refused_at_construction():
    with pytest.raises(ConfigError, match=r"cards\[1\].*door"):
        explicit("razz", ["As 2s 3s", "Ah 2h"])


@pytest.mark.parametrize(
    ("cards", "community"),
    [
        (["As 2s 3s", "As 2h 4h"], None),
        (["As 2s 2s", "Ah 2h 4h"], None),
        (["Kc Kd 2c 3c 4c 5c", "Qc 7d 2d 3d 4d 6d", *_PAIRED_JUNK], "2c"),
    ],
)
def test_card_dealt_twice_is_a_config_error(cards, community):
    with pytest.raises(ConfigError, match="is dealt twice"):
        explicit("razz", cards, community=community)


def test_more_than_seven_cards_for_a_seat_is_refused():
    with pytest.raises(ConfigError, match=r"cards\[1\]: a seat holds at most 7 cards, got 8"):
        explicit("razz", ["As 2s 3s", "Ah 2h 3h 4h 5h 6h 7h 8h"])


def test_cards_listed_but_never_dealt_are_not_an_error_for_a_hand_in_play():
    """Like an undealt deck card: a seat that folds never gets the rest (a record must list exactly the dealt cards)."""
    hand = explicit("razz", ["As 2s 3s 4s", "Ah 2h Kh"])
    hand.act(Action.BRING_IN)
    hand.act(Action.FOLD)
    assert hand.is_over and hand.payoffs == [-1, 1]
    assert hand.cards == [parse_cards("As 2s 3s"), parse_cards("Ah 2h Kh")]


@pytest.mark.parametrize("bad", [52, -1, "As", None, True, 3.0, [3], np.bool_(True)])
def test_explicit_card_that_is_not_an_int_0_to_51_is_refused(bad):
    config = HandConfig.create("razz")
    with pytest.raises(ConfigError, match=r"cards\[1\]\[2\]: .* is not a card"):
        HandState(config, cards=[parse_cards("As 2s 3s"), [4, 5, bad]])
    if bad is not None:  # a None community means "no community card"
        eight = HandConfig.create("razz", num_seats=8)
        held = [list(range(6 * seat, 6 * seat + 6)) for seat in range(8)]
        with pytest.raises(ConfigError, match="community: .* is not a card"):
            HandState(eight, cards=held, community=bad)


def test_numpy_card_ids_are_cards():
    config = HandConfig.create("razz")
    hand = HandState(config, cards=[np.array([0, 4, 51]), [np.int8(1), np.uint16(5), np.int64(47)]])
    assert hand.cards == [[0, 4, 51], [1, 5, 47]]
    assert all(type(c) is int for held in hand.cards for c in held)
    deck = HandState(config, deck=np.arange(52)[::-1])
    assert deck.cards[0] == [51, 49, 47] and type(deck.cards[0][0]) is int


@pytest.mark.parametrize(
    ("cards", "match"),
    [
        ("As 2s 3s", r"cards: expected one list of cards per seat \(2\), got 'As 2s 3s'"),
        ([[0, 1, 2], 7], r"cards\[1\]: expected a list of cards in dealing order, got 7"),
        ([[0, 1, 2], {3: 4}], r"cards\[1\]: expected a list"),
        (5, r"cards: expected one list of cards per seat"),
    ],
)
def test_cards_of_the_wrong_shape_are_named(cards, match):
    with pytest.raises(ConfigError, match=match):
        HandState(HandConfig.create("razz"), cards=cards)


def test_one_card_list_per_seat_is_required():
    config = HandConfig.create("razz", num_seats=3)
    with pytest.raises(ConfigError, match=r"cards: expected one list per seat \(3\), got 2"):
        HandState(config, cards=[parse_cards("As 2s 3s"), parse_cards("Ah 2h 3h")])


def test_a_community_card_is_refused_below_eight_seats():
    """With 2-7 seats the deck never runs short of 7th-street cards, so a community card could never be dealt."""
    with pytest.raises(ConfigError, match="community: with 2 seats every live seat gets its own 7th card"):
        explicit("razz", ["As 2s Ks", "Ah 2h 3h"], community="Kd")


def test_a_complete_deal_is_seven_cards_a_seat_below_eight_seats():
    full = ["As 2s 3s 4s 5s 6s 7s", "Ah 2h 3h 4h 5h 6h 7h"]
    assert HandState(HandConfig.create("razz"), cards=[parse_cards(c) for c in full])._dealer.complete
    short = ["As 2s 3s 4s 5s 6s", "Ah 2h 3h 4h 5h 6h 7h"]
    assert not HandState(HandConfig.create("razz"), cards=[parse_cards(c) for c in short])._dealer.complete


@pytest.mark.parametrize(
    ("deck", "match"),
    [
        (list(range(51)), "deck: expected all 52 cards, got 51"),
        ([0, *range(51)], "dealt twice"),
        ([*range(51), 52], r"deck\[51\]: 52 is not a card"),
        ([*range(51), "As"], r"deck\[51\]: 'As' is not a card"),
        ([*range(51), [51]], r"deck\[51\]: \[51\] is not a card"),
        ([True, *range(1, 52)], r"deck\[0\]: True is not a card"),
        ("As Ks", "deck: expected a list of all 52 cards"),
        (7, "deck: expected a list of all 52 cards"),
    ],
)
def test_a_bad_deck_is_refused(deck, match):
    with pytest.raises(ConfigError, match=match):
        HandState(HandConfig.create("razz"), deck=deck)


def test_cards_and_deck_together_or_community_without_cards_are_refused():
    config = HandConfig.create("razz")
    with pytest.raises(ConfigError, match="either explicit cards or a deck"):
        HandState(config, cards=[parse_cards("As 2s 3s"), parse_cards("Ah 2h 3h")], deck=list(range(52)))
    with pytest.raises(ConfigError, match="only explicit cards take a community card"):
        HandState(config, seed=1, community=parse_card("As"))


def test_a_seed_or_rng_that_would_be_ignored_is_refused():
    config = HandConfig.create("razz")
    with pytest.raises(ConfigError, match="seed: give either a seed or an rng, not both"):
        HandState(config, seed=1, rng=random.Random(2))
    with pytest.raises(ConfigError, match="seed: the hand deals the given deck"):
        HandState(config, seed=1, deck=list(range(52)))
    with pytest.raises(ConfigError, match="rng: the hand deals the given cards"):
        HandState(config, rng=random.Random(1), cards=[parse_cards("As 2s 3s"), parse_cards("Ah 2h 3h")])


@pytest.mark.parametrize("seed", [np.int64(7), np.uint32(7), 7])
def test_numpy_integer_seeds_deal_like_python_ints(seed):
    config = HandConfig.create("razz", num_seats=3)
    assert HandState(config, seed=seed).cards == HandState(config, seed=7).cards


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"seed": True}, "seed: expected an integer, got True"),
    ({"seed": 1.5}, "seed: expected an integer, got 1.5"),
    ({"seed": "7"}, "seed: expected an integer, got '7'"),
    ({"rng": 7}, "rng: expected a random.Random, got 7"),
])
def test_a_bad_seed_or_rng_is_named(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        HandState(HandConfig.create("razz"), **kwargs)


def test_a_config_that_is_not_a_hand_config_is_named():
    with pytest.raises(ConfigError, match="config: expected a HandConfig, got 'razz'"):
        HandState("razz")


# ---------------------------------------------------------------------------- nobody can bet


def test_with_at_most_one_seat_holding_chips_after_the_antes_the_hand_is_dealt_out():
    config = HandConfig.create("razz", stacks=[1, 50], ante=1)
    hand = HandState(config, deck=deck_for(["As 2s 3s 4s 5s 6s 7s", "Kh Qh Jh Th 9h 8h 7h"]))
    assert hand.is_over
    assert hand.history == []
    assert hand.bring_in_seat is None
    assert [len(held) for held in hand.cards] == [7, 7]
    assert hand.payoffs == [1, -1]


def test_three_seats_two_all_in_for_the_ante_deals_out_without_betting():
    config = HandConfig.create("stud", stacks=[1, 1, 100], ante=1)
    hand = HandState(config, seed=5)
    assert hand.is_over
    assert hand.history == []
    assert sum(hand.payoffs) == 0
    assert all(len(held) == 7 for held in hand.cards)


@pytest.mark.parametrize(
    ("seat_cards", "seats", "match"),
    [
        (["", "", "", "", "As 2s 3s 4s 5s 6s 7s", "", "", ""], 8,
         r"seat_cards\[4\]: at 8 seats a 7th-street card has no"),
        (["2c 2c 3s"], 2, "seat_cards: card 2c is dealt twice"),
        (["As 2s 3s", "As"], 2, "seat_cards: card As is dealt twice"),
        ([[True, 5, 6]], 2, r"seat_cards\[0\]\[0\]: True is not a card"),
        ([[1, 60]], 2, r"seat_cards\[0\]\[1\]: 60 is not a card"),
        (["Xx"], 2, r"seat_cards\[0\]: unknown card 'Xx'"),
    ],
)
def test_deck_for_refuses_cards_it_cannot_place(seat_cards, seats, match):
    with pytest.raises(ConfigError, match=match):
        deck_for(seat_cards, seats)
    assert deck_for(["", "", "", "As 2s 3s 4s 5s 6s 7s", "", "", "", ""], 8)[51] == parse_card("7s")

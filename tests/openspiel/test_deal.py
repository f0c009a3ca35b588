"""ChanceHand: the engine's deal fed card by card, with the cards each closing action needs found by the engine."""

from __future__ import annotations

import copy
import pickle

import pytest

pytest.importorskip("pyspiel", reason="the OpenSpiel games need the openspiel extra")

from razz_env.engine.actions import Action
from razz_env.engine.cards import parse_cards
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.openspiel.deal import ChanceHand, Slot

FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, BET_BIG, RAISE = tuple(Action)


def dealt(chance: ChanceHand, cards: list[int]) -> ChanceHand:
    """``chance`` after dealing every due card from ``cards`` (in order)."""
    feed = iter(cards)
    while chance.next_slot is not None:
        chance.deal(next(feed))
    return chance


def test_third_street_comes_down_down_door_around_the_table():
    chance = ChanceHand(HandConfig.create("razz", num_seats=3))
    order = []
    while chance.next_slot is not None:
        order.append(chance.next_slot)
        chance.deal(len(order) * 2)
    assert order == [Slot(seat, position) for position in range(3) for seat in range(3)]
    assert chance.hand.cards == [[2, 8, 14], [4, 10, 16], [6, 12, 18]]
    assert chance.undealt() == [c for c in range(52) if c not in (2, 4, 6, 8, 10, 12, 14, 16, 18)]


def test_the_closing_action_waits_for_the_next_street_and_the_hand_is_untouched_meanwhile():
    config = HandConfig.create("razz", num_seats=2)
    chance = dealt(ChanceHand(config), [0, 1, 2, 3, 4, 5])
    chance.act(chance.hand.legal_actions()[0])  # the bring-in
    before = chance.hand
    history = list(before.history)
    chance.act(CALL)  # closes 3rd street
    assert chance.pending is CALL
    assert chance.needed == [Slot(0, 3), Slot(1, 3)]
    assert chance.hand is before and chance.hand.history == history and chance.hand.street == 3
    with pytest.raises(ValueError, match="seat 0's 4th-street card is due first"):
        chance.act(CHECK)
    chance.deal(40)
    chance.deal(41)
    assert chance.pending is None and chance.hand.street == 4
    assert [held[3] for held in chance.hand.cards] == [40, 41]
    assert chance.actions == [entry.action for entry in chance.hand.history]


def test_a_fold_that_closes_the_round_deals_the_folder_nothing():
    config = HandConfig.create("razz", num_seats=3)
    chance = dealt(ChanceHand(config), list(range(9)))
    chance.act(BRING_IN)
    chance.act(CALL)
    folder = chance.hand.actor
    chance.act(FOLD)  # the bring-in seat has acted and is matched: this fold closes 3rd street
    assert chance.pending is FOLD
    assert chance.needed == [Slot(seat, 3) for seat in range(3) if seat != folder]
    dealt(chance, [30, 31])
    assert chance.hand.street == 4 and chance.hand.folded[folder]
    assert len(chance.hand.cards[folder]) == 3


def test_an_all_in_runs_every_street_out_in_dealing_order():
    config = HandConfig.create("razz", num_seats=2, stacks=6)
    chance = dealt(ChanceHand(config), list(range(6)))
    chance.act(BRING_IN)
    while chance.pending is None:
        legal = chance.hand.legal_actions()
        chance.act(COMPLETE if COMPLETE in legal else RAISE if RAISE in legal else CALL)
    assert chance.needed == [Slot(seat, position) for position in (3, 4, 5, 6) for seat in (0, 1)]
    dealt(chance, list(range(20, 28)))
    assert chance.hand.is_over and chance.hand.cards == [[0, 2, 4, 20, 22, 24, 26], [1, 3, 5, 21, 23, 25, 27]]


def check_around(chance: ChanceHand, deck: list[int], street: int) -> list[Slot]:
    """Check (or call) until the round closes on ``street``; returns the slots the closing action needed."""
    assert chance.hand.street == street
    while chance.pending is None and not chance.hand.is_over:
        legal = chance.hand.legal_actions()
        action = BRING_IN if BRING_IN in legal else CALL if CALL in legal else CHECK
        chance.act(action)
    slots = list(chance.needed)
    dealt(chance, [deck.pop(0) for _ in slots])
    return slots


def test_eight_seats_to_seventh_street_share_a_community_card():
    config = HandConfig.create("razz", num_seats=8)
    deck = list(range(52))
    chance = dealt(ChanceHand(config), [deck.pop(0) for _ in range(24)])
    for street in (3, 4, 5):
        assert check_around(chance, deck, street) == [Slot(seat, street) for seat in range(8)]
    assert check_around(chance, deck, 6) == [Slot(None, 6)]
    assert chance.hand.community == 48 and chance.hand.street == 7


def test_eight_seats_with_a_fold_get_their_own_seventh_street_cards():
    config = HandConfig.create("razz", num_seats=8)
    deck = list(range(52))
    chance = dealt(ChanceHand(config), [deck.pop(0) for _ in range(24)])
    chance.act(BRING_IN)
    chance.act(FOLD)
    folder = chance.hand.history[-1].seat
    for street in (3, 4, 5):
        check_around(chance, deck, street)
    slots = check_around(chance, deck, 6)
    assert slots == [Slot(seat, 6) for seat in range(8) if seat != folder]
    assert chance.hand.community is None


@pytest.mark.parametrize(("card", "message"), [
    (0, "card Ac cannot be dealt: it is already out of the deck"),
    (52, "card 52 cannot be dealt: card ids are 0 to 51"),
    (-1, "card -1 cannot be dealt: card ids are 0 to 51"),
])
def test_a_card_that_is_not_in_the_deck_is_refused_and_nothing_changes(card, message):
    chance = ChanceHand(HandConfig.create("razz"))
    chance.deal(0)
    with pytest.raises(ValueError, match=message):
        chance.deal(card)
    assert chance.cards == [[0], []] and chance.next_slot == Slot(1, 0)


def test_no_card_is_due_at_a_decision():
    chance = dealt(ChanceHand(HandConfig.create("razz")), list(range(6)))
    with pytest.raises(ValueError, match="no card is due"):
        chance.deal(10)


def test_copies_and_pickles_replay_to_the_same_hand_and_stay_independent():
    config = HandConfig.create("stud8", num_seats=3)
    deck = list(range(51, -1, -1))
    chance = dealt(ChanceHand(config), [deck.pop(0) for _ in range(9)])
    chance.act(BRING_IN)
    chance.act(CALL)
    chance.act(CALL)
    chance.deal(deck.pop(0))  # mid-street: one of three 4th-street cards dealt, the call still pending
    for twin in (copy.deepcopy(chance), pickle.loads(pickle.dumps(chance))):
        assert twin.cards == chance.cards and twin.needed == chance.needed and twin.pending is chance.pending
        assert twin.hand.history == chance.hand.history and twin.hand is not chance.hand
        assert twin.undealt() == chance.undealt()
        dealt(twin, deck[:2])
        assert twin.hand.street == 4 and chance.hand.street == 3 and len(chance.needed) == 2


def test_the_dealt_hand_equals_the_engine_hand_on_the_same_cards():
    config = HandConfig.create("razz", num_seats=4, stacks=40)
    engine = HandState(config, seed=11)
    actions = []
    while not engine.is_over:
        legal = engine.legal_actions()
        actions.append(legal[len(actions) % len(legal)])
        engine.act(actions[-1])
    chance = ChanceHand(config)
    for action in [None, *actions]:
        while chance.next_slot is not None:
            seat, position = chance.next_slot
            chance.deal(engine.community if seat is None else engine.cards[seat][position])
        if action is not None:
            chance.act(action)
    assert chance.hand.cards == engine.cards and chance.hand.payoffs == engine.payoffs
    assert chance.hand.history == engine.history


def test_minirazz_deals_its_own_deck_one_down_one_up_then_one_up():
    chance = ChanceHand(HandConfig.create("minirazz"))
    assert chance.undealt() == [c for r in range(6) for c in (4 * r, 4 * r + 1)]  # A-6 in clubs and diamonds
    order = []
    for card in parse_cards("Ac 2c 3d 4d"):
        order.append(chance.next_slot)
        chance.deal(card)
    assert order == [Slot(0, 0), Slot(1, 0), Slot(0, 1), Slot(1, 1)]
    assert chance.hand.street == 2 and chance.hand.cards == [parse_cards("Ac 3d"), parse_cards("2c 4d")]
    chance.act(BRING_IN)  # seat 1's 4d is the highest door: it brings in
    chance.act(CALL)  # closes 2nd street: each seat's 3rd-street up card is due
    assert chance.needed == [Slot(0, 2), Slot(1, 2)] and chance.describe(chance.next_slot) == "seat 0's 3rd-street card"
    with pytest.raises(ValueError, match=r"card Kc cannot be dealt: the minirazz deck is Ac Ad 2c 2d .* 6c 6d"):
        chance.deal(parse_cards("Kc")[0])
    dealt(chance, parse_cards("5c 6d"))
    assert chance.hand.street == 3 and chance.pending is None


def test_a_deep_copy_shares_nothing_that_play_changes():
    """OpenSpiel clones a state for every child: the copy's engine hand must share no mutable object with the
    original (every list copied, each seat's cards too), whatever the engine keeps."""
    chance = dealt(ChanceHand(HandConfig.create("razz", num_seats=3)), list(range(9)))
    chance.act(BRING_IN)
    twin = copy.deepcopy(chance)
    immutable = (int, bool, str, tuple, frozenset, type(None), slice)
    for name in type(chance.hand).__slots__:
        mine, theirs = getattr(chance.hand, name, None), getattr(twin.hand, name, None)
        if name in ("config", "_dealer") or isinstance(mine, immutable) or type(mine).__hash__ is not None:
            continue  # shared on purpose: the config and the explicit deal are only read; the rest is immutable
        assert mine is not theirs and mine == theirs, name
    assert all(mine is not theirs for mine, theirs in zip(chance.hand.cards, twin.hand.cards))
    twin.act(CALL)
    assert len(chance.hand.history) == 1 and len(twin.hand.history) == 2 and chance.hand.bets != twin.hand.bets

"""Seat views: a seat sees its own down cards and everything public, never another seat's down cards."""

from __future__ import annotations

import random

import pytest

from razz_env.engine import Action, HandConfig, HandState, SeatView, parse_cards
from razz_env.engine.dealing import deck_for


def views_through_hand(cards: list[str], seat: int, actions: list[str], variant: str = "razz") -> list[SeatView]:
    """``seat``'s view after every decision of a hand dealt ``cards`` and played with ``actions``."""
    hand = HandState(HandConfig.create(variant, num_seats=len(cards)), deck=deck_for(cards))
    views = [hand.view(seat)]
    for action in actions:
        hand.act(action)
        views.append(hand.view(seat))
    assert hand.is_over
    return views


# Three seats, seven cards each: seat 2 (K♣) brings in.
CARDS = ["2s 3s 4c Ad 5c 6c 7s", "2h 3h 8c 7d 9c Tc 7h", "2d 3d Kc Qd Jc Js 7c"]
ACTIONS = ["bring_in", "complete", "call", "call"] + ["check"] * 9 + ["bet", "call", "call"]


def test_view_shows_own_down_cards_and_every_up_card():
    hand = HandState(HandConfig.create("razz", num_seats=3), deck=deck_for(CARDS))
    view = hand.view(0)
    assert view.own_down == tuple(parse_cards("2s 3s"))
    assert view.own_up == tuple(parse_cards("4c"))
    assert view.up_cards == (tuple(parse_cards("4c")), tuple(parse_cards("8c")), tuple(parse_cards("Kc")))
    assert view.own_cards == tuple(parse_cards("2s 3s 4c"))


def test_view_shows_the_seventh_street_card_only_to_its_owner():
    views = views_through_hand(CARDS, 1, ACTIONS)
    last = views[-1]
    assert last.own_down == tuple(parse_cards("2h 3h 7h"))
    assert last.up_cards[0] == tuple(parse_cards("4c Ad 5c 6c"))
    visible = {c for field in (last.own_down, last.own_up, last.dead_cards) for c in field}
    visible |= {c for up in last.up_cards for c in up}
    others_down = parse_cards("2s 3s 7s 2d 3d 7c")
    assert not visible & set(others_down)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_changing_other_seats_down_cards_leaves_the_view_unchanged(seat):
    # Swap every other seat's three down cards for unused cards and replay the same actions: the view is equal
    # at every step (the changed cards keep seat 0 the winner, so the final stacks agree too).
    unused = iter(parse_cards("8d 8h 8s 9d 9h 9s Td Th Ts"))
    changed = []
    for other, text in enumerate(CARDS):
        cards = text.split()
        if other != seat:
            for position in (0, 1, 6):
                cards[position] = "A23456789TJQK"[(c := next(unused)) >> 2] + "cdhs"[c & 3]
        changed.append(" ".join(cards))
    original = views_through_hand(CARDS, seat, ACTIONS[:-3] + ["check", "check", "check"])
    altered = views_through_hand(changed, seat, ACTIONS[:-3] + ["check", "check", "check"])
    assert original == altered
    assert changed != CARDS


def test_changing_own_down_cards_changes_the_view():
    changed = list(CARDS)
    changed[0] = "8d 8h 4c Ad 5c 6c 8s"
    actions = ACTIONS[:-3] + ["check", "check", "check"]
    assert views_through_hand(CARDS, 0, actions) != views_through_hand(changed, 0, actions)


def test_view_carries_public_betting_state_and_legal_actions_only_for_the_actor():
    hand = HandState(HandConfig.create("razz", num_seats=3), deck=deck_for(CARDS))
    hand.act(Action.BRING_IN)
    actor_view, waiting_view = hand.view(0), hand.view(1)
    assert actor_view.actor == 0 == waiting_view.actor
    assert actor_view.legal_actions == (Action.FOLD, Action.CALL, Action.COMPLETE)
    assert waiting_view.legal_actions == ()
    assert actor_view.to_call == 2
    assert actor_view.pot == waiting_view.pot == 5
    assert actor_view.bring_in_seat == 2
    assert actor_view.bet_size == 5
    assert actor_view.history == tuple(hand.history)
    assert actor_view.stacks == tuple(hand.stacks)


def test_folded_seats_up_cards_are_dead_cards_in_every_view():
    hand = HandState(HandConfig.create("razz", num_seats=3), deck=deck_for(CARDS))
    for action in ("bring_in", "complete", "fold"):
        hand.act(action)
    for seat in range(3):
        view = hand.view(seat)
        assert view.dead_cards == tuple(parse_cards("8c"))
        assert view.folded == (False, True, False)
        assert view.live_opponents == [s for s in (0, 2) if s != seat]


def test_community_card_is_in_every_live_seats_view():
    hand = HandState(HandConfig.create("razz", num_seats=8), seed=6)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))
    for seat in range(8):
        view = hand.view(seat)
        assert view.community == hand.community is not None
        assert view.own_cards[-1] == hand.community
        assert len(view.own_cards) == 7


def test_random_hands_never_put_another_seats_down_card_in_a_view():
    for seed in range(40):
        rng = random.Random(seed)
        seats = rng.randint(2, 8)
        hand = HandState(HandConfig.create(rng.choice(["razz", "stud", "stud8", "action_razz"]),
                                           stacks=[rng.choice([5, 30, 200]) for _ in range(seats)]), seed=seed)
        while True:
            for seat in range(seats):
                view = hand.view(seat)
                visible = set(view.own_down) | set(view.own_up) | set(view.dead_cards)
                visible |= {c for up in view.up_cards for c in up}
                hidden = {c for other in range(seats) if other != seat for c in hand.down_cards(other)}
                assert not visible & hidden
                assert set(view.own_down) == set(hand.down_cards(seat))
            if hand.is_over:
                break
            legal = hand.legal_actions()
            hand.act(legal[rng.randrange(len(legal))])


def test_view_of_a_seat_not_at_the_table_is_refused():
    hand = HandState(HandConfig.create("razz", num_seats=3), seed=1)
    with pytest.raises(ValueError, match="seat 3 is not at this table"):
        hand.view(3)
    with pytest.raises(ValueError):
        hand.view(-1)

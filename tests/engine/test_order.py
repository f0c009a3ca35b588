"""Who brings in on 3rd street and who opens 4th to 7th (rules.md "Bring-in", "Who acts first").

Razz and Action Razz read boards as lowball (aces low, pairs count high); stud and stud8 by ordinary
poker ranking (aces high). Ties go by suit, spades > hearts > diamonds > clubs, card by card.
"""

from __future__ import annotations

import pytest

from razz_env.engine import Action, HandConfig, HandState, parse_cards
from razz_env.engine.order import board_strength, strongest_seat, weakest_seat

LOW = ("razz", "action_razz")
HIGH = ("stud", "stud8")


def explicit(variant: str, cards: list[str], stacks: list[int] | None = None, **kwargs) -> HandState:
    config = HandConfig.create(variant, stacks=stacks or [200] * len(cards), **kwargs)
    return HandState(config, cards=[parse_cards(c) for c in cards])


def doors(variant: str, door_cards: str, stacks: list[int] | None = None, **kwargs) -> HandState:
    """A hand whose seats show these door cards (down cards are unused cards)."""
    door = parse_cards(door_cards)
    spare = iter(c for c in range(52) if c not in door)
    cards = []
    for card in door:
        down = [next(spare), next(spare)]
        cards.append(down + [card])
    config = HandConfig.create(variant, stacks=stacks or [200] * len(door), **kwargs)
    return HandState(config, cards=cards)


def to_fourth(variant: str, boards: list[str], stacks: list[int] | None = None, **kwargs) -> HandState:
    """Seats with these two-card boards (door, 4th), everyone calling the bring-in on 3rd street."""
    ups = [parse_cards(b) for b in boards]
    used = {c for b in ups for c in b}
    spare = iter(c for c in range(52) if c not in used)
    cards = [[next(spare), next(spare), *b] for b in ups]
    config = HandConfig.create(variant, stacks=stacks or [200] * len(boards), **kwargs)
    hand = HandState(config, cards=cards)
    while hand.street == 3:
        legal = hand.legal_actions()
        hand.act(Action.BRING_IN if Action.BRING_IN in legal else Action.CALL)
    return hand


# ---------------------------------------------------------------------------- bring-in


@pytest.mark.parametrize("variant", LOW)
def test_razz_highest_door_brings_in_king_spades_over_king_hearts(variant):
    # 000/001/004: spades > hearts; the 003 German example (K♥ brings in over K♠) is not followed.
    assert doors(variant, "Kh Ks 5c").bring_in_seat == 1
    assert doors(variant, "Ks Kh 5c").bring_in_seat == 0


@pytest.mark.parametrize("variant", LOW)
def test_razz_king_is_the_highest_door_and_ace_the_lowest(variant):
    assert doors(variant, "Ac Kc Qd").bring_in_seat == 1
    assert doors(variant, "As 2c").bring_in_seat == 1


@pytest.mark.parametrize("variant", LOW)
def test_razz_suit_order_for_the_bring_in_is_spades_hearts_diamonds_clubs(variant):
    assert doors(variant, "9c 9d").bring_in_seat == 1
    assert doors(variant, "9h 9d").bring_in_seat == 0
    assert doors(variant, "9c 9d 9h 9s").bring_in_seat == 3
    assert doors(variant, "9c 9d 9h").bring_in_seat == 2


@pytest.mark.parametrize("variant", HIGH)
def test_stud_lowest_door_brings_in_with_aces_high(variant):
    assert doors(variant, "Ac Kc Qd").bring_in_seat == 2
    assert doors(variant, "As 2s").bring_in_seat == 1
    assert doors(variant, "Ah Ks").bring_in_seat == 1


@pytest.mark.parametrize("variant", HIGH)
def test_stud_two_of_clubs_brings_in_before_two_of_diamonds(variant):
    assert doors(variant, "2d 2c").bring_in_seat == 1
    assert doors(variant, "2s 2h 2d").bring_in_seat == 2


def test_bring_in_seat_is_the_first_to_act_and_may_bring_in_or_complete_but_not_fold():
    hand = doors("razz", "5c Qd 3h")
    assert hand.street == 3
    assert hand.actor == hand.bring_in_seat == 1
    assert hand.legal_actions() == (Action.BRING_IN, Action.COMPLETE)


def test_seat_all_in_for_the_ante_passes_the_bring_in_clockwise_regardless_of_card():
    # Seat 1 (K♠) cannot bring in; seat 2 is next clockwise although its ace is the best door
    # and seat 3's queen is the next-highest card.
    hand = doors("razz", "5c Ks Ac Qd", stacks=[100, 1, 100, 100], ante=1)
    assert hand.is_all_in(1)
    assert hand.bring_in_seat == 2
    assert hand.actor == 2
    assert hand.legal_actions() == (Action.BRING_IN, Action.COMPLETE)


def test_bring_in_passing_wraps_around_the_table_and_skips_every_all_in_seat():
    hand = doors("stud", "As Ks Qd 2c", stacks=[1, 100, 100, 1], ante=1)
    assert hand.bring_in_seat == 1
    hand = doors("razz", "5c 6c Ks", stacks=[100, 100, 1], ante=1)
    assert hand.bring_in_seat == 0


def test_seat_with_fewer_chips_than_the_bring_in_posts_what_it_has():
    hand = doors("razz", "5c Ks Qd", stacks=[100, 2, 100], ante=1, bring_in=2, small_bet=5)
    assert hand.bring_in_seat == 1
    assert hand.legal_actions() == (Action.BRING_IN,)
    entry = hand.act(Action.BRING_IN)
    assert entry.amount == 1
    assert hand.is_all_in(1)
    assert hand.level == 1
    assert hand.to_call == 1


def test_seat_with_exactly_the_bring_in_cannot_complete():
    hand = doors("razz", "5c Ks Qd", stacks=[100, 3, 100], ante=1, bring_in=2, small_bet=5)
    assert hand.legal_actions() == (Action.BRING_IN,)
    hand = doors("razz", "5c Ks Qd", stacks=[100, 4, 100], ante=1, bring_in=2, small_bet=5)
    assert hand.legal_actions() == (Action.BRING_IN, Action.COMPLETE)


# ---------------------------------------------------------------------------- 4th to 7th street


@pytest.mark.parametrize("variant", LOW)
def test_razz_pairs_count_high_king_queen_opens_before_deuces(variant):
    # 002 (French): K♠Q♠ is a better razz board than 2♣2♦.
    hand = to_fourth(variant, ["2c 2d", "Ks Qs"])
    assert hand.street == 4
    assert hand.actor == 1
    hand = to_fourth(variant, ["Ks Qs", "2c 2d"])
    assert hand.actor == 0


@pytest.mark.parametrize("variant", LOW)
def test_razz_board_is_as_low_as_its_highest_card_deuce_four_beats_ace_five(variant):
    # 002: A♥5♠ vs 2♥4♣ — the best two-card razz board is 2♥4♣.
    assert to_fourth(variant, ["Ah 5s", "2h 4c"]).actor == 1
    assert to_fourth(variant, ["2h 4c", "Ah 5s"]).actor == 0


@pytest.mark.parametrize("variant", LOW)
def test_razz_lowest_board_opens_not_the_seat_left_of_the_bring_in(variant):
    hand = to_fourth(variant, ["9c 8d", "Ks 7h", "3d Ah", "Qc Jc"])
    assert hand.bring_in_seat == 1
    assert hand.actor == 2


@pytest.mark.parametrize("variant", HIGH)
def test_stud_highest_board_opens_and_pairs_beat_high_cards(variant):
    hand = to_fourth(variant, ["As Ks", "2c 2d", "Qh Jh"])
    assert hand.actor == 1
    hand = to_fourth(variant, ["2c 2d", "3c 3d", "As Ks"])
    assert hand.actor == 1
    hand = to_fourth(variant, ["Qh Jh", "As 3d", "Ks Qs"])
    assert hand.actor == 1


@pytest.mark.parametrize("variant", LOW)
def test_razz_equal_boards_lower_suit_of_the_highest_card_opens(variant):
    # 003: 3♥2♦ acts before 3♠2♦ (the example repeats 2♦; here the second cards differ instead).
    assert to_fourth(variant, ["3s 2c", "3h 2s"]).actor == 1
    assert to_fourth(variant, ["3h 2s", "3s 2c"]).actor == 0


@pytest.mark.parametrize("variant", HIGH)
def test_stud_equal_boards_higher_suit_of_the_highest_card_opens(variant):
    assert to_fourth(variant, ["Kh Qs", "Ks Qd"]).actor == 1
    assert to_fourth(variant, ["Ks Qd", "Kh Qs"]).actor == 0


def test_best_board_all_in_passes_the_opening_to_the_next_seat_clockwise():
    # Seat 0 (A♣2♣, best) called all-in on 3rd; seat 1 (9♥9♣, worst board) is next clockwise and
    # opens ahead of seat 2 (K♦3♦), whose board is second best.
    cards = ["5s 6s Ac 2c", "5h 6h 9h 9c", "5d 6d Kd 3d"]
    hand = explicit("razz", cards, stacks=[3, 100, 100], ante=1, bring_in=2, small_bet=5)
    assert hand.bring_in_seat == 2
    hand.act(Action.BRING_IN)
    assert hand.legal_actions() == (Action.FOLD, Action.CALL)
    hand.act(Action.CALL)
    hand.act(Action.CALL)
    assert hand.street == 4
    assert hand.is_all_in(0)
    assert hand.actor == 1


def test_best_board_all_in_opening_wraps_past_the_last_seat():
    cards = ["5s 6s Kd 3d", "5h 6h 9h 9c", "5d 6d Ac 2c"]
    hand = explicit("razz", cards, stacks=[100, 100, 3], ante=1, bring_in=2, small_bet=5)
    assert hand.bring_in_seat == 0
    hand.act(Action.BRING_IN)
    hand.act(Action.CALL)
    hand.act(Action.CALL)
    assert hand.street == 4
    assert hand.is_all_in(2)
    assert hand.actor == 0


def test_folded_seats_boards_do_not_open():
    # Seat 0's ace would make the best board, but it folded on 3rd street.
    hand = explicit("razz", ["5s 6s Ac", "5h 6h Kh 9c", "5d 6d Qd Jd"])
    assert hand.bring_in_seat == 1
    hand.act(Action.BRING_IN)
    hand.act(Action.CALL)
    hand.act(Action.FOLD)
    assert hand.street == 4
    assert hand.actor == 2


def test_fifth_and_sixth_street_openers_use_every_up_card_so_far():
    cards = ["Ts Js 9s 8s 2s 9c Kc", "Th Jh 7h 6h Kh 4h Qc", "Td Jd Qd 4d 5d Ad Jc"]
    hand = explicit("razz", cards)
    openers: dict[int, int] = {}
    while hand.street < 7:
        openers.setdefault(hand.street, hand.actor)
        legal = hand.legal_actions()
        hand.act(next(a for a in (Action.BRING_IN, Action.CHECK, Action.CALL) if a in legal))
    assert openers[3] == 2  # Q♦ is the highest door
    assert openers[4] == 1  # 7-6 beats 9-8 and Q-4
    assert openers[5] == 0  # 9-8-2 beats Q-5-4 and K-7-6
    assert openers[6] == 2  # Q-5-4-A beats K-7-6-4 and the paired 9-9-8-2


# ---------------------------------------------------------------------------- board_strength itself


def _key(board: str, low: bool):
    return board_strength(parse_cards(board), low)


def test_board_strength_matches_the_003_example_literally():
    assert _key("3h 2d", True) > _key("3s 2d", True)
    assert strongest_seat([parse_cards("3s 2d"), parse_cards("3h 2d")], low=True) == 1


def test_razz_board_categories_no_pair_beats_pair_beats_two_pair_beats_trips_beats_quads():
    ordered = ["Kc Qd Jh Ts", "2c 2d 3h 4s", "2c 2d 3h 3s", "2c 2d 2h 3s", "2c 2d 2h 2s"]
    keys = [_key(b, True) for b in ordered]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == len(keys)


def test_razz_lower_pair_and_lower_kickers_are_better():
    assert _key("2c 2d Kh", True) > _key("3c 3d 4h", True)
    assert _key("5c 5d 3h", True) > _key("5h 5s 4h", True)
    assert _key("Ac 2d", True) > _key("Ac 3d", True)


def test_stud_board_categories_quads_beat_trips_beat_two_pair_beat_pair_beat_high_card():
    ordered = ["2c 2d 2h 2s", "3c 3d 3h As", "Ac Ad Kh Ks", "2c 2d 3h 4s", "Ac Kd Qh Js"]
    keys = [_key(b, False) for b in ordered]
    assert keys == sorted(keys, reverse=True)


def test_stud_aces_are_high_on_board_and_straights_or_flushes_do_not_count():
    assert _key("Ac 2d", False) > _key("Kc Qd", False)
    assert _key("9c Td Jh Qs", False) < _key("2c 2d 3h 4s", False)
    assert _key("2s 5s 7s 9s", False) < _key("2c 2d 3h 4s", False)


def test_suits_are_compared_card_by_card_highest_card_first():
    # Razz: a lower suit on the highest card wins even if the next card's suit is higher.
    assert _key("3c 2s", True) > _key("3d 2c", True)
    # Stud: a higher suit on the highest card wins.
    assert _key("Ks 2c", False) > _key("Kh 2s", False)
    # With a pair on board, ties of ranks compare suits by rank then suit order.
    assert _key("5s 5c 3d", False) > _key("5h 5d 3s", False)


def test_weakest_and_strongest_seat_skip_folded_boards():
    boards = [None, parse_cards("Kc"), parse_cards("Ks"), None]
    assert weakest_seat(boards, low=True) == 2
    assert strongest_seat(boards, low=True) == 1
    assert weakest_seat(boards, low=False) == 1
    assert strongest_seat(boards, low=False) == 2


def test_bring_in_seat_agrees_with_the_weakest_one_card_board():
    from itertools import permutations

    from razz_env.engine.order import bring_in_seat

    for doors in permutations(range(0, 52, 3), 3):
        for low in (True, False):
            assert bring_in_seat(list(doors), low) == weakest_seat([[c] for c in doors], low)

"""Showdown (rules.md "Showdown"): who wins each pot, side pots, split pots and odd chips.

Hand values themselves (which low beats which) are tested with the evaluator; here the point is how
the engine settles pots with them. Hands are dealt from a deck whose fixed slots hold the listed cards
(seven per seat, dealing order: down, down, door, 4th, 5th, 6th, 7th).
"""

from __future__ import annotations

import pytest

from razz_env.engine import Action, HandConfig, HandState
from razz_env.engine.dealing import deck_for
from razz_env.engine.showdown import pot_layers

FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, BET_BIG, RAISE = tuple(Action)




def hand_of(variant: str, cards: list[str], stacks: list[int] | None = None, ante: int = 1) -> HandState:
    config = HandConfig.create(variant, stacks=stacks or [500] * len(cards), ante=ante, bring_in=2,
                               small_bet=10, big_bet=20)
    return HandState(config, deck=deck_for(cards))


def bet_and_call(hand: HandState) -> HandState:
    """Bring in; call whenever there is something to call; otherwise bet. Every live seat with chips puts in
    the same: 2 on 3rd street, 10 on 4th, 20 on 5th to 7th."""
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in (BRING_IN, CALL, BET, CHECK) if a in legal))
    return hand


def check_down(hand: HandState, folder: int | None = None) -> HandState:
    """Bring in and call 3rd street, check the rest; ``folder`` folds at its first chance."""
    while not hand.is_over:
        legal = hand.legal_actions()
        if hand.actor == folder and FOLD in legal:
            hand.act(FOLD)
        else:
            hand.act(next(a for a in (BRING_IN, CHECK, CALL) if a in legal))
    return hand


# ---------------------------------------------------------------------------- pot layers


def test_pot_layers_make_a_main_pot_and_side_pots_by_contribution():
    assert pot_layers([50, 100, 100], [False] * 3) == [(150, [0, 1, 2]), (100, [1, 2])]
    assert pot_layers([30, 10, 60, 60], [False] * 4) == [(40, [0, 1, 2, 3]), (60, [0, 2, 3]), (60, [2, 3])]


def test_pot_layers_count_folded_chips_but_folded_seats_cannot_win():
    assert pot_layers([40, 25, 40], [False, True, False]) == [(105, [0, 2])]
    assert pot_layers([10, 30, 30], [False, False, True]) == [(30, [0, 1]), (40, [1])]


def test_pot_layers_with_equal_contributions_is_one_pot():
    assert pot_layers([7, 7, 7, 7], [False, True, False, False]) == [(28, [0, 2, 3])]
    assert pot_layers([0, 0], [False, False]) == []


# ---------------------------------------------------------------------------- razz and Action Razz

# 001: three players at showdown. Player 3's K♣ door brings in.
P1 = "2h 2d 7c 3s 3c 4d 5s"  # butt seven: 7-5-4-3-2
P2 = "Ah Ad 8c 2s 4c 4h 6s"  # butt eight: 8-6-4-2-A
P3 = "3h 5d Kc 7s 8d 9h Qs"  # face nine: 9-8-7-5-3 with Q and K


def test_action_razz_001_example_face_nine_wins_main_pot_butt_seven_wins_side_pot():
    # Player 3 is all-in for the bring-in; players 1 and 2 bet on into a side pot.
    hand = bet_and_call(hand_of("action_razz", [P1, P2, P3], stacks=[500, 500, 3]))
    assert hand.contributed == [73, 73, 3]
    main, side = hand.pots
    assert (main.amount, main.eligible) == (9, [0, 1, 2])
    assert main.winners == {"action_razz": [2]}
    assert (side.amount, side.eligible) == (140, [0, 1])
    assert side.winners == {"action_razz": [0]}
    assert hand.payoffs == [140 - 73, -73, 9 - 3]


def test_same_cards_in_plain_razz_the_butt_seven_wins_everything():
    hand = bet_and_call(hand_of("razz", [P1, P2, P3], stacks=[500, 500, 3]))
    assert hand.payoffs == [149 - 73, -73, -3]


def test_action_razz_butt_hands_compare_as_razz_when_nobody_has_a_face():
    hand = bet_and_call(hand_of("action_razz", [P1, P2]))
    assert hand.payoffs == [73, -73]


def test_razz_best_ace_to_five_low_wins_and_straights_and_flushes_do_not_count():
    wheel_flush = "As 2s Ks 3s 4s 5s Qd"  # A-2-3-4-5 all spades: still the best razz hand
    six_low = "Ah 2h Kh 3h 4d 6c Qc"
    hand = bet_and_call(hand_of("razz", [wheel_flush, six_low]))
    assert hand.payoffs == [73, -73]


def test_razz_tied_lows_split_the_pot():
    a = "Kd Ks 7s 5d 4d 3d 2d"
    b = "Qd 2s Qh 5s 4s 3s 7h"
    hand = bet_and_call(hand_of("razz", [a, b]))
    assert hand.payoffs == [0, 0]


def test_razz_odd_chip_goes_to_the_tied_winner_with_the_highest_card_by_suit():
    # Both play 7-5-4-3-2; seat 0's seven is the 7♠, seat 1's the 7♥ (seat 1's other cards are spades).
    a = "Kd Ks 7s 5d 4d 3d 2d"
    b = "Qd 2s Qh 5s 4s 3s 7h"
    c = "Jc Jh Tc 9c 8c 6c 6h"  # antes 1, folds to the bring-in: a 7-chip pot
    hand = check_down(hand_of("razz", [a, b, c]), folder=2)
    assert hand.contributed == [3, 3, 1]
    assert hand.payoffs == [1, 0, -1]
    swapped = check_down(hand_of("razz", [b, a, c]), folder=2)
    assert swapped.payoffs == [0, 1, -1]


def test_odd_chip_reads_the_five_card_hand_with_the_highest_suits_when_a_rank_is_held_twice():
    # Seat 0 holds 7♦ and 7♠ and may play either in 7-5-4-3-2: its five-card hand is read with the 7♠,
    # which beats seat 1's 7♥ for the odd chip.
    a = "7d Ks 7s 5d 4d 3d 2d"
    b = "Qd 2s Qh 5s 4s 3s 7h"
    c = "Jc Jh Tc 9c 8c 6c 6h"
    hand = check_down(hand_of("razz", [a, b, c]), folder=2)
    assert hand.payoffs == [1, 0, -1]


# ---------------------------------------------------------------------------- stud high


def test_stud_best_high_hand_wins():
    full_house = "Kh Ks 9d Kc 9h Jc Tc"
    flush = "2d 5d 8d Ad Qd 3c 4h"
    hand = bet_and_call(hand_of("stud", [full_house, flush]))
    assert hand.payoffs == [73, -73]


def test_stud_odd_chip_goes_to_the_tied_winner_whose_highest_card_is_the_higher_suit():
    # Both hold A-K-Q-J-9: seat 0 with A♠, seat 1 with A♥ (and K♠ Q♠ J♠). Seat 2 brings in with the 2♥
    # and folds on 4th street: a 9-chip pot.
    x = "2c 3d As Kd Qd Jh 9c"
    y = "5d 3c Ah Ks Qs Js 9d"
    z = "6c 7d 2h 8h Th 4c 5c"
    hand = check_down(hand_of("stud", [x, y, z]), folder=2)
    assert hand.contributed == [3, 3, 3]
    assert hand.payoffs == [2, 1, -3]


# ---------------------------------------------------------------------------- stud8

HIGH = "Kh Ks 9d Kc 9h Jc Tc"  # kings full, no low
LOW = "As 2d 4h 3c 6s Qd Qc"  # 6-4-3-2-A low, pair of queens
MIDDLE = "Qh Qs 8c Jd Js 7c 5h"  # queens and jacks, no low (only 8-7-5 are eight or lower)
NO_LOW = "As 2d 4h 3c Td Qd Qc"  # A-2-3-4 and nothing else eight or lower


@pytest.mark.parametrize(("ante", "high_share", "low_share"), [(2, 111, 111), (1, 110, 109)])
def test_stud8_splits_high_and_low_and_the_odd_chip_between_halves_goes_high(ante, high_share, low_share):
    hand = bet_and_call(hand_of("stud8", [HIGH, LOW, MIDDLE], ante=ante))
    paid = 72 + ante
    assert hand.contributed == [paid] * 3
    assert hand.pots[0].winners == {"high": [0], "eight": [1]}
    assert hand.payoffs == [high_share - paid, low_share - paid, -paid]


def test_stud8_high_hand_scoops_when_no_low_qualifies():
    hand = bet_and_call(hand_of("stud8", [HIGH, NO_LOW, MIDDLE]))
    assert hand.pots[0].winners == {"high": [0]}
    assert hand.payoffs == [146, -73, -73]


def test_stud8_one_hand_can_win_both_halves():
    wheel = "As 2d 3c 4h 5s Kd Qc"  # five-high straight and the best low
    no_low = "Ac 2h 3d 4s Td Jh Th"
    hand = bet_and_call(hand_of("stud8", [wheel, MIDDLE, no_low]))
    assert hand.pots[0].winners == {"high": [0], "eight": [0]}
    assert hand.payoffs == [146, -73, -73]


def test_stud8_each_side_pot_is_settled_separately():
    # LOW is all-in for the bring-in: it wins the low half of the main pot; the side pot between HIGH
    # and MIDDLE has no qualifying low, so HIGH scoops it.
    hand = bet_and_call(hand_of("stud8", [HIGH, LOW, MIDDLE], stacks=[500, 3, 500]))
    main, side = hand.pots
    assert (main.amount, main.eligible, main.winners) == (9, [0, 1, 2], {"high": [0], "eight": [1]})
    assert (side.amount, side.eligible, side.winners) == (140, [0, 2], {"high": [0]})
    assert hand.payoffs == [5 + 140 - 73, 4 - 3, -73]


def test_stud8_tied_lows_quarter_and_the_odd_low_chip_goes_to_the_highest_card():
    high = "Th Ts 9d Tc 9h Jc Jh"  # tens full
    low_spade_six = "Ac 2c 3d 4d 6s Kd Kc"  # 6♠-4-3-2-A
    low_heart_six = "Ah 2h 3h 4s 6h Qd Qc"  # 6♥-4-3-2-A
    hand = bet_and_call(hand_of("stud8", [high, low_spade_six, low_heart_six], ante=2))
    assert hand.pots[0].winners == {"high": [0], "eight": [1, 2]}
    assert hand.payoffs == [111 - 74, 56 - 74, 55 - 74]


# ---------------------------------------------------------------------------- accounting


@pytest.mark.parametrize("variant", ["razz", "action_razz", "stud", "stud8"])
def test_pots_and_returned_chips_account_for_every_chip(variant):
    hand = bet_and_call(hand_of(variant, [P1, P2, P3], stacks=[500, 40, 3]))
    assert sum(hand.payoffs) == 0
    assert sum(p.amount for p in hand.pots) == sum(hand.contributed)
    for pot in hand.pots:
        assert sum(pot.shares.values()) == pot.amount
        assert set(pot.shares) <= set(pot.eligible)
    # Seat 0 put in more than anyone could call; it can lose at most what seat 1 put in.
    assert hand.payoffs[0] >= -hand.contributed[1]


def test_uncalled_bet_is_returned_before_settling():
    # Seat 1 calls all-in for its last chip on 5th street; 19 of seat 0's 20-chip bet come back.
    hand = bet_and_call(hand_of("razz", ["2s 3s 4c Ad 5c 6c 7s", "2h 3h Kc Qd Jc Tc 7h"], stacks=[500, 14]))
    assert hand.history[-2].action is BET and hand.history[-2].amount == 20
    assert hand.history[-1].action is CALL and hand.history[-1].amount == 1
    assert hand.contributed == [33, 14]
    assert hand.payoffs == [14, -14]
    assert hand.stacks == [514, 0]

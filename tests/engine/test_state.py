"""Betting (rules.md "Bring-in" and "Betting"): fixed limits, caps, the stud open-pair big bet, folds,
short all-ins, illegal actions, determinism.

Stakes are ante 1, bring-in 2, small bet 10, big bet 20 unless a test says otherwise, so half a small
bet is 5 and the short all-in rule is easy to read.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import razz_env
from razz_env.engine import Action, HandConfig, HandState, IllegalActionError
from razz_env.engine.dealing import deck_for

FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, BET_BIG, RAISE = tuple(Action)
STAKES = {"ante": 1, "bring_in": 2, "small_bet": 10, "big_bet": 20}

# Three seats: seat 2 (K♣ door) brings in, seat 0 has the best razz board on every later street,
# then seat 1, then seat 2; so after 3rd street the order is always 0, 1, 2.
THREE = ["2s 3s 4c Ad 5c 6c 7s", "2h 3h 8c 7d 9c Tc 7h", "2d 3d Kc Qd Jc Js 7c"]
# Two seats: seat 1 (K♣) brings in; seat 0 opens every later street.
TWO = ["2s 3s 4c Ad 5c 6c 7s", "2h 3h Kc Qd Jc Tc 7h"]




def explicit(variant: str, cards: list[str], stacks: list[int] | None = None, **kwargs) -> HandState:
    """A hand dealing these cards (seven per seat, dealing order) however early it ends."""
    stakes = {**STAKES, **kwargs}
    config = HandConfig.create(variant, stacks=stacks or [500] * len(cards), **stakes)
    return HandState(config, deck=deck_for(cards))


def play(hand: HandState, actions: str) -> list:
    """Apply space-separated actions; return their history entries."""
    return [hand.act(name) for name in actions.split()]


def to_street(hand: HandState, street: int) -> HandState:
    """Bring in and check/call until ``street`` starts."""
    while hand.street < street and not hand.is_over:
        legal = hand.legal_actions()
        hand.act(next(a for a in (BRING_IN, CHECK, CALL) if a in legal))
    return hand


def snapshot(hand: HandState) -> dict:
    """Every field of the hand (the dealer's included), deep-copied."""
    out = {}
    for name in type(hand).__slots__:
        value = getattr(hand, name, None)
        if name == "_dealer":
            value = {s: getattr(value, s) for s in type(value).__slots__}
        out[name] = copy.deepcopy(value)
    return out


# ---------------------------------------------------------------------------- bring-in and completion


def test_bring_in_posts_the_bring_in_and_next_seat_may_fold_call_or_complete():
    hand = explicit("razz", THREE)
    assert hand.actor == 2
    entry = hand.act(BRING_IN)
    assert (entry.seat, entry.amount) == (2, 2)
    assert hand.level == 2
    assert hand.actor == 0
    assert hand.legal_actions() == (FOLD, CALL, COMPLETE)
    assert hand.to_call == 2
    assert hand.act(COMPLETE).amount == 10
    assert hand.level == 10


def test_bring_in_seat_may_complete_to_the_small_bet():
    hand = explicit("razz", THREE)
    entry = hand.act(COMPLETE)
    assert (entry.seat, entry.amount) == (2, 10)
    assert hand.legal_actions() == (FOLD, CALL, RAISE)


def test_completion_is_the_bet_not_a_raise_so_cap_4_allows_three_raises_after_it():
    hand = explicit("razz", THREE + ["2c 3c 9h 8d 9d 8h 6h"])
    assert hand.bring_in_seat == 2
    entries = play(hand, "bring_in complete raise raise raise")
    assert [e.amount for e in entries] == [2, 10, 20, 30, 38]
    assert hand.bet_count == 4
    assert hand.legal_actions() == (FOLD, CALL)
    assert hand.level == 40


def test_when_everyone_calls_the_bring_in_third_street_ends_without_an_option_for_it():
    hand = explicit("razz", THREE)
    play(hand, "bring_in call call")
    assert hand.street == 4
    assert hand.contributed == [3, 3, 3]


def test_completion_by_another_seat_reopens_the_betting_for_the_bring_in():
    hand = explicit("razz", THREE)
    play(hand, "bring_in complete call")
    assert hand.actor == 2
    assert hand.legal_actions() == (FOLD, CALL, RAISE)
    assert hand.act(RAISE).amount == 18


# ---------------------------------------------------------------------------- fixed limits


def test_small_bet_on_third_and_fourth_big_bet_on_fifth_to_seventh():
    hand = explicit("razz", TWO)
    amounts = {}
    for street in (3, 4, 5, 6, 7):
        assert hand.street == street
        first = play(hand, "complete raise call" if street == 3 else "bet raise call")
        amounts[street] = [e.amount for e in first]
    assert amounts[3] == [10, 20, 10]
    assert amounts[4] == [10, 20, 10]
    assert amounts[5] == [20, 40, 20]
    assert amounts[6] == [20, 40, 20]
    assert amounts[7] == [20, 40, 20]
    assert hand.is_over


def test_street_bets_option_doubles_the_bet_on_seventh_street():
    hand = explicit("razz", TWO, street_bets=[10, 10, 20, 20, 40])
    to_street(hand, 7)
    assert [e.amount for e in play(hand, "bet raise call")] == [40, 80, 40]


def test_street_bets_schedule_sets_every_street_and_the_completion():
    hand = explicit("stud", TWO, street_bets=[4, 6, 8, 12, 16], bring_in=1)
    sizes = {}
    while not hand.is_over:
        legal = hand.legal_actions()
        for aggressive in (COMPLETE, BET):
            if aggressive in legal and hand.street not in sizes:
                sizes[hand.street] = hand.act(aggressive).amount
                break
        else:
            hand.act(next(a for a in (BRING_IN, CALL, CHECK) if a in legal))
    assert sizes == {3: 4, 4: 6, 5: 8, 6: 12, 7: 16}


# ---------------------------------------------------------------------------- caps


def test_default_cap_is_a_bet_and_three_raises_even_heads_up():
    hand = to_street(explicit("razz", TWO), 4)
    play(hand, "bet raise raise raise")
    assert hand.legal_actions() == (FOLD, CALL)


@pytest.mark.parametrize(("cap", "raises"), [(1, 0), (2, 1), (3, 2), (6, 5)])
def test_raise_cap_option_allows_a_bet_and_cap_minus_one_raises(cap, raises):
    hand = to_street(explicit("razz", TWO, raise_cap=cap), 4)
    play(hand, " ".join(["bet"] + ["raise"] * raises))
    assert hand.legal_actions() == (FOLD, CALL)


def test_no_cap_option_lets_raising_go_on_until_a_stack_is_all_in():
    hand = to_street(explicit("razz", TWO, stacks=[100, 100], raise_cap=0), 4)
    play(hand, "bet " + "raise " * 8)
    assert hand.level == 90
    assert RAISE in hand.legal_actions()
    hand.act(RAISE)
    assert hand.level == 97 and hand.is_all_in(1)
    assert hand.legal_actions() == (FOLD, CALL)


def test_heads_up_uncapped_removes_the_cap_in_a_round_that_starts_with_two_players():
    hand = to_street(explicit("razz", TWO, heads_up_uncapped=True), 4)
    play(hand, "bet raise raise raise raise raise")
    assert RAISE in hand.legal_actions()
    assert hand.level == 60


def test_heads_up_uncapped_keeps_the_cap_in_a_round_that_started_three_handed():
    hand = to_street(explicit("razz", THREE, heads_up_uncapped=True), 4)
    play(hand, "bet raise fold raise")
    assert hand.actor == 1
    play(hand, "raise")
    assert hand.bet_count == 4
    assert hand.actor == 0
    assert hand.legal_actions() == (FOLD, CALL)


def test_heads_up_uncapped_applies_from_the_next_round_after_a_fold():
    hand = explicit("razz", THREE, heads_up_uncapped=True)
    play(hand, "bring_in call fold")
    assert hand.street == 4
    play(hand, "bet raise raise raise raise")
    assert RAISE in hand.legal_actions()


def test_third_street_cap_counts_from_the_completion():
    hand = explicit("razz", THREE, raise_cap=2)
    play(hand, "bring_in complete raise")
    assert hand.legal_actions() == (FOLD, CALL)


# ---------------------------------------------------------------------------- stud open-pair big bet

# Stud: seat 0's 9♣ is the lowest door (brings in) and 9♣9♦ pairs on 4th street; seat 1 shows K♥J♠.
PAIR = ["2s 3s 9c 9d 5c 6c 7s", "2h 3h Kh Js Tc 4c 7h"]
NO_PAIR = ["2s 3s 9c 8d 5c 6c 7s", "2h 3h Kh Js Tc 4c 7h"]


@pytest.mark.parametrize("variant", ["stud", "stud8"])
def test_open_pair_on_fourth_street_allows_the_big_bet_and_raises_follow_its_size(variant):
    hand = to_street(explicit(variant, PAIR), 4)
    assert hand.actor == 0
    assert hand.legal_actions() == (FOLD, CHECK, BET, BET_BIG)
    entries = play(hand, "bet_big raise raise")
    assert [e.amount for e in entries] == [20, 40, 40]
    assert hand.level == 60


def test_open_pair_small_bet_keeps_small_raises():
    hand = to_street(explicit("stud", PAIR), 4)
    entries = play(hand, "bet raise")
    assert [e.amount for e in entries] == [10, 20]


def test_open_pair_on_any_live_board_lets_a_later_seat_bet_big():
    hand = to_street(explicit("stud", PAIR), 4)
    play(hand, "check")
    assert hand.actor == 1
    assert hand.legal_actions() == (FOLD, CHECK, BET, BET_BIG)


def test_open_pair_big_bet_applies_only_on_fourth_street():
    hand = to_street(explicit("stud", PAIR), 5)
    assert BET_BIG not in hand.legal_actions()


def test_no_open_pair_no_big_bet_on_fourth_street():
    hand = to_street(explicit("stud", NO_PAIR), 4)
    assert hand.legal_actions() == (FOLD, CHECK, BET)


def test_open_pair_big_bet_option_off_removes_it_in_stud():
    hand = to_street(explicit("stud", PAIR, open_pair_big_bet=False), 4)
    assert hand.legal_actions() == (FOLD, CHECK, BET)


@pytest.mark.parametrize("variant", ["razz", "action_razz"])
@pytest.mark.parametrize("option", [None, True])
def test_razz_never_has_an_open_pair_big_bet(variant, option):
    cards = ["2s 3s Kc Kd 5c 6c 7s", "2h 3h Qh Js Tc 4c 7h"]  # K♣K♦ pair on 4th street
    hand = to_street(explicit(variant, cards, open_pair_big_bet=option), 4)
    assert BET_BIG not in hand.legal_actions()
    play(hand, "check")
    assert BET_BIG not in hand.legal_actions()


@pytest.mark.parametrize(("behind", "reopens"), [(29, False), (30, True)])
def test_after_an_open_pair_big_bet_the_short_all_in_rule_measures_against_the_big_bet(behind, reopens):
    # A 9-chip all-in raise over the big bet of 20 is short (below 10); a 10-chip one is full.
    third = "4h 4s Qh Ts 8d 8h 2c"
    hand = to_street(explicit("stud", PAIR + [third], stacks=[500, 3 + behind, 500]), 4)
    play(hand, "bet_big raise call")
    assert hand.is_all_in(1) and hand.level == behind
    assert hand.legal_actions() == ((FOLD, CALL, RAISE) if reopens else (FOLD, CALL))


# ---------------------------------------------------------------------------- folding


def test_fold_with_nothing_to_call_is_legal_and_gives_up_the_pot():
    hand = to_street(explicit("razz", TWO), 4)
    assert hand.to_call == 0
    assert hand.legal_actions() == (FOLD, CHECK, BET)
    hand.act(FOLD)
    assert hand.is_over
    assert hand.payoffs == [-3, 3]


def test_fold_with_nothing_to_call_is_refused_when_only_all_in_seats_would_be_left():
    # Seat 1 calls all-in on 3rd street. On 4th, seat 0 folds with nothing to call (seat 2 still has chips);
    # seat 2 may not fold too and hand the pot to the all-in seat 1: it can only check.
    hand = explicit("razz", THREE, stacks=[500, 3, 500])
    play(hand, "bring_in call call")
    assert hand.street == 4 and hand.is_all_in(1)
    assert hand.legal_actions() == (FOLD, CHECK, BET)
    play(hand, "fold")
    assert hand.actor == 2
    assert hand.legal_actions() == (CHECK,)
    play(hand, "check")
    assert hand.is_over
    assert hand.payoffs == [-3, 6, -3]  # the all-in seat's 9-8-7-3-2 beats seat 2's Q-J-7-3-2


def test_last_seat_standing_wins_without_showdown_and_uncalled_bet_comes_back():
    hand = to_street(explicit("razz", THREE), 5)
    play(hand, "bet fold fold")
    assert hand.is_over
    assert hand.payoffs == [6, -3, -3]
    assert hand.stacks == [506, 497, 497]


# ---------------------------------------------------------------------------- short all-ins

# Seat 1 has 25 or 26 chips: 1 ante + 10 on 3rd street, then 14 or 15 on 4th street.


def _fourth_street_with_short_seat(stack: int, **kwargs) -> HandState:
    hand = explicit("razz", THREE, stacks=[500, stack, 500], **kwargs)
    play(hand, "bring_in complete call call")
    assert hand.street == 4 and hand.actor == 0
    return hand


def test_all_in_raise_of_half_the_increment_counts_as_a_full_raise_and_reopens():
    hand = _fourth_street_with_short_seat(26)
    play(hand, "bet raise")
    assert hand.is_all_in(1) and hand.level == 15
    assert hand.bet_count == 2
    play(hand, "call")
    assert hand.actor == 0
    assert hand.legal_actions() == (FOLD, CALL, RAISE)
    assert hand.act(RAISE).amount == 15  # to 25: a full increment above the all-in amount


def test_all_in_raise_below_half_the_increment_does_not_reopen_for_seats_that_acted():
    hand = _fourth_street_with_short_seat(25)
    play(hand, "bet raise")
    assert hand.is_all_in(1) and hand.level == 14
    assert hand.bet_count == 1
    play(hand, "call")
    assert hand.actor == 0
    assert hand.legal_actions() == (FOLD, CALL)


def test_seat_yet_to_act_may_raise_a_short_all_in_by_a_full_increment_above_it():
    hand = _fourth_street_with_short_seat(25)
    play(hand, "bet raise")
    assert hand.actor == 2
    assert hand.legal_actions() == (FOLD, CALL, RAISE)
    assert hand.act(RAISE).amount == 24
    assert hand.level == 24
    assert hand.actor == 0
    assert hand.legal_actions() == (FOLD, CALL, RAISE)


def test_short_all_in_raise_does_not_count_toward_the_cap_but_a_full_one_does():
    short = _fourth_street_with_short_seat(25, raise_cap=2)
    play(short, "bet raise")
    assert short.legal_actions() == (FOLD, CALL, RAISE)
    full = _fourth_street_with_short_seat(26, raise_cap=2)
    play(full, "bet raise")
    assert full.legal_actions() == (FOLD, CALL)


def test_all_in_bet_below_half_a_bet_lets_the_next_seat_complete_it():
    # Seat 0 opens 4th street with 4 chips left.
    hand = explicit("razz", THREE, stacks=[15, 500, 500])
    play(hand, "bring_in complete call call")
    entry = hand.act(BET)
    assert entry.amount == 4 and hand.is_all_in(0)
    assert hand.bet_count == 0
    assert hand.legal_actions() == (FOLD, CALL, COMPLETE)
    assert hand.act(COMPLETE).amount == 10
    assert hand.legal_actions() == (FOLD, CALL, RAISE)


def test_all_in_bet_of_half_a_bet_counts_as_the_bet():
    hand = explicit("razz", THREE, stacks=[16, 500, 500])
    play(hand, "bring_in complete call call")
    assert hand.act(BET).amount == 5
    assert hand.bet_count == 1
    assert hand.legal_actions() == (FOLD, CALL, RAISE)
    assert hand.act(RAISE).amount == 15


def test_short_all_in_completion_on_third_street_does_not_reopen_for_the_bring_in():
    # Seat 0 has 5 chips after the ante: completing all-in to 5 adds 3 over the bring-in of 2, less than
    # half of the 8 a full completion adds, so the bring-in seat may only call or fold.
    hand = explicit("razz", THREE, stacks=[6, 500, 500])
    play(hand, "bring_in complete")
    assert hand.is_all_in(0) and hand.level == 5 and hand.bet_count == 0
    assert hand.legal_actions() == (FOLD, CALL, COMPLETE)
    play(hand, "call")
    assert hand.actor == 2
    assert hand.legal_actions() == (FOLD, CALL)


def test_all_in_completion_of_half_the_increment_counts_as_the_completion():
    hand = explicit("razz", THREE, stacks=[7, 500, 500])
    play(hand, "bring_in complete")
    assert hand.level == 6 and hand.bet_count == 1
    play(hand, "call")
    assert hand.legal_actions() == (FOLD, CALL, RAISE)
    assert hand.act(RAISE).amount == 14  # to 16


def test_calling_all_in_for_less_puts_in_what_the_seat_has():
    hand = explicit("razz", TWO, stacks=[500, 15])
    play(hand, "bring_in complete")
    to_street(hand, 4)
    play(hand, "bet")
    assert hand.to_call == 4
    assert hand.legal_actions() == (FOLD, CALL)
    entry = hand.act(CALL)
    assert entry.amount == 4
    assert hand.is_over
    assert hand.contributed == [21, 15]
    assert hand.payoffs == [15, -15]


def test_no_bet_or_raise_when_every_other_live_seat_is_all_in():
    hand = explicit("razz", THREE, stacks=[500, 26, 500])
    play(hand, "bring_in complete call fold")
    play(hand, "bet raise")
    assert hand.is_all_in(1)
    assert hand.legal_actions() == (FOLD, CALL)


def test_betting_continues_between_seats_with_chips_after_one_is_all_in():
    hand = _fourth_street_with_short_seat(26)
    play(hand, "bet raise call call")
    assert hand.street == 5
    assert hand.actor == 0
    assert hand.legal_actions() == (FOLD, CHECK, BET)
    play(hand, "bet")
    assert hand.actor == 2  # the all-in seat 1 is skipped
    assert hand.legal_actions() == (FOLD, CALL, RAISE)


def test_once_one_seat_has_chips_the_rest_is_dealt_out_without_betting():
    hand = explicit("razz", TWO, stacks=[500, 26])
    play(hand, "bring_in complete call")
    play(hand, "bet raise call")
    assert hand.is_over
    assert [e.street for e in hand.history] == [3, 3, 3, 4, 4, 4]
    assert [len(c) for c in hand.cards] == [7, 7]


def test_uncalled_part_of_a_bet_against_an_all_in_seat_is_returned():
    # Seat 1 has 14 chips left on 5th street; seat 0 bets 20 and gets the uncalled 6 back.
    hand = explicit("razz", TWO, stacks=[500, 25])
    play(hand, "bring_in complete call check check bet")
    assert hand.act(CALL).amount == 14
    assert hand.is_over
    assert hand.contributed == [31, 25]
    assert hand.payoffs == [25, -25]  # seat 0's wheel beats seat 1's J-T-7-3-2
    assert hand.stacks == [525, 0]


# ---------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize(
    "bad", [RAISE, BET, CHECK, "raise", "bet_big", "nonsense", 99, -1, None, 2.5, True, [], "FOLDS"]
)
def test_illegal_action_raises_naming_the_seat_and_legal_actions_and_changes_nothing(bad):
    hand = explicit("razz", THREE)
    play(hand, "bring_in")
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as err:
        hand.act(bad)
    message = str(err.value)
    assert "seat 0" in message
    assert "legal: fold, call, complete" in message
    assert snapshot(hand) == before


def test_numpy_integer_action_values_are_actions_and_numpy_bools_are_not():
    np = pytest.importorskip("numpy")
    hand = explicit("razz", THREE)
    play(hand, "bring_in")
    assert hand.act(np.int64(int(CALL))).action is CALL
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"unknown action np.True_"):
        hand.act(np.bool_(True))
    assert snapshot(hand) == before


def test_bring_in_seat_cannot_fold_and_the_refusal_changes_nothing():
    hand = explicit("razz", THREE)
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="seat 2 .*fold is not legal; legal: bring_in, complete"):
        hand.act(FOLD)
    assert snapshot(hand) == before


def test_illegal_action_deep_in_a_hand_changes_nothing():
    hand = _fourth_street_with_short_seat(25)
    play(hand, "bet raise call")
    before = snapshot(hand)
    for bad in (RAISE, CHECK, BET, BET_BIG, COMPLETE, BRING_IN):
        with pytest.raises(IllegalActionError):
            hand.act(bad)
        assert snapshot(hand) == before
    hand.act(CALL)
    assert hand.street == 5


def test_no_action_is_legal_once_the_hand_is_over():
    hand = explicit("razz", TWO)
    play(hand, "bring_in fold")
    assert hand.is_over
    assert hand.legal_actions() == ()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.act(CHECK)
    assert snapshot(hand) == before


def test_actions_are_accepted_as_enum_record_name_or_int():
    for spelled in (BRING_IN, "bring_in", "BRING_IN", int(BRING_IN)):
        hand = explicit("razz", THREE)
        assert hand.can_act(spelled)
        assert hand.act(spelled).action is BRING_IN
    hand = explicit("razz", THREE)
    assert not hand.can_act("fold")
    assert not hand.can_act("garbage")
    assert not hand.can_act(None)


# ---------------------------------------------------------------------------- accounting


def test_history_records_street_seat_action_and_chips():
    hand = explicit("razz", THREE)
    play(hand, "bring_in complete call call check bet")
    assert [tuple(e) for e in hand.history] == [
        (3, 2, BRING_IN, 2), (3, 0, COMPLETE, 10), (3, 1, CALL, 10), (3, 2, CALL, 8), (4, 0, CHECK, 0), (4, 1, BET, 10),
    ]
    assert hand.pot == 3 + 30 + 10


def test_chips_are_conserved_and_payoffs_sum_to_zero_in_a_played_out_hand():
    hand = explicit("stud8", THREE, stacks=[300, 40, 120])
    total = sum(hand.stacks) + hand.pot
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(legal[-1])
        if not hand.is_over:
            assert sum(hand.stacks) + hand.pot == total
    assert sum(hand.payoffs) == 0
    assert sum(hand.stacks) == total
    assert [s - i for s, i in zip(hand.stacks, hand.initial_stacks)] == hand.payoffs


# ---------------------------------------------------------------------------- determinism

_DIGEST_SOURCE = '''
import hashlib, json, random
from razz_env.engine import HandConfig, HandState

def digest():
    parts = []
    for i, variant in enumerate(["razz", "action_razz", "stud", "stud8"] * 3):
        seats = 2 + i % 7
        config = HandConfig.create(variant, stacks=[40 + 37 * s for s in range(seats)])
        hand = HandState(config, seed=1000 + i)
        policy = random.Random(i)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.act(legal[policy.randrange(len(legal))])
        parts.append([hand.cards, hand.community, [list(map(int, e)) for e in hand.history], hand.payoffs])
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()
'''


def _digest_here() -> str:
    namespace: dict = {}
    exec(_DIGEST_SOURCE, namespace)
    return namespace["digest"]()


def test_same_seed_gives_the_same_cards_actions_and_results():
    assert _digest_here() == _digest_here()
    config = HandConfig.create("razz", num_seats=5)
    a, b = HandState(config, seed=77), HandState(config, seed=77)
    for hand in (a, b):
        while not hand.is_over:
            hand.act(hand.legal_actions()[-1])
    assert a.cards == b.cards and a.history == b.history and a.payoffs == b.payoffs


def test_same_seed_gives_the_same_hand_in_another_process():
    root = Path(razz_env.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "12345"}
    result = subprocess.run(
        [sys.executable, "-c", _DIGEST_SOURCE + "\nprint(digest())"],
        capture_output=True, text=True, env=env, cwd=root, timeout=120, check=True,
    )
    assert result.stdout.strip() == _digest_here()
    assert len(json.dumps(result.stdout.strip())) > 10
    assert hashlib.sha256(b"").hexdigest() != result.stdout.strip()

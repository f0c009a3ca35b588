"""Property tests: random configurations and random legal play, checked at every step.

Any variant (the MiniRazz games too), 2-8 seats as far as its deck deals, random stakes, bet schedules,
rule options and stacks (tiny ones included), and random action sequences drawn from ``legal_actions()``.
At every step: chips are conserved, no stack goes negative, the actor and the legal set obey the betting
rules, the street is one of the variant's, and an illegal action (anything outside the legal set, and
garbage) raises and changes nothing. At the end: payoffs sum to zero, every card is distinct and from the
variant's deck, the same seed and decisions give the same hand, the hand record replays, and the hand
ended within a bounded number of actions. The default run keeps to a small ``max_examples``; ``-m slow``
runs many more.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.engine import VARIANTS, Action, HandConfig, HandState, IllegalActionError, hand_from_record, to_record
from razz_env.engine.config import max_seats
from razz_env.engine.order import strongest_seat, weakest_seat

FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET, BET_BIG, RAISE = tuple(Action)
AGGRESSIVE = {COMPLETE, BET, BET_BIG, RAISE}
GARBAGE = ("shove", "", "FOLDS", None, -1, 8, 99, 2.5, True, False, b"fold", (), [])

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def configs(draw) -> HandConfig:
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    seats = draw(st.integers(2, max_seats(VARIANTS[variant])))
    streets = len(VARIANTS[variant].streets)
    small_bet = draw(st.integers(2, 20))
    bring_in = draw(st.integers(1, small_bet - 1))
    street_bets = draw(st.none() | st.lists(st.integers(1, 40), min_size=streets, max_size=streets))
    if street_bets is not None:
        street_bets[0] = max(street_bets[0], bring_in + 1)
    stack = st.one_of(st.integers(1, 12), st.integers(13, 80), st.integers(81, 600))
    return HandConfig.create(
        variant,
        stacks=draw(st.lists(stack, min_size=seats, max_size=seats)),
        ante=draw(st.integers(0, 5)),
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=draw(st.integers(1, 40)),
        street_bets=street_bets,
        raise_cap=draw(st.none() | st.integers(1, 6)),
        heads_up_uncapped=draw(st.booleans()),
        open_pair_big_bet=draw(st.sampled_from([None, True, False])),
    )


def snapshot(hand: HandState) -> dict:
    out = {}
    for name in type(hand).__slots__:
        value = getattr(hand, name, None)
        if name == "_dealer":
            value = {s: getattr(value, s) for s in type(value).__slots__}
        out[name] = copy.deepcopy(value)
    return out


def action_bound(config: HandConfig) -> int:
    """Most decisions a hand can take: per round each seat acts once, once more after every counted
    bet or raise, and once more after every all-in."""
    n = config.num_seats
    uncapped = config.rules.raise_cap is None or config.rules.heads_up_uncapped
    raises = max(config.stacks) if uncapped else config.rules.raise_cap
    return len(config.variant.streets) * n * (raises + n + 2)


def expected_opener(hand: HandState) -> int:
    """Who opens the current street, from rules.md: the bring-in is the weakest door (the first street), later
    streets the best board of a live seat; an all-in seat passes it clockwise to the next that can act."""
    variant = hand.config.variant
    n, low = hand.num_seats, variant.low_board
    if hand.street == variant.street_numbers[0]:
        first = weakest_seat([hand.up_cards(s) for s in range(n)], low)
    else:
        first = strongest_seat([None if hand.folded[s] else hand.up_cards(s) for s in range(n)], low)
    while hand.folded[first] or hand.stacks[first] == 0:
        first = (first + 1) % n
    return first


def check_step(hand: HandState, total: int, street_opened: bool) -> None:
    assert sum(hand.stacks) + hand.pot == total
    assert hand.street in hand.config.variant.street_numbers
    assert min(hand.stacks) >= 0
    seat = hand.actor
    legal = hand.legal_actions()
    assert legal and seat is not None
    assert not hand.folded[seat] and hand.stacks[seat] > 0
    others = [s for s in range(hand.num_seats) if s != seat and not hand.folded[s]]
    assert others
    if street_opened:
        assert seat == expected_opener(hand)
    if hand.bring_in_pending:
        assert seat == hand.bring_in_seat and legal in ((BRING_IN,), (BRING_IN, COMPLETE))
        return
    to_call = hand.level - hand.bets[seat]
    assert (CALL in legal) == (to_call > 0) != (CHECK in legal)
    if FOLD in legal and to_call == 0:
        assert any(hand.stacks[s] for s in others), "fold with nothing to call may not abandon the pot to all-ins"
    if AGGRESSIVE & set(legal):
        assert any(hand.bets[s] + hand.stacks[s] > hand.level for s in others)
        assert hand.cap is None or hand.bet_count < hand.cap
        assert hand.stacks[seat] > to_call
    if BET_BIG in legal:
        assert hand.street == 4 and hand.config.variant.name in ("stud", "stud8")
        assert hand.config.rules.open_pair_big_bet is not False
        # The open pair is judged on the boards dealt 4th street (a seat that folded since still counts).
        assert any(b[0] >> 2 == b[1] >> 2 for b in (hand.up_cards(s) for s in range(hand.num_seats)) if len(b) == 2)


def check_amount(hand: HandState, before: dict, entry) -> None:
    seat, action, amount = entry.seat, entry.action, entry.amount
    stack, bet, level = before["stacks"][seat], before["bets"][seat], before["level"]
    size = hand.config.bet_size(entry.street)
    if action in (FOLD, CHECK):
        assert amount == 0
    elif action is CALL:
        assert amount == min(level - bet, stack)
    elif action is BRING_IN:
        assert amount == min(hand.config.stakes.bring_in, stack)
    elif action is BET:
        assert amount == min(size, stack)
    elif action is BET_BIG:
        assert amount == min(hand.config.big_bet, stack)
    elif action is COMPLETE:
        assert amount == min(before["increment"], bet + stack) - bet
    elif action is RAISE:
        assert amount == min(level + before["increment"], bet + stack) - bet


def play_random(config: HandConfig, seed: int, data) -> tuple[HandState, list[int]]:
    hand = HandState(config, seed=seed)
    total = sum(config.stacks)
    choices: list[int] = []
    street_opened = True
    bound = action_bound(config)
    while not hand.is_over:
        assert len(choices) < bound, "the hand does not end"
        check_step(hand, total, street_opened)
        legal = hand.legal_actions()
        if data.draw(st.integers(0, 4), label="try illegal") == 0:
            bad = data.draw(st.sampled_from([a for a in Action if a not in legal] + list(GARBAGE)), label="bad")
            before = snapshot(hand)
            with pytest.raises(IllegalActionError):
                hand.act(bad)
            assert snapshot(hand) == before
        index = data.draw(st.integers(0, len(legal) - 1), label="action")
        choices.append(index)
        before = {"stacks": list(hand.stacks), "bets": list(hand.bets), "level": hand.level,
                  "increment": hand.config.big_bet if legal[index] is BET_BIG else hand.increment}
        street = hand.street
        entry = hand.act(legal[index])
        check_amount(hand, before, entry)
        street_opened = hand.street != street
    return hand, choices


def check_finished(hand: HandState, config: HandConfig, seed: int, choices: list[int]) -> None:
    total = sum(config.stacks)
    assert hand.legal_actions() == () and hand.actor is None
    assert sum(hand.payoffs) == 0
    assert sum(hand.stacks) == total
    assert min(hand.stacks) >= 0
    assert [s - i for s, i in zip(hand.stacks, config.stacks)] == hand.payoffs
    for seat in range(config.num_seats):
        if hand.folded[seat]:
            assert hand.payoffs[seat] == -hand.contributed[seat]
    variant = config.variant
    live = [s for s in range(config.num_seats) if not hand.folded[s]]
    dealt = [c for held in hand.cards for c in held] + ([hand.community] if hand.community is not None else [])
    assert len(dealt) == len(set(dealt)) and set(dealt) <= set(variant.deck)
    assert {entry.street for entry in hand.history} <= set(variant.street_numbers)
    assert all(len(held) in variant.street_numbers for held in hand.cards)
    if len(live) > 1:
        assert all(len(hand.showdown_cards(s)) == variant.cards_per_seat for s in live)
        # The last street ran short if the deck could not give each seat live at the deal its own card.
        last = variant.street_numbers[-1]
        live_at_deal = len(live) + sum(1 for e in hand.history if e.street == last and e.action is FOLD)
        before_last = sum(len(h) for h in hand.cards) - (0 if hand.community is not None else live_at_deal)
        assert (hand.community is not None) == (len(variant.deck) - before_last < live_at_deal)
    # Same seed, same decisions: the same hand.
    again = HandState(config, seed=seed)
    for index in choices:
        again.act(again.legal_actions()[index])
    assert again.cards == hand.cards and again.history == hand.history and again.payoffs == hand.payoffs
    # The hand record replays to the same result.
    replayed = hand_from_record(to_record(hand))
    assert replayed.payoffs == hand.payoffs and replayed.history == hand.history


@FAST
@given(config=configs(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_legal_play_conserves_chips_refuses_illegal_actions_and_ends(config, seed, data):
    hand, choices = play_random(config, seed, data)
    check_finished(hand, config, seed, choices)


@pytest.mark.slow
@SLOW
@given(config=configs(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_legal_play_soak(config, seed, data):
    hand, choices = play_random(config, seed, data)
    check_finished(hand, config, seed, choices)


@FAST
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_the_same_seed_deals_the_same_hand(config, seed):
    a, b = HandState(config, seed=seed), HandState(config, seed=seed)
    assert a.cards == b.cards and a.actor == b.actor and a.legal_actions() == b.legal_actions()
    while not a.is_over:
        action = a.legal_actions()[len(a.history) % len(a.legal_actions())]
        a.act(action)
        b.act(action)
    assert a.cards == b.cards and a.community == b.community and a.payoffs == b.payoffs

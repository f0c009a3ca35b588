"""The text interface for language models: docs/llm.md's example prompt is what :func:`render` writes, no prompt
holds a card its seat may not see, every decision and legal action is spelt with its chips, and replies are read by
the page's rule (a table of replies)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from razz_env.encoding.actions import BET_BIG, BET_RAISE, BRING_IN, CHECK_CALL, FOLD
from razz_env.encoding.interface import observe
from razz_env.encoding.text import correction, parse_reply, read_reply, render
from razz_env.engine.actions import Action
from razz_env.engine.cards import CARD_NAMES, card_str
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "llm.md"
EXAMPLE = re.compile(r"<!-- example prompt: (.*?) -->\s*```text\n(.*?)```", re.DOTALL)


def _hand(variant: str, seats: int, seed: int, actions: list[str]) -> HandState:
    hand = HandState(HandConfig.create(variant, num_seats=seats), seed=seed)
    for action in actions:
        hand.act(action)
    return hand


def _decision(variant: str = "razz", seats: int = 2, seed: int = 1, actions: tuple[str, ...] = ()):
    hand = _hand(variant, seats, seed, list(actions))
    return observe(hand, hand.actor)


def test_the_documented_prompt_is_exactly_what_render_writes():
    found = EXAMPLE.search(PAGE.read_text(encoding="utf-8"))
    assert found is not None, "docs/llm.md lost its example prompt"
    settings = json.loads(found.group(1))
    hand = _hand(settings["variant"], settings["seats"], settings["deal_seed"], settings["actions"])
    assert render(observe(hand, hand.actor)) + "\n" == found.group(2)


def _card_tokens(text: str) -> set[str]:
    return set(re.findall(r"(?<![A-Za-z0-9])(?:" + "|".join(CARD_NAMES) + r")(?![A-Za-z0-9])", text))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seats", [2, 3, 5, 8])
def test_a_prompt_holds_exactly_the_cards_its_seat_sees(variant, seats):
    """Random hands, every decision: no card of another seat's down cards appears as a card in the prompt, and every
    card the seat holds, every up card and the community card do."""
    if seats > max_seats(VARIANTS[variant]):
        pytest.skip(f"{variant} seats at most {max_seats(VARIANTS[variant])}")
    rng = random.Random(f"{variant}/{seats}")
    for deal in range(12 if seats < 8 else 6):
        hand = HandState(HandConfig.create(variant, num_seats=seats), seed=deal)
        while not hand.is_over:
            seat = hand.actor
            text = render(observe(hand, seat))
            hidden = {card_str(c) for other in range(seats) if other != seat for c in hand.down_cards(other)}
            seen = {card_str(c) for c in hand.down_cards(seat) + [c for s in range(seats) for c in hand.up_cards(s)]}
            if hand.community is not None:
                seen.add(card_str(hand.community))
            assert not hidden & _card_tokens(text), (seat, text)
            assert seen <= _card_tokens(text), (seat, text)
            hand.act(rng.choice(hand.legal_actions()))


def test_the_prompt_tells_the_game_the_history_and_the_chips():
    text = render(_decision(actions=("bring_in", "complete")))
    assert text.startswith("Game: Razz (seven-card stud, ace-to-five low), fixed limit, 2 seats. You are seat 0.")
    assert "the lowest five-card hand wins" in text and "(the best is 5-4-3-2-A)" in text
    assert "Stacks at the start: seat 0 (you) 200, seat 1 200.\nAntes: 1 each." in text
    assert ("seat 0 (you) is dealt 2h Jc face down, 7s face up\nseat 1 is dealt two cards face down, 7h face up\n"
            "seat 0 (you) has the highest door card: it brings in or completes\n"
            "seat 0 (you) brings in for 2\nseat 1 completes to 5\n") in text
    assert "The bet to match is 5: calling costs 3. Bets and raises on this street are 5 chips." in text
    assert text.endswith("- fold: give up the hand\n- call: put in 3 to match the bet of 5\n"
                         "- raise: raise to 10 (put in 8)\nAnswer with one word from: fold, call, raise.")
    assert not render(_decision(actions=("bring_in", "complete")), instruction=False).endswith(".")


@pytest.mark.parametrize("variant,says", [
    ("razz", "the lowest five-card hand wins"),
    ("action_razz", "a hand holding a jack, queen or king anywhere beats every hand without one"),
    ("stud", "the highest five-card poker hand wins"),
    ("stud8", "with no such low the high hand takes it all"),
    ("minirazz", "the lowest three-card hand wins"),
])
def test_each_game_states_what_wins(variant, says):
    text = render(_decision(variant))
    assert says in text
    assert ("Deck: 12 cards, ranks A 2 3 4 5 6 in clubs and diamonds." in text) == (variant == "minirazz")


def _bet_big_hand() -> HandState:
    """A heads-up stud hand, checked and called to the first 4th street where an open pair offers the big bet."""
    for seed in range(200):
        hand = HandState(HandConfig.create("stud", num_seats=2), seed=seed)
        while Action.BET_BIG not in hand.legal_actions() and hand.street < 5:
            legal = hand.legal_actions()
            hand.act(Action.CALL if Action.CALL in legal else Action.CHECK if Action.CHECK in legal else legal[0])
        if Action.BET_BIG in hand.legal_actions():
            return hand
    raise AssertionError("no open pair on 4th street in 200 deals")


def test_the_big_bet_and_an_all_in_are_spelt():
    """Stud's open pair on 4th street offers bet_big, and a short stack's call and raise say all in."""
    hand = _bet_big_hand()
    text = render(observe(hand, hand.actor))
    assert "- bet: bet 5\n- bet_big: bet the big bet (allowed on 4th street when a board shows a pair)" in text
    hand.act(Action.BET_BIG)
    assert f"seat {1 - hand.actor} bets 10 (the big bet)" in render(observe(hand, hand.actor))
    short = HandState(HandConfig.create("razz", stacks=[200, 8]), seed=1)
    short.act("complete")
    text = render(observe(short, short.actor))
    assert "seat 0 (you) completes to 5" not in text and "seat 0 completes to 5" in text
    assert "- call: put in 5 to match the bet of 5\n- raise: raise to 7 (put in 7), all in" in text
    short.act("raise")
    assert "seat 1 raises to 7 and is all in" in render(observe(short, short.actor))


def test_only_a_decision_renders():
    hand = HandState(HandConfig.create("razz"), seed=1)
    with pytest.raises(ValueError, match="seat 1 has no decision now"):
        render(observe(hand, 1))


CHECK_OR_BET = ("bring_in", "complete")  # after these, the bring-in seat faces a completion: fold, call, raise


@pytest.mark.parametrize("reply,expected", [
    ("call", CHECK_CALL),
    ("CALL", CHECK_CALL),
    ("  Call.  ", CHECK_CALL),
    ("check", CHECK_CALL),                          # check and call are one answer: the legal one of them
    ("I call!", CHECK_CALL),
    ("Raise to 10", BET_RAISE),
    ("bet", BET_RAISE),                             # bet, raise and complete are one answer
    ("**Fold**", FOLD),
    ('{"action": "raise"}', BET_RAISE),
    ('Sure: ```json\n{"action": "fold"}\n```', FOLD),
    ('{"action": "call", "reason": "I could raise or fold"}', CHECK_CALL),  # JSON decides
    ("Folding would be weak and raising is loose.\nAction: call", CHECK_CALL),  # the label decides
    ("Final answer:\n\n  raise", BET_RAISE),
    ("I could fold or raise here.\nI call.", CHECK_CALL),  # the last line naming an action decides
    ("", None),
    ("   ", None),
    ("I am not sure.", None),
    ("recall, folder, raised, bets", None),         # words inside other words, and other forms, do not count
    ("fold or call?", None),                        # two actions in the deciding line: ambiguous
    ("Action: fold, no, call", None),
    ("check-raise", None),
    ('{"action": 1}', None),                        # a JSON action is a word
    ('{"action": "calling"}', None),
    ("bring in", None),                             # not legal here
    ("bet big", None),
])
def test_a_reply_is_read_by_the_rule(reply, expected):
    assert parse_reply(reply, _decision(actions=CHECK_OR_BET)) == expected


@pytest.mark.parametrize("reply,expected", [
    ("bring in", BRING_IN), ("Bring-In", BRING_IN), ("bring_in", BRING_IN), ("post", BRING_IN),
    ("post the bring-in", BRING_IN), ("complete", BET_RAISE), ("fold", None), ("call", None),
    ("bring in or complete", None),
])
def test_a_bring_in_reply(reply, expected):
    assert parse_reply(reply, _decision()) == expected


def test_bet_big_is_its_own_answer():
    hand = _bet_big_hand()
    observation = observe(hand, hand.actor)
    assert parse_reply("bet big", observation) == BET_BIG
    assert parse_reply("BET_BIG", observation) == BET_BIG
    assert parse_reply("bet", observation) == BET_RAISE
    assert parse_reply("bet or bet big", observation) is None


def test_what_was_wrong_is_named():
    observation = _decision(actions=CHECK_OR_BET)
    assert read_reply("hmm", observation).problem == "it names no action"
    assert read_reply("fold or call", observation).problem == "it names more than one action ('fold', 'call')"
    assert read_reply("post", observation).problem == "'post' is not legal now"
    assert read_reply('{"action": 2}', observation).problem == 'its JSON "action" is not a word'
    assert read_reply("call", observation).problem is None
    assert correction(" fold or call ", "it names more than one action ('fold', 'call')", observation) == (
        "Your reply 'fold or call' was not understood: it names more than one action ('fold', 'call'). "
        "Answer with exactly one word from: fold, call, raise.")
    with pytest.raises(TypeError, match="a reply is text"):
        read_reply(None, observation)


def test_fold_is_not_offered_when_checking_is_free():
    hand = _hand("razz", 2, 1, ["bring_in", "call"])
    observation = observe(hand, hand.actor)
    assert "- fold" not in render(observation)
    assert read_reply("fold", observation).problem == "'fold' is not legal now"
    assert parse_reply("call", observation) == CHECK_CALL


"""The bot protocol's messages: docs/protocol.md's example exchange is what the dealer sends, no message holds a card
its seat may not see, and every bad answer is refused naming what was wrong and what is allowed."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

from razz_env.agents.registry import make_agent
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import hand_outcome, observe
from razz_env.encoding.protocol import (
    BYE,
    ProtocolError,
    action_from_reply,
    decision_message,
    hand_end_message,
    hand_message,
    hello_message,
    line,
    parse_line,
    policy_from_reply,
    ready_from_reply,
)
from razz_env.engine.actions import Action
from razz_env.engine.cards import card_str
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
EXAMPLE = re.compile(r"<!-- example exchange: (.*?) -->\s*```text\n(.*?)```", re.DOTALL)


def _documented_exchange() -> tuple[dict, list[str]]:
    """The page's example: its settings (the comment above it) and its lines (``> `` dealer, ``< `` bot)."""
    found = EXAMPLE.search(PAGE.read_text(encoding="utf-8"))
    assert found is not None, "docs/protocol.md lost its example exchange"
    return json.loads(found.group(1)), found.group(2).splitlines()


def test_the_documented_exchange_is_exactly_what_the_dealer_sends():
    """The page's hand, dealt from its seed, with the bot's documented answers and the opponent it names: every
    dealer line of the page is the line the dealer writes, in order, so the page cannot drift from the code."""
    settings, lines = _documented_exchange()
    hand = HandState(HandConfig.create(settings["variant"], num_seats=2), seed=settings["deal_seed"])
    seat = settings["seat"]
    opponent = make_agent(settings["opponent"], seed=0)
    opponent.reset(1 - seat, 2, settings["variant"])
    answers = iter(text[2:] for text in lines if text.startswith("< "))
    sent = [line(hello_message(settings["bot_seed"]))]
    ready_from_reply(parse_line(next(answers).encode()))
    sent.append(line(hand_message(seat, 2, settings["variant"])))
    while not hand.is_over:
        observation = observe(hand, hand.actor)
        if hand.actor == seat:
            sent.append(line(decision_message("act", observation)))
            chosen = action_from_reply(parse_line(next(answers).encode()), observation)
        else:
            chosen = opponent.act(observation)
        hand.act(to_engine(chosen, hand.legal_actions()))
    sent.append(line(hand_end_message(hand_outcome(hand, seat, 0))))
    sent.append(line(BYE))
    assert [text[2:] for text in lines if text.startswith("> ")] == [s.decode().rstrip("\n") for s in sent]
    assert next(answers, None) is None
    assert all(text[:2] in ("> ", "< ") for text in lines)


@pytest.mark.parametrize("variant,seats", [("razz", 2), ("stud8", 8), ("stud", 5)])
def test_no_message_holds_a_card_its_seat_may_not_see(variant, seats):
    """Random hands, every seat's message at every decision: another seat's down card never appears (a card appears
    only as its quoted name), and every card the seat holds or sees up does; at the hand's end, every seat's
    ``hand_end`` shows the down cards of the seats at a showdown and no other seat's."""
    rng = random.Random(f"{variant}/{seats}")
    folds = showdowns = 0
    for deal in range(30):
        hand = HandState(HandConfig.create(variant, num_seats=seats), seed=deal)
        while not hand.is_over:
            for seat in range(seats):
                observation = observe(hand, seat)
                if seat == hand.actor:
                    text = line(decision_message("act", observation)).decode()
                else:
                    text = json.dumps(decision_message("act", observation))
                hidden = {card_str(c) for other in range(seats) if other != seat for c in hand.down_cards(other)}
                shown = {card_str(c) for c in hand.down_cards(seat) + hand.up_cards(seat)}
                assert not {name for name in hidden if f'"{name}"' in text}, (seat, text)
                assert all(f'"{name}"' in text for name in shown)
            legal = hand.legal_actions()
            hand.act(rng.choice([a for a in legal if a is not Action.FOLD] if deal % 2 else legal))  # odd: showdowns
        at_showdown = [s for s in range(seats) if not hand.folded[s]]
        at_showdown = at_showdown if len(at_showdown) > 1 else []
        folds += any(hand.folded)
        showdowns += bool(at_showdown)
        for seat in range(seats):
            text = line(hand_end_message(hand_outcome(hand, seat, deal))).decode()
            hidden = {card_str(c) for other in range(seats) if other != seat and other not in at_showdown
                      for c in hand.down_cards(other)}
            shown = {card_str(c) for other in at_showdown for c in hand.down_cards(other)}
            assert not {name for name in hidden if f'"{name}"' in text}, (seat, text)
            assert all(f'"{name}"' in text for name in shown)
    assert folds and showdowns


def _bring_in_decision():
    hand = HandState(HandConfig.create("razz", num_seats=2), seed=1)
    return observe(hand, hand.actor)


def test_an_action_is_a_legal_name_or_an_allowed_id():
    observation = _bring_in_decision()
    assert decision_message("act", observation)["legal"] == ["bring_in", "complete"]
    assert action_from_reply({"action": "complete"}, observation) == 2
    assert action_from_reply({"action": 3, "note": "ignored"}, observation) == 3


@pytest.mark.parametrize("reply,message", [
    ({"action": "fold"}, "answered action 'fold', which is not legal now; legal now: bring_in, complete (or their "
                         "ids 2, 3)"),
    ({"action": 0}, "answered action 0, which is not legal now"),
    ({"action": True}, "answered action True, which is not legal now"),
    ({"action": "Complete"}, "answered action 'Complete', which is not legal now"),
    ({"move": "call"}, "with no \"action\"; legal now: bring_in, complete"),
])
def test_an_answer_that_is_not_a_legal_action_is_refused_naming_the_legal_ones(reply, message):
    with pytest.raises(ProtocolError, match=re.escape(message)):
        action_from_reply(reply, _bring_in_decision())


@pytest.mark.parametrize("text,message", [
    (b"call", "answered 'call', which is not JSON; answer one JSON object per line"),
    (b'["call"]', "answered ['call'], not a JSON object"),
    (b"\xff\xfe", "which is not JSON"),
    (b"[" * 100000, "which is not JSON"),
])
def test_a_line_that_is_not_a_json_object_is_refused(text, message):
    with pytest.raises(ProtocolError, match=re.escape(message)):
        parse_line(text)


def test_a_stated_policy_is_a_distribution_over_legal_names():
    observation = _bring_in_decision()
    assert policy_from_reply({"policy": {"bring_in": 0.25, "complete": 0.75}}, observation).tolist() == [
        0, 0, 0.75, 0.25, 0]
    for reply, message in [({"policy": {"fold": 1}}, "policy: 'fold' is not legal now"),
                           ({"policy": {"bring_in": 0.5}}, "sum to 0.5, not 1"),
                           ({"policy": {"bring_in": "1"}}, "expected a probability"),
                           ({"policy": {"bring_in": float("nan")}}, "expected a probability"),
                           ({"policy": []}, "expected {\"policy\": {NAME: probability}}")]:
        with pytest.raises(ProtocolError, match=re.escape(message)):
            policy_from_reply(reply, observation)


def test_the_hello_answer_says_ready_and_may_name_the_bot_and_its_policy():
    assert ready_from_reply({"ready": True}) == (None, False)
    assert ready_from_reply({"ready": True, "name": "station", "policy": True}) == ("station", True)
    for reply, message in [({"type": "hello", "protocol": 1}, "expected {\"ready\": true}"),
                           ({"ready": True, "name": ""}, "name: expected a printable"),
                           ({"ready": True, "policy": 1}, "policy: expected true or false")]:
        with pytest.raises(ProtocolError, match=re.escape(message)):
            ready_from_reply(reply)


def test_a_line_is_compact_ascii_json_ending_in_a_newline():
    assert line({"type": "hand", "seat": 0, "name": "é"}) == b'{"type":"hand","seat":0,"name":"\\u00e9"}\n'
    assert np.isclose(sum(policy_from_reply({"policy": {"bring_in": 1}}, _bring_in_decision())), 1)

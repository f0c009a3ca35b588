"""The bot protocol's messages (``docs/protocol.md``): what a program in any language is sent, and what it may answer.

One JSON object per line, in the spirit of the ACPC dealer protocol. The dealer sends ``hello`` (the bot answers
``{"ready": true}``), a ``hand`` for each hand the bot is seated at, an ``act`` for each of its decisions (answered
``{"action": "call"}``), a ``policy`` when an evaluator asks for its policy (answered ``{"policy": {"call": 1.0}}``),
a ``hand_end`` when one of its hands ends (no answer), and ``bye``. A decision's message is built from the seat's
:class:`~razz_env.engine.view.SeatView` and action mask alone, so it holds nothing that seat may not see; a
``hand_end`` shows only the down cards of the seats at a showdown. Cards and actions are spelt as in hand records.

>>> from razz_env.engine.config import HandConfig
>>> from razz_env.engine.state import HandState
>>> from razz_env.encoding.interface import observe
>>> hand = HandState(HandConfig.create("razz"), seed=1)
>>> message = decision_message("act", observe(hand, hand.actor))
>>> message["legal"], message["to_call"]
(['bring_in', 'complete'], 0)
>>> action_from_reply(parse_line(b'{"action": "bring_in"}'), observe(hand, hand.actor))
3
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from razz_env.encoding.actions import ENGINE_TO_ID, NUM_ACTIONS
from razz_env.encoding.interface import HandOutcome, Observation
from razz_env.engine.actions import Action
from razz_env.engine.cards import card_str
from razz_env.engine.errors import shown

PROTOCOL_VERSION = 1
BYE = {"type": "bye"}
MAX_LINE = 1 << 20
"""The longest line a bot may send (bytes): a longer one is garbage, not an answer."""


class ProtocolError(ValueError):
    """A bot's line that is not a valid answer: not JSON, not an object, or an action that is not legal now."""


def line(message: Mapping[str, Any]) -> bytes:
    """``message`` as one line of the protocol (compact JSON, ASCII, newline-terminated)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def hello_message(seed: int | None) -> dict[str, Any]:
    """The first message: the protocol version and the seed a bot with randomness should use (so the same seed
    gives the same results)."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "seed": seed}


def hand_message(seat: int, num_seats: int, variant: str) -> dict[str, Any]:
    """A hand the bot is seated at: its seat, the number of seats and the variant (an agent's ``reset``)."""
    return {"type": "hand", "seat": seat, "seats": num_seats, "variant": variant}


def hand_end_message(outcome: HandOutcome) -> dict[str, Any]:
    """How one of the bot's hands ended (an agent's ``hand_over``): which hand (the number of its ``hand`` message,
    from 0), its seat, every seat's chips won or lost, whether a showdown was held and the down cards each seat
    showed there (null for a seat that did not show).

    >>> from razz_env.encoding.interface import HandOutcome
    >>> hand_end_message(HandOutcome(0, 1, (-2, 2), True, ((0, 1, 2), (3, 4, 5))))["shown"]
    [['Ac', 'Ad', 'Ah'], ['As', '2c', '2d']]
    """
    return {"type": "hand_end", "hand": outcome.hand, "seat": outcome.seat, "payoffs": list(outcome.payoffs),
            "showdown": outcome.showdown,
            "shown": [None if cards is None else [card_str(c) for c in cards] for cards in outcome.shown]}


def legal_names(observation: Observation) -> list[str]:
    """The names of the actions the seat may take now (hand-record spellings), as its mask allows them."""
    mask = observation.action_mask
    return [str(action) for action in observation.view.legal_actions if mask[ENGINE_TO_ID[action]]]


def decision_message(kind: str, observation: Observation) -> dict[str, Any]:
    """An ``act`` (or ``policy``) request: the seat's view of the hand and the names of its legal actions."""
    view = observation.view
    return {
        "type": kind, "seat": view.seat, "seats": view.num_seats, "variant": view.variant, "street": view.street,
        "down": [card_str(c) for c in view.own_down],
        "up": [[card_str(c) for c in cards] for cards in view.up_cards],
        "community": None if view.community is None else card_str(view.community),
        "dead": [card_str(c) for c in view.dead_cards],
        "stacks": list(view.stacks), "bets": list(view.bets), "contributed": list(view.contributed),
        "folded": list(view.folded), "all_in": list(view.all_in), "pot": view.pot, "to_call": view.to_call,
        "level": view.level, "bet_count": view.bet_count, "bet_size": view.bet_size, "ante": view.ante,
        "bring_in": view.bring_in, "big_bet": view.big_bet, "bring_in_seat": view.bring_in_seat,
        "history": [{"street": e.street, "seat": e.seat, "action": str(e.action), "amount": e.amount}
                    for e in view.history],
        "legal": legal_names(observation),
    }


def parse_line(text: bytes) -> dict[str, Any]:
    """One line a bot sent, as a JSON object; :class:`ProtocolError` saying what it is instead."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError(f"answered {shown(text.decode('utf-8', 'replace'))}, which is not JSON; "
                            f"answer one JSON object per line, such as {{\"action\": \"call\"}}") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"answered {shown(value)}, not a JSON object such as {{\"action\": \"call\"}}")
    return value


def ready_from_reply(reply: Mapping[str, Any]) -> tuple[str | None, bool]:
    """The bot's answer to ``hello``: its display name (or None) and whether it answers ``policy`` requests."""
    if reply.get("ready") is not True:
        raise ProtocolError(f"answered hello with {shown(reply)}; expected {{\"ready\": true}} (optionally with "
                            f"\"name\" and \"policy\": true)")
    name, policy = reply.get("name"), reply.get("policy", False)
    if name is not None and (not isinstance(name, str) or not name.strip() or not name.isprintable()):
        raise ProtocolError(f"hello: name: expected a printable, non-blank string, got {shown(name)}")
    if not isinstance(policy, bool):
        raise ProtocolError(f"hello: policy: expected true or false, got {shown(policy)}")
    return name, policy


def action_from_reply(reply: Mapping[str, Any], observation: Observation) -> int:
    """The action id of the bot's answer to ``act``: ``{"action": NAME}`` with a legal name, or one of the five ids
    (:mod:`razz_env.encoding.actions`) the mask allows; :class:`ProtocolError` naming the legal actions else."""
    if "action" not in reply:
        raise ProtocolError(f"answered {shown(reply)} to act, with no \"action\"; legal now: "
                            f"{', '.join(legal_names(observation))}")
    chosen = reply["action"]
    if isinstance(chosen, str) and chosen in legal_names(observation):
        return ENGINE_TO_ID[Action.parse(chosen)]
    if type(chosen) is int and 0 <= chosen < NUM_ACTIONS and observation.action_mask[chosen]:
        return chosen
    raise ProtocolError(f"answered action {shown(chosen)}, which is not legal now; legal now: "
                        f"{', '.join(legal_names(observation))} (or their ids "
                        f"{', '.join(str(i) for i in np.flatnonzero(observation.action_mask).tolist())})")


def policy_from_reply(reply: Mapping[str, Any], observation: Observation) -> np.ndarray:
    """The five-id distribution of the bot's answer to ``policy``: ``{"policy": {NAME: probability, ...}}`` over
    legal names (those left out have none), summing to 1; :class:`ProtocolError` else."""
    stated = reply.get("policy")
    legal = legal_names(observation)
    if not isinstance(stated, Mapping) or not stated:
        raise ProtocolError(f"answered {shown(reply)} to policy; expected {{\"policy\": {{NAME: probability}}}} over "
                            f"the legal actions: {', '.join(legal)}")
    probabilities = np.zeros(NUM_ACTIONS)
    for name, value in stated.items():
        if name not in legal:
            raise ProtocolError(f"policy: {shown(name)} is not legal now; legal now: {', '.join(legal)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ProtocolError(f"policy: {name}: expected a probability (a number from 0 to 1), got {shown(value)}")
        probabilities[ENGINE_TO_ID[Action.parse(name)]] = value
    if abs(probabilities.sum() - 1.0) > 1e-6:
        raise ProtocolError(f"policy: the probabilities {shown(dict(stated))} sum to {probabilities.sum():g}, not 1")
    return probabilities

"""A text interface for language models (``docs/llm.md``): one decision as a prompt, and the reading of a reply.

:func:`render` writes what the seat may see as a hand history: the game and its rules, the antes and stacks, each
street's cards and decisions, the pot, what calling costs and the legal actions with their chips. It reads the
seat's :class:`~razz_env.engine.view.SeatView` alone, so it holds nothing that seat may not see. :func:`read_reply`
reads a free-text answer by one documented rule (:func:`parse_reply` keeps its action id), and :func:`correction` is
the line a retry adds. Actions are named as in the bot protocol (:mod:`razz_env.encoding.protocol`).

>>> from razz_env.engine.config import HandConfig
>>> from razz_env.engine.state import HandState
>>> from razz_env.encoding.interface import observe
>>> observation = observe(HandState(HandConfig.create("razz"), seed=1), 0)
>>> render(observation).splitlines()[-1]
'Answer with one word from: bring_in, complete.'
>>> parse_reply("I'll just bring it in. Action: Bring-In", observation), parse_reply("raise", observation)
(3, 2)
>>> read_reply("fold", observation).problem
"'fold' is not legal now"
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import NamedTuple

from razz_env.encoding.actions import BET_BIG, BET_RAISE, BRING_IN, CHECK_CALL, FOLD
from razz_env.encoding.interface import Observation
from razz_env.encoding.protocol import legal_names
from razz_env.engine.actions import Action
from razz_env.engine.cards import RANKS, cards_str
from razz_env.engine.config import STREET_NAMES
from razz_env.engine.errors import shown
from razz_env.engine.variants import Variant, get_variant
from razz_env.engine.view import SeatView

_LOW = "aces are low, straights and flushes do not count and pairs count against a hand"
_SHOWDOWNS = {
    ("razz",): "the lowest {size}-card hand wins: {low} (the best is {best})",
    ("action_razz",): "a hand holding a jack, queen or king anywhere beats every hand without one; among those "
                      "alike the lowest {size}-card hand wins: {low} (the best is {best})",
    ("high",): "the highest five-card poker hand wins",
    ("high", "eight"): "the pot is split between the highest five-card hand and the lowest five-card hand of five "
                       "different ranks, eight or lower ({low}); with no such low the high hand takes it all",
}
_SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
_COUNTS = {1: "a card", 2: "two cards", 3: "three cards"}
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven")
_DONE = {Action.FOLD: "folds", Action.CHECK: "checks", Action.CALL: "calls {amount}",
         Action.BRING_IN: "brings in for {amount}", Action.COMPLETE: "completes to {to}", Action.BET: "bets {amount}",
         Action.BET_BIG: "bets {amount} (the big bet)", Action.RAISE: "raises to {to}"}
_MEANINGS = {Action.FOLD: "give up the hand", Action.CHECK: "put in nothing",
             Action.CALL: "put in {amount} to match the bet of {level}",
             Action.BRING_IN: "post the bring-in, the table's forced bet (less than a completion)",
             Action.COMPLETE: "complete the bet to {to} (put in {amount})", Action.BET: "bet {amount}",
             Action.BET_BIG: "bet the big bet (allowed on 4th street when a board shows a pair)",
             Action.RAISE: "raise to {to} (put in {amount})"}

# The reply's words: each names one of the five action ids; two-word names are read first.
_WORDS = {"fold": FOLD, "check": CHECK_CALL, "call": CHECK_CALL, "complete": BET_RAISE, "bet": BET_RAISE,
          "raise": BET_RAISE, "post": BRING_IN}
_PAIRS = {("bring", "in"): BRING_IN, ("bet", "big"): BET_BIG}
_WORD = re.compile(r"[^\W\d_]+")
_LABEL = re.compile(r"\b(?:final\s+answer|answer|action|decision)\b[\s*_`]*[:=]", re.IGNORECASE)
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


def render(observation: Observation, *, instruction: bool = True) -> str:
    """The prompt of the seat's decision: the game, the hand so far street by street, the table now and the legal
    actions with their chips, ending (if ``instruction``) with the line asking for one word."""
    view = observation.view
    legal = legal_names(observation)
    if not legal:
        raise ValueError(f"render: seat {view.seat} has no decision now (not its turn, or the hand is over); "
                         f"render a decision's observation")
    variant = get_variant(view.variant)
    lines = [*_game(view, variant), ""]
    for street in variant.street_numbers:
        if street <= view.street:
            lines += [f"*** {STREET_NAMES[street]} street ***", *_dealt(view, variant, street)]
            if street == variant.street_numbers[0] and view.bring_in_seat is not None:
                door = "highest" if variant.low_board else "lowest"
                lines.append(f"{_seat(view, view.bring_in_seat)} has the {door} door card: it brings in or completes")
            lines += _decisions(view, street)
    lines += ["", *_table_now(view), "Legal actions:"]
    lines += [f"- {name}: {_meaning(view, Action.parse(name))}" for name in legal]
    if instruction:
        lines.append(f"Answer with one word from: {', '.join(legal)}.")
    return "\n".join(lines)


def _seat(view: SeatView, seat: int) -> str:
    return f"seat {seat} (you)" if seat == view.seat else f"seat {seat}"


def _game(view: SeatView, variant: Variant) -> list[str]:
    """The game, its rules, the deal and the seats at the start of the hand."""
    size = variant.hand_size
    best = "-".join(reversed(RANKS[:size]))
    rules = _SHOWDOWNS[variant.showdown].format(size=_NUMBERS[size], low=_LOW, best=best)
    order = ("the highest door card brings in (aces low); on later streets the lowest board acts first"
             if variant.low_board else "the lowest door card brings in (aces high); on later streets "
             "the highest board acts first")
    deal = "; ".join(f"{STREET_NAMES[number]} street {_faces(street.down, street.up)}"
                     for number, street in zip(variant.street_numbers, variant.streets))
    lines = [f"Game: {variant.title}, fixed limit, {view.num_seats} seats. You are seat {view.seat}.",
             f"Rules: {rules}. Betting: {order}.", f"Dealing: {deal}."]
    if len(variant.deck) != 52:
        suits = " and ".join(_SUIT_NAMES[s] for s in variant.suits)
        lines.append(f"Deck: {len(variant.deck)} cards, ranks {' '.join(variant.ranks)} in {suits}.")
    start = [view.stacks[s] + view.contributed[s] for s in range(view.num_seats)]
    lines.append("Stacks at the start: " + ", ".join(f"{_seat(view, s)} {chips}" for s, chips in enumerate(start))
                 + ".")
    antes = _antes(view)
    if any(antes):
        lines.append(f"Antes: {antes[0]} each." if len(set(antes)) == 1
                     else "Antes: " + ", ".join(f"{_seat(view, s)} {a}" for s, a in enumerate(antes)) + ".")
    return lines


def _faces(down: int, up: int) -> str:
    parts = ([f"{down} down"] if down else []) + ([f"{up} up"] if up else [])
    return " and ".join(parts)


def _antes(view: SeatView) -> list[int]:
    """Each seat's ante: its chips in the pot less those its decisions put in."""
    paid = list(view.contributed)
    for entry in view.history:
        paid[entry.seat] -= entry.amount
    return paid


def _dealt(view: SeatView, variant: Variant, street: int) -> list[str]:
    """What each seat was dealt on ``street``, as that seat's viewer sees it (another's down cards only counted)."""
    index = variant.street_numbers.index(street)
    positions = range(street - variant.streets[index].down - variant.streets[index].up, street)
    ups, faces = variant.up_positions, variant.faces
    last_street = index == len(variant.streets) - 1
    folded_before = {e.seat for e in view.history if e.action is Action.FOLD and e.street < street}
    own = _own_cards(view, variant)
    lines = []
    for seat in range(view.num_seats):
        if seat in folded_before:
            continue
        if seat == view.seat:
            down = [own[p] for p in positions if p < len(own) and faces[p] == "d"]
            up = [own[p] for p in positions if p < len(own) and faces[p] == "u"]
            down_text = f"{cards_str(down)} face down" if down else ""
        else:
            up = [view.up_cards[seat][p - ups.start] for p in positions
                  if p in ups and p - ups.start < len(view.up_cards[seat])]
            hidden = sum(faces[p] == "d" for p in positions) if not (last_street and view.community is not None) else 0
            down_text = f"{_COUNTS.get(hidden, f'{hidden} cards')} face down" if hidden else ""
        parts = [text for text in (down_text, f"{cards_str(up)} face up" if up else "") if text]
        if parts:
            lines.append(f"{_seat(view, seat)} is dealt {', '.join(parts)}")
    if last_street and view.community is not None:
        lines.append(f"a community card is dealt face up, shared by every live seat: {cards_str([view.community])}")
    return lines


def _own_cards(view: SeatView, variant: Variant) -> list[int]:
    """The seat's own cards in dealing order (the down and up cards interleaved as its game deals them)."""
    downs, ups = iter(view.own_down), iter(view.own_up)
    held = []
    for face in variant.faces:
        card = next(downs if face == "d" else ups, None)
        if card is None:
            break
        held.append(card)
    return held


def _decisions(view: SeatView, street: int) -> list[str]:
    """The street's decisions in hand-history style, with their chips and who went all in."""
    behind = [view.stacks[s] + view.contributed[s] - ante for s, ante in enumerate(_antes(view))]
    for entry in view.history:
        if entry.street < street:
            behind[entry.seat] -= entry.amount
    bets = [0] * view.num_seats
    lines = []
    for entry in view.history:
        if entry.street != street:
            continue
        bets[entry.seat] += entry.amount
        behind[entry.seat] -= entry.amount
        done = _DONE[entry.action].format(amount=entry.amount, to=bets[entry.seat])
        all_in = " and is all in" if entry.amount and not behind[entry.seat] else ""
        lines.append(f"{_seat(view, entry.seat)} {done}{all_in}")
    return lines


def _table_now(view: SeatView) -> list[str]:
    """The table at the decision: the pot, each seat's chips and board, the seat's own cards, what calling costs."""
    lines = [f"*** {STREET_NAMES[view.street]} street: your turn ***", f"Pot: {view.pot}."]
    for seat in range(view.num_seats):
        state = "; folded" if view.folded[seat] else "; all in" if view.all_in[seat] else ""
        up = cards_str(view.up_cards[seat]) or "none"
        lines.append(f"{_seat(view, seat)}: {view.stacks[seat]} behind, {view.contributed[seat]} in the pot, "
                     f"{view.bets[seat]} bet on this street; up {up}{state}")
    lines.append(f"Your cards: down {cards_str(view.own_down)}, up {cards_str(view.own_up)}"
                 + (f", community {cards_str([view.community])}" if view.community is not None else "") + ".")
    if view.dead_cards:
        lines.append(f"Dead cards (folded seats' up cards): {cards_str(view.dead_cards)}.")
    cost = f"calling costs {view.to_call}" if view.to_call else "nothing to call"
    lines.append(f"The bet to match is {view.level}: {cost}. Bets and raises on this street are "
                 f"{view.bet_size} chips.")
    return lines


def _meaning(view: SeatView, action: Action) -> str:
    """What ``action`` does, with its chips where the view knows them (not the bring-in or the big bet)."""
    seat = view.seat
    if action is Action.CALL:
        amount = view.to_call
    else:
        target = view.bet_size if view.bet_count == 0 else view.level + view.bet_size
        amount = min(target, view.bets[seat] + view.stacks[seat]) - view.bets[seat]
    meaning = _MEANINGS[action].format(amount=amount, to=view.bets[seat] + amount, level=view.level)
    chips_named = action in (Action.CALL, Action.COMPLETE, Action.BET, Action.RAISE)
    return meaning + (", all in" if chips_named and amount == view.stacks[seat] else "")


class Reading(NamedTuple):
    """A reply as :func:`read_reply` read it: the action id, or None and the ``problem`` (why not)."""

    action: int | None
    problem: str | None


def read_reply(text: str, observation: Observation) -> Reading:
    """The action a reply names, by ``docs/llm.md``'s rule: the deciding part is a JSON object's ``"action"``, else
    the line after the last ``answer:``/``action:``/``decision:`` label, else the last line naming an action; it must
    name exactly one action id (``check`` and ``call`` are one, as are ``bet``, ``raise`` and ``complete``;
    ``bring in``, ``bring_in`` or ``post``; ``bet big`` or ``bet_big``), and that id must be legal now.

    >>> from razz_env.engine.config import HandConfig
    >>> from razz_env.engine.state import HandState
    >>> from razz_env.encoding.interface import observe
    >>> observation = observe(HandState(HandConfig.create("razz"), seed=1), 0)
    >>> read_reply("Post or complete? Complete!", observation)
    Reading(action=None, problem="it names more than one action ('post', 'complete')")
    >>> read_reply('{"action": "complete"}', observation)
    Reading(action=2, problem=None)
    """
    if not isinstance(text, str):
        raise TypeError(f"a reply is text (str), got {type(text).__name__}")
    part = _deciding_part(text)
    if part is None:
        return Reading(None, "its JSON \"action\" is not a word")
    named: dict[int, str] = {}
    for action, word in _named(part):
        named.setdefault(action, word)
    if not named:
        return Reading(None, "it names no action")
    if len(named) > 1:
        return Reading(None, f"it names more than one action ({', '.join(repr(w) for w in named.values())})")
    (action, word), = named.items()
    if not observation.action_mask[action]:
        return Reading(None, f"{word!r} is not legal now")
    return Reading(action, None)


def parse_reply(text: str, observation: Observation) -> int | None:
    """The action id a reply names (:func:`read_reply`'s rule), or None when it names none, several, or one that
    is not legal now."""
    return read_reply(text, observation).action


def correction(reply: str, problem: str, observation: Observation) -> str:
    """The line a retry appends to the prompt: the reply, what was wrong with it, and the legal words.

    >>> from razz_env.engine.config import HandConfig
    >>> from razz_env.engine.state import HandState
    >>> from razz_env.encoding.interface import observe
    >>> correction("hmm", "it names no action", observe(HandState(HandConfig.create("razz"), seed=1), 0))
    "Your reply 'hmm' was not understood: it names no action. Answer with exactly one word from: bring_in, complete."
    """
    return (f"Your reply {shown(reply.strip())} was not understood: {problem}. Answer with exactly one word from: "
            f"{', '.join(legal_names(observation))}.")


def _deciding_part(text: str) -> str | None:
    """The part of ``text`` that decides (None: a JSON object whose ``"action"`` is not a string)."""
    for found in reversed(_JSON_OBJECT.findall(text)):
        try:
            value = json.loads(found)
        except ValueError:
            continue
        if isinstance(value, dict) and "action" in value:
            return value["action"] if isinstance(value["action"], str) else None
    labels = list(_LABEL.finditer(text))
    if labels:
        after = text[labels[-1].end():].splitlines()
        return next((line for line in after if _WORD.search(line)), "")
    return next((line for line in reversed(text.splitlines()) if next(_named(line), None)), "")


def _named(text: str) -> Iterator[tuple[int, str]]:
    """The action ids ``text`` names, in order, each with its words (whole words, any case)."""
    words = _WORD.findall(text.lower())
    i = 0
    while i < len(words):
        pair = tuple(words[i:i + 2])
        if pair in _PAIRS:
            yield _PAIRS[pair], " ".join(pair)
            i += 2
            continue
        if words[i] in _WORDS:
            yield _WORDS[words[i]], words[i]
        i += 1


__all__ = ["Reading", "correction", "parse_reply", "read_reply", "render"]

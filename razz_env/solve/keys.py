"""Information-set keys: one readable string per decision of one seat, from the tree or from a hand.

A key reads ``"s1 [4]25 vs A3 low 2:s1 : bc/k"``: seat 1 holds the 4 down and shows 2 then 5,
the opponent shows A then 3; the suit order of the deuces was dealt and seat 1 holds the low one
(rank game only, see :mod:`razz_env.solve.cards`); the betting so far is bring-in, call on the
first street, then a check. Letters: ``b`` bring-in, ``r`` complete/bet/raise, ``c`` call,
``k`` check, ``f`` fold; ``/`` ends a street. In the suited game cards replace ranks
(``"s1 [4c]2d5c vs Ad3c : bc/k"``).

:func:`infoset_key` computes the same key from an engine hand or a seat's view, which is how a
tabular policy plays as an agent and how an agent's policy is read into the tree; :func:`view_keys`
computes the keys of many views at once (the rows of a
:class:`~razz_env.engine.seat_views.SeatViews`), which is how it plays in batch.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from razz_env.engine.actions import Action
from razz_env.engine.cards import DECK_SIZE
from razz_env.solve.cards import CardModel, card_model, coin_outcome, coin_ranks

if TYPE_CHECKING:
    from razz_env.engine.seat_views import SeatViews
    from razz_env.engine.state import HandState
    from razz_env.engine.view import SeatView

ENGINE_LETTERS = {Action.FOLD: "f", Action.CHECK: "k", Action.CALL: "c", Action.BRING_IN: "b",
                  Action.COMPLETE: "r", Action.BET: "r", Action.RAISE: "r", Action.BET_BIG: "B"}
BOARDS_CACHE = 1 << 16
"""How many boards seen from a seat :func:`view_keys` keeps the text of, for the batches after (most recur)."""


def key_head(model: CardModel, seat: int, down: Sequence[int]) -> str:
    """The private start of a key: the seat and its down cards."""
    return f"s{seat} [{model.label(down)}]"


def key_tail(model: CardModel, own_up: Sequence[int], opp_up: Sequence[int], coins: dict[int, int],
             actions: str) -> str:
    """The public rest of a key: the boards, the coins and the betting."""
    coin_text = ""
    if coins:
        coin_text = " low " + ",".join(f"{model.labels[t]}:s{h}" for t, h in sorted(coins.items()))
    return f"{model.label(own_up)} vs {model.label(opp_up)}{coin_text} : {actions}"


def split_streets(model: CardModel, up_cards: Sequence[int]) -> list[tuple[int, ...]]:
    """A seat's up cards (dealing order) as tokens, street by street (each street's sorted)."""
    out, start = [], 0
    for street in model.variant.streets:
        chunk = up_cards[start:start + street.up]
        if not chunk:
            break
        out.append(tuple(sorted(model.token(c) for c in chunk)))
        start += street.up
    return out


def coins_of(model: CardModel, boards: Sequence[Sequence[int]]) -> dict[int, int]:
    """The coins dealt so far, read off each seat's concrete up cards (dealing order)."""
    if model.suited:
        return {}
    streets = [split_streets(model, board) for board in boards]
    ups = [street.up for street in model.variant.streets]
    coins: dict[int, int] = {}
    before: list[list[int]] = [[], []]
    for k in range(max(len(s) for s in streets)):
        new = [s[k] if k < len(s) else () for s in streets]
        for token in coin_ranks(model, before, new, any(ups[k + 1:])):
            coins[token] = coin_outcome(model, token, boards)
        for seat in (0, 1):
            before[seat].extend(new[seat])
    return coins


def actions_text(history: Sequence[tuple[int, int, Action, int]], street_numbers: Sequence[int], street: int) -> str:
    """The betting of ``history`` (engine entries) as key letters, streets joined by ``/`` up to ``street``."""
    by_street: dict[int, list[str]] = {}
    for entry in history:
        by_street.setdefault(entry[0], []).append(ENGINE_LETTERS[entry[2]])
    return "/".join("".join(by_street.get(number, ())) for number in street_numbers if number <= street)


def key_from_cards(model: CardModel, seat: int, down: Sequence[int], boards: Sequence[Sequence[int]],
                   actions: str) -> str:
    """The key of ``seat`` holding ``down`` (card ids) with ``boards`` (each seat's up cards, dealing order)."""
    return head_from_cards(model, seat, down) + tail_from_cards(model, seat, boards, actions)


def head_from_cards(model: CardModel, seat: int, down: Sequence[int]) -> str:
    """:func:`key_head` of ``seat`` holding ``down`` (card ids)."""
    return key_head(model, seat, sorted(model.token(c) for c in down))


def tail_from_cards(model: CardModel, seat: int, boards: Sequence[Sequence[int]], actions: str) -> str:
    """:func:`key_tail` seen from ``seat`` of ``boards`` (card ids, dealing order) and ``actions`` (key letters)."""
    own = [t for street in split_streets(model, boards[seat]) for t in street]
    opp = [t for street in split_streets(model, boards[1 - seat]) for t in street]
    return key_tail(model, own, opp, coins_of(model, boards), actions)


def view_key(model: CardModel, view: SeatView) -> str:
    """The key of ``view`` (a seat's view of a heads-up hand in ``model``'s variant)."""
    actions = actions_text(view.history, model.variant.street_numbers, view.street)
    return key_from_cards(model, view.seat, view.own_down, view.up_cards, actions)


def infoset_key(hand: HandState, seat: int, *, suited: bool = False) -> str:
    """The solver's information-set key of ``seat`` in ``hand`` (a heads-up razz-family hand).

    ``suited``: the key of the suited game (cards) instead of the rank game (ranks and coins).
    """
    return view_key(card_model(hand.config.variant, suited), hand.view(seat))


def view_keys(model: CardModel, views: SeatViews) -> list[str]:
    """:func:`view_key` of every row of ``views`` (heads-up views of ``model``'s variant), in row order.

    A key is the seat's down cards, the boards seen from it (with their coins) and the betting; each part is
    built once per distinct value among the rows, and the boards' text (the costly part) is kept between calls.
    """
    if views.variant != model.variant.name or views.num_seats != 2:
        raise ValueError(f"keys of {model.variant.name} heads-up: got views of {views.variant} with "
                         f"{views.num_seats} seats")
    if not len(views):
        return []
    seats = views.seat[:, None]
    downs = np.sort(_token_array(model)[views.own_down], axis=1)

    def head_text(row: bytes) -> str:
        seat, *down = _ints(row)
        return key_head(model, seat, [t for t in down if t >= 0])

    heads, head_of = _distinct(np.concatenate([seats, downs], axis=1), head_text)
    up = views.up_cards
    boards, board_of = _distinct(np.concatenate([seats, up.reshape(len(up), -1)], axis=1),
                                 functools.partial(_boards_text, model))
    played = np.arange(views.history.shape[1])[None, :] < views.history_length[:, None]
    betting = np.where(played[:, :, None], views.history[:, :, [0, 2]], -1).reshape(len(views), -1)
    numbers = model.variant.street_numbers

    def betting_text(row: bytes) -> str:
        street, *entries = _ints(row)
        history = [(s, -1, Action(a), 0) for s, a in zip(entries[::2], entries[1::2]) if s >= 0]
        return actions_text(history, numbers, street)

    actions, actions_of = _distinct(np.concatenate([views.street[:, None], betting], axis=1), betting_text)
    return [heads[h] + boards[b] + actions[a] for h, b, a in zip(head_of, board_of, actions_of)]


def _distinct(rows: np.ndarray, text: Callable[[bytes], str]) -> tuple[list[str], list[int]]:
    """``text`` of each distinct row of ``rows`` (integers from -1 to 127, packed as bytes by :func:`_ints`) and,
    per row, the position of its text."""
    packed = np.ascontiguousarray(rows, dtype=np.int8)
    data, width = packed.tobytes(), packed.shape[1]
    first: dict[bytes, int] = {}
    position = [first.setdefault(data[i:i + width], len(first)) for i in range(0, len(data), width)]
    return [text(row) for row in first], position


def _ints(row: bytes) -> list[int]:
    """A row that :func:`_distinct` packed, as integers again."""
    return np.frombuffer(row, dtype=np.int8).tolist()


@functools.cache
def _token_array(model: CardModel) -> np.ndarray:
    """The token of each card id, indexed by card (its last entry, read for a missing card ``-1``, is ``-1``)."""
    tokens = np.full(DECK_SIZE + 1, -1, dtype=np.int64)
    for card in model.variant.deck:
        tokens[card] = model.token(card)
    return tokens


@functools.lru_cache(maxsize=BOARDS_CACHE)
def _boards_text(model: CardModel, row: bytes) -> str:
    """:func:`tail_from_cards` before the betting (it ends ``" : "``) of a packed row: the seat, then every seat's
    up cards (``-1`` where not dealt)."""
    seat, *cards = _ints(row)
    width = len(cards) // 2
    return tail_from_cards(model, seat, [[c for c in cards[s * width:(s + 1) * width] if c >= 0] for s in (0, 1)], "")

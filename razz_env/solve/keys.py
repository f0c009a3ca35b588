"""Information-set keys: one readable string per decision of one seat, from the tree or from a hand.

A key reads ``"s1 [4]25 vs A3 low 2:s1 : bc/k"``: seat 1 holds the 4 down and shows 2 then 5,
the opponent shows A then 3; the suit order of the deuces was dealt and seat 1 holds the low one
(rank game only, see :mod:`razz_env.solve.cards`); the betting so far is bring-in, call on the
first street, then a check. Letters: ``b`` bring-in, ``r`` complete/bet/raise, ``c`` call,
``k`` check, ``f`` fold; ``/`` ends a street. In the suited game cards replace ranks
(``"s1 [4c]2d5c vs Ad3c : bc/k"``).

:func:`infoset_key` computes the same key from an engine hand or a seat's view, which is how a
tabular policy plays as an agent and how an agent's policy is read into the tree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from razz_env.engine.actions import Action
from razz_env.solve.cards import CardModel, card_model, coin_outcome, coin_ranks

if TYPE_CHECKING:
    from razz_env.engine.state import HandState
    from razz_env.engine.view import SeatView

ENGINE_LETTERS = {Action.FOLD: "f", Action.CHECK: "k", Action.CALL: "c", Action.BRING_IN: "b",
                  Action.COMPLETE: "r", Action.BET: "r", Action.RAISE: "r", Action.BET_BIG: "B"}


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

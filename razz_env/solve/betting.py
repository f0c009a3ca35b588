"""Heads-up fixed-limit betting for the solver's tree, read off the engine rather than written again.

Betting on a street between two seats that can never be all in (:func:`razz_env.solve.game.build_game`
refuses stacks that could be) depends only on the street and on who opens it: the bet size, the cap, the
bring-in and completion are the engine's, from the variant declaration and the :class:`HandConfig`.
:class:`Betting` therefore plays each street's betting once on a :class:`~razz_env.engine.state.HandState`
of the table and keeps what it saw as a small graph of :class:`Turn` objects (who acts, the legal ids, where
each id leads, the chips each seat has put in when a round closes). Actions are the ids of
:mod:`razz_env.encoding.actions` under the environments' mask, which leaves out folding when a check is free
(it is never better than checking). Who opens a street is the one rule the tree decides itself, from
public card tokens rather than dealt cards; :meth:`razz_env.solve.game._Builder.opener` asks the engine's
:mod:`~razz_env.engine.order` functions on concrete boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD, mask_for, to_engine
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState

LETTERS = {FOLD: "f", BET_RAISE: "r", BRING_IN: "b"}
"""Key letters of the action ids (fold, bet/raise/complete, bring-in); check/call is ``k`` (check) or ``c`` (call)."""

_SEEDS = 10_000
"""Deals tried to find one where a given seat opens a given street (each street's two openers come quickly)."""


class Stakes(NamedTuple):
    """The table's chips as the tree names them: ante, bring-in, each street's bet, the cap (bets plus raises)."""

    ante: int
    bring_in: int
    bets: tuple[int, ...]
    cap: int

    def most_put_in(self) -> int:
        """The most chips a seat can put in a hand: the ante and every street capped."""
        return self.ante + sum(self.cap * bet for bet in self.bets)


@dataclass(frozen=True, eq=False)
class Turn:
    """One decision of a street's betting as the engine played it.

    ``bets``: each seat's chips put in on this street so far. ``legal``: the legal ids, ascending (the
    environments' mask); for each, ``letters`` its key letter,
    ``after`` the next decision (None when the id closes the round) and ``closed`` each seat's chips put in
    on this street once the id closes the round (None while the round goes on).
    """

    street: int
    actor: int
    bets: tuple[int, int]
    legal: tuple[int, ...]
    letters: tuple[str, ...]
    after: tuple[Turn | None, ...]
    closed: tuple[tuple[int, int] | None, ...]

    def letter(self, action: int) -> str:
        """The key letter of ``action`` here (``k`` check, ``c`` call)."""
        return self.letters[self.legal.index(action)]

    def act(self, action: int) -> Turn | None:
        """The decision after ``action``; None when it closes the round (the caller handles a fold)."""
        return self.after[self.legal.index(action)]

    def put_in(self, action: int) -> tuple[int, int]:
        """Each seat's chips on this street once ``action`` closes the round."""
        closed = self.closed[self.legal.index(action)]
        if closed is None:
            raise ValueError(f"action id {action} does not close a round")
        return closed


class Betting:
    """Each street's betting at a heads-up table, played once on the engine per street and opener."""

    def __init__(self, config: HandConfig) -> None:
        self.config = config
        self.numbers = config.variant.street_numbers
        self._opened: dict[tuple[int, int], Turn] = {}

    def open(self, street: int, first: int) -> Turn:
        """The first decision of street index ``street`` (0: the bring-in street) when seat ``first`` opens it."""
        key = (street, first)
        if key not in self._opened:
            seed, prefix = self._reach(street, first)
            self._opened[key] = self._walk(street, seed, prefix)
        return self._opened[key]

    def _reach(self, street: int, first: int) -> tuple[int, list]:
        """A deal and the passive actions (bring-in, calls, checks) that reach ``street`` with ``first`` to act."""
        for seed in range(_SEEDS):
            hand = HandState(self.config, seed=seed)
            prefix = []
            while hand.actor is not None and hand.street != self.numbers[street]:
                legal = hand.legal_actions()
                action = to_engine(CHECK_CALL if mask_for(legal)[CHECK_CALL] else BRING_IN, legal)
                hand.act(action)
                prefix.append(action)
            if hand.actor == first:
                return seed, prefix
        raise RuntimeError(f"solve: no deal of {_SEEDS} has seat {first} open street index {street}")

    def _walk(self, street: int, seed: int, path: list) -> Turn:
        """The decision reached by ``path`` from the deal ``seed``, and every decision after it on the street."""
        hand = self._replay(seed, path)
        start = [c - b for c, b in zip(hand.contributed, hand.bets)]
        legal = hand.legal_actions()
        ids = tuple(int(i) for i in np.flatnonzero(mask_for(legal)))
        letters, after, closed = [], [], []
        for action_id in ids:
            engine_action = to_engine(action_id, legal)
            letters.append(("c" if hand.to_call else "k") if action_id == CHECK_CALL else LETTERS[action_id])
            child = self._replay(seed, path + [engine_action])
            if child.actor is not None and child.street == hand.street:
                after.append(self._walk(street, seed, path + [engine_action]))
                closed.append(None)
                continue
            after.append(None)
            put = [c - s for c, s in zip(child.contributed, start)] if action_id != FOLD else list(hand.bets)
            closed.append((put[0], put[1]))
        return Turn(street, hand.actor, (hand.bets[0], hand.bets[1]), ids, tuple(letters), tuple(after), tuple(closed))

    def _replay(self, seed: int, path: Sequence) -> HandState:
        hand = HandState(self.config, seed=seed)
        for action in path:
            hand.act(action)
        return hand

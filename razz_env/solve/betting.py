"""Heads-up fixed-limit betting as the engine plays it, for building the solver's tree.

A :class:`Round` is one street's betting between two seats that can never be all in
(:func:`razz_env.solve.game.build_game` refuses stacks that could be): the engine's
``HandState._compute_legal`` and ``HandState.act`` restricted to that case. Actions are the
ids of :mod:`razz_env.encoding.actions`; folding when a check is free is left out, as the
environments' mask leaves it out (it is never better than checking).
``tests/solve/test_solve_engine_walk.py`` walks the tree beside ``HandState`` to keep them equal.
"""

from __future__ import annotations

from typing import NamedTuple

from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD

LETTERS = {FOLD: "f", BET_RAISE: "r", BRING_IN: "b"}
"""Key letters of the action ids; check/call is ``k`` (check) or ``c`` (call)."""


class Stakes(NamedTuple):
    """What the tree needs of a table: ante, bring-in, each street's bet, the cap (bets plus raises)."""

    ante: int
    bring_in: int
    bets: tuple[int, ...]
    cap: int

    def most_put_in(self) -> int:
        """The most chips a seat can put in a hand: the ante and every street capped."""
        return self.ante + sum(self.cap * bet for bet in self.bets)


class Round(NamedTuple):
    """Betting on one street: who acts, the current bets, the count of bets and raises, who has acted."""

    street: int
    actor: int
    level: int
    bets: tuple[int, int]
    bet_count: int
    acted: tuple[bool, bool]
    bring_in_pending: bool

    @classmethod
    def open(cls, street: int, first: int) -> Round:
        """The round of street index ``street`` (0 = first street, which starts with the bring-in)."""
        return cls(street, first, 0, (0, 0), 0, (False, False), street == 0)

    def legal(self, stakes: Stakes) -> tuple[int, ...]:
        """Legal action ids, ascending (the environments' mask)."""
        if self.bring_in_pending:
            return (BET_RAISE, BRING_IN)
        to_call = self.level - self.bets[self.actor]
        can_raise = not self.acted[self.actor] and self.bet_count < stakes.cap
        if to_call:
            return (FOLD, CHECK_CALL, BET_RAISE) if can_raise else (FOLD, CHECK_CALL)
        return (CHECK_CALL, BET_RAISE) if can_raise else (CHECK_CALL,)

    def letter(self, action: int) -> str:
        """The key letter of ``action`` here (``k`` check, ``c`` call)."""
        if action == CHECK_CALL:
            return "c" if self.level > self.bets[self.actor] else "k"
        return LETTERS[action]

    def act(self, action: int, stakes: Stakes) -> Round | None:
        """The round after ``action``; ``None`` when it closes the round (the caller handles a fold)."""
        seat, other = self.actor, 1 - self.actor
        bets, level, bet_count = list(self.bets), self.level, self.bet_count
        acted = list(self.acted)
        if action == CHECK_CALL:
            bets[seat] = level
        elif action == BRING_IN:
            bets[seat] = stakes.bring_in
            level = max(level, stakes.bring_in)
        elif action == BET_RAISE:
            increment = stakes.bets[self.street]
            level = increment if bet_count == 0 else level + increment
            bets[seat] = level
            bet_count += 1
            acted = [False, False]
        elif action != FOLD:
            raise ValueError(f"action id {action} is not played in the razz family")
        acted[seat] = True
        if action == FOLD or (acted[other] and bets[other] >= level):
            return None
        return Round(self.street, other, level, (bets[0], bets[1]), bet_count, (acted[0], acted[1]), False)

    def put_in(self, action: int, stakes: Stakes) -> tuple[int, int]:
        """Each seat's bets once ``action`` is taken (for the round it closes)."""
        if action == FOLD:
            return self.bets
        if action == CHECK_CALL:
            bets = list(self.bets)
            bets[self.actor] = self.level
            return bets[0], bets[1]
        raise ValueError(f"action id {action} does not close a round")

"""The RL action table: five discrete ids over the engine's eight decisions.

At any decision at most one of check/call and at most one of
complete/bet/raise is legal, so each id names exactly one engine action:

===  ====================  ==========================================
id   name                  engine action
===  ====================  ==========================================
0    fold                  ``fold``
1    check_call            ``check`` or ``call``
2    bet_raise             ``complete``, ``bet`` or ``raise``
3    bring_in              ``bring_in`` (3rd street, the forced seat)
4    bet_big               ``bet_big`` (stud open pair on 4th street)
===  ====================  ==========================================

>>> from razz_env.engine.actions import Action
>>> action_mask((Action.FOLD, Action.CALL, Action.RAISE), allow_open_fold=False).tolist()
[1, 1, 1, 0, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from razz_env.engine.actions import Action
from razz_env.engine.checks import as_flag

NUM_ACTIONS = 5
FOLD, CHECK_CALL, BET_RAISE, BRING_IN, BET_BIG = range(NUM_ACTIONS)
ACTION_NAMES = ("fold", "check_call", "bet_raise", "bring_in", "bet_big")

# engine Action value -> env id
ENGINE_TO_ID = (FOLD, CHECK_CALL, CHECK_CALL, BRING_IN, BET_RAISE, BET_RAISE, BET_BIG, BET_RAISE)


def action_mask(legal: Sequence[Action], allow_open_fold: bool = False, out: np.ndarray | None = None) -> np.ndarray:
    """int8 mask over the five ids. Folding with nothing to call is masked unless ``allow_open_fold``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8) if out is None else out
    if out is not None:
        mask[:] = 0
    for action in legal:
        mask[ENGINE_TO_ID[action]] = 1
    if not allow_open_fold and Action.CHECK in legal:
        mask[FOLD] = 0
    return mask


class LegalIds(NamedTuple):
    """One legal set, translated: the int8 mask and, per action id, the engine action (or ``None``)."""

    mask: np.ndarray
    engine: tuple[Action | None, ...]


class ActionTable:
    """Five-id masks and id -> engine action for each legal set, cached (legal sets are few).

    An id is accepted only where the mask allows it, so an open fold is refused unless
    ``allow_open_fold``: the environments, the tournament and ``razz play`` all translate here.
    """

    __slots__ = ("allow_open_fold", "_cache")

    def __init__(self, allow_open_fold: bool = False) -> None:
        as_flag("allow_open_fold", allow_open_fold)
        self.allow_open_fold = allow_open_fold
        self._cache: dict[tuple[Action, ...], LegalIds] = {}

    def lookup(self, legal: tuple[Action, ...]) -> LegalIds:
        """The translation of ``legal`` (built on first sight)."""
        hit = self._cache.get(legal)
        if hit is None:
            mask = action_mask(legal, self.allow_open_fold)
            mask.flags.writeable = False
            engine: list[Action | None] = [None] * NUM_ACTIONS
            for action in legal:
                if mask[ENGINE_TO_ID[action]]:
                    engine[ENGINE_TO_ID[action]] = action
            hit = self._cache[legal] = LegalIds(mask, tuple(engine))
        return hit

    def mask(self, legal: tuple[Action, ...]) -> np.ndarray:
        """A fresh int8 mask over the five ids (all zero when ``legal`` is empty)."""
        return self.lookup(legal).mask.copy()

    def to_engine(self, who: str, action: object, legal: tuple[Action, ...]) -> Action:
        """The engine action for id ``action``; ``ValueError`` naming ``who``, the action and the legal ids."""
        engine = self.lookup(legal).engine
        try:
            index = action.__index__()  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            index = -1
        if 0 <= index < NUM_ACTIONS:
            chosen = engine[index]
            if chosen is not None:
                return chosen
        raise ValueError(f"{who}: action {action!r} is not legal now; {describe_legal(engine)}")


def describe_legal(engine: Sequence[Action | None]) -> str:
    """``"legal ids: 1 (check_call), 2 (bet_raise)"``, or that none is legal."""
    ids = [f"{i} ({ACTION_NAMES[i]})" for i, a in enumerate(engine) if a is not None]
    return "legal ids: " + ", ".join(ids) if ids else "no action is legal (not this seat's turn or the hand is over)"


_TABLES = {False: ActionTable(False), True: ActionTable(True)}


def mask_for(legal: tuple[Action, ...], allow_open_fold: bool = False) -> np.ndarray:
    """The cached, read-only int8 mask of ``legal`` (no allocation per decision)."""
    return _TABLES[allow_open_fold].lookup(legal).mask


def to_engine(action_id: object, legal: tuple[Action, ...], allow_open_fold: bool = False,
              who: str = "agent") -> Action:
    """The engine action id ``action_id`` stands for now; ``ValueError`` naming the legal ids if the mask forbids it.

    >>> to_engine(1, (Action.FOLD, Action.CHECK, Action.BET))
    <Action.CHECK: 1>
    """
    return _TABLES[allow_open_fold].to_engine(who, action_id, legal)

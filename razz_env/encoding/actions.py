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

import numpy as np

from razz_env.engine.actions import Action

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


def to_engine(action_id: int, legal: Sequence[Action]) -> Action:
    """The engine action an id stands for now; ``ValueError`` naming the legal ids if none."""
    for action in legal:
        if ENGINE_TO_ID[action] == action_id:
            return action
    names = ", ".join(f"{ENGINE_TO_ID[a]} ({ACTION_NAMES[ENGINE_TO_ID[a]]})" for a in legal)
    raise ValueError(f"action id {action_id!r} is not legal now; legal ids: {names}")

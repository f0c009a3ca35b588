"""The shared action translator: ids map to engine actions only where the mask allows them."""

from __future__ import annotations

import pytest

from razz_env.encoding.actions import action_mask, to_engine
from razz_env.engine.actions import Action

OPEN = (Action.FOLD, Action.CHECK, Action.BET)
FACING = (Action.FOLD, Action.CALL, Action.RAISE)


def test_each_id_names_one_engine_action():
    assert [to_engine(i, FACING) for i in range(3)] == [Action.FOLD, Action.CALL, Action.RAISE]
    assert to_engine(3, (Action.BRING_IN, Action.COMPLETE)) is Action.BRING_IN
    assert to_engine(4, (Action.FOLD, Action.CHECK, Action.BET, Action.BET_BIG)) is Action.BET_BIG


def test_open_fold_follows_the_mask():
    assert action_mask(OPEN).tolist() == [0, 1, 1, 0, 0]
    with pytest.raises(ValueError, match=r"seat 3: action 0 is not legal now; legal ids: 1 \(check_call\)"):
        to_engine(0, OPEN, who="seat 3")
    assert to_engine(0, OPEN, allow_open_fold=True) is Action.FOLD


@pytest.mark.parametrize("bad", [5, -1, "1", None, 2.5])
def test_ids_outside_the_table_are_refused(bad):
    with pytest.raises(ValueError, match="not legal now"):
        to_engine(bad, FACING)

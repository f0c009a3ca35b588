"""The decisions a seat can make, as a small int enum whose names match hand records."""

from __future__ import annotations

from enum import IntEnum

from razz_env.engine.checks import as_index
from razz_env.engine.errors import shown


class Action(IntEnum):
    """One betting decision. ``str(action)`` is the hand-record name."""

    FOLD = 0
    CHECK = 1
    CALL = 2
    BRING_IN = 3
    COMPLETE = 4
    BET = 5
    BET_BIG = 6
    RAISE = 7

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, value: Action | str | int) -> Action:
        """Accept an :class:`Action`, its record name (``"bet_big"``) or its int value (numpy ints too)."""
        if isinstance(value, Action):
            return value
        if isinstance(value, str):
            member = _BY_NAME.get(value.lower())
            if member is not None:
                return member
        elif not isinstance(value, bool):
            index = as_index(value)
            if 0 <= index < len(_MEMBERS):
                return _MEMBERS[index]
        raise ValueError(f"unknown action {shown(value)}; known: {', '.join(_BY_NAME)}")


_MEMBERS = tuple(Action)
_BY_NAME = {str(a): a for a in Action}
AGGRESSIVE = frozenset({Action.COMPLETE, Action.BET, Action.BET_BIG, Action.RAISE})

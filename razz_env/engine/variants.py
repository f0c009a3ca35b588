"""Variants as data: a variant is a small declaration, not a subclass.

Each :class:`Variant` says who is forced to bring in on 3rd street, who opens
the later streets, how hands are valued at showdown and which optional rules it
plays by default. The betting and dealing machinery in :mod:`razz_env.engine.state`
reads these fields and nothing else.

>>> VARIANTS["razz"].low_board, VARIANTS["stud8"].showdown
(True, ('high', 'eight'))
"""

from __future__ import annotations

from dataclasses import dataclass

from razz_env.engine.errors import ConfigError, shown


@dataclass(frozen=True, slots=True)
class Variant:
    """One stud game.

    ``low_board``: boards are read as lowball (aces low, pairs bad): the highest door
    card brings in and the lowest board opens later streets; otherwise the lowest
    door card brings in and the highest board opens. ``showdown``: the pot halves,
    each the name of an evaluator in :mod:`razz_env.engine.evaluation` (``"razz"``,
    ``"action_razz"``, ``"high"``, ``"eight"`` — the last qualifies or is absent).
    ``open_pair_big_bet``: on 4th street an open pair lets the first bet be the big bet.
    """

    name: str
    title: str
    low_board: bool
    showdown: tuple[str, ...]
    open_pair_big_bet: bool


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("razz", "Razz (seven-card stud, ace-to-five low)", True, ("razz",), False),
        Variant("action_razz", "Action Razz (a J, Q or K qualifies)", True, ("action_razz",), False),
        Variant("stud", "Seven-card stud (high)", False, ("high",), True),
        Variant("stud8", "Seven-card stud hi/lo, eight or better", False, ("high", "eight"), True),
    )
}


def get_variant(name: str) -> Variant:
    """Look a variant up by name, with an error listing the known ones."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ConfigError(f"variant: unknown variant {shown(name)}; known: {', '.join(VARIANTS)}") from None

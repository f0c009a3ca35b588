"""Named rule presets: a preset is data, a frozen mapping of table options to the values it plays.

``rules: house`` is the engine's defaults (the project's rule documents, ``docs/rules.md``);
``rules: wsop_2023`` the 2023 WSOP tournament rules as ``docs/rules.md`` cites them. A preset only
fills in the options a table leaves out: every option it sets is an ordinary option too, so any of
them can be overridden one by one (``Table("stud8", rules="wsop_2023", raise_cap=4)``).

An option's value is either one value for every variant or a mapping from variant name to value,
with ``"*"`` for the variants it does not name.

>>> get_preset("wsop_2023").values_for("razz")["board_tie_break"], get_preset("wsop_2023").values_for("stud")[
...     "board_tie_break"]
('position', 'suit')
>>> get_preset("wsop_2024")
Traceback (most recent call last):
...
razz_env.engine.errors.ConfigError: rules: unknown preset 'wsop_2024'; known: house, wsop_2023
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from razz_env.engine.errors import ConfigError, shown

SUIT = "suit"
POSITION = "position"
BOARD_TIE_BREAKS = (SUIT, POSITION)
"""How equal boards (and equal door cards) are ordered: by suit (house), or by position, the first seat
clockwise from the dealer first (the dealer sits just before seat 0, so seat 0 is first)."""
HOUSE = "house"
ANY_VARIANT = "*"
PRESET_OPTIONS = ("raise_cap", "heads_up_uncapped", "heads_up_tournament_uncapped", "open_pair_big_bet",
                  "board_tie_break")
"""The table options a preset sets (each an ordinary option as well)."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of option values. ``options``: every one of :data:`PRESET_OPTIONS`, each a value or a
    mapping from variant name (``"*"``: any other) to value; ``raise_cap``/``open_pair_big_bet`` ``None``
    mean the variant's own default. ``source``: where the rules come from (for ``docs/rules.md``)."""

    name: str
    options: Mapping[str, Any]
    source: str

    def value(self, option: str, variant: str) -> Any:
        """The preset's value of ``option`` for the variant named ``variant``."""
        value = self.options[option]
        if isinstance(value, Mapping):
            return value.get(variant, value[ANY_VARIANT])
        return value

    def values_for(self, variant: str) -> dict[str, Any]:
        """Every option's value for the variant named ``variant``."""
        return {option: self.value(option, variant) for option in PRESET_OPTIONS}


def _preset(name: str, source: str, **options: Any) -> Preset:
    frozen = {key: MappingProxyType(dict(value)) if isinstance(value, Mapping) else value
              for key, value in options.items()}
    assert tuple(frozen) == PRESET_OPTIONS, name
    return Preset(name, MappingProxyType(frozen), source)


PRESETS: Mapping[str, Preset] = MappingProxyType({preset.name: preset for preset in (
    _preset(HOUSE, "the project's rule documents (rules.md; house sheet 004)",
            raise_cap=None, heads_up_uncapped=False, heads_up_tournament_uncapped=False, open_pair_big_bet=None,
            board_tie_break=SUIT),
    _preset("wsop_2023", "2023 World Series of Poker Official Tournament Rules (docs/rules.md, Rule presets)",
            raise_cap=5, heads_up_uncapped=False, heads_up_tournament_uncapped=True, open_pair_big_bet=False,
            board_tie_break={"stud": SUIT, ANY_VARIANT: POSITION}),
)})
"""Every preset by name."""


def get_preset(name: Any, field: str = "rules") -> Preset:
    """The preset called ``name``, or ``ConfigError`` naming ``field`` and the known presets."""
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        raise ConfigError(f"{field}: unknown preset {shown(name)}; known: {', '.join(PRESETS)}")
    return preset


def as_tie_break(name: str, value: Any) -> str:
    """``value`` as one of :data:`BOARD_TIE_BREAKS`, or ``ConfigError`` naming ``name``."""
    if not isinstance(value, str) or value not in BOARD_TIE_BREAKS:
        raise ConfigError(f"{name}: expected {' or '.join(repr(v) for v in BOARD_TIE_BREAKS)}, got {shown(value)}")
    return value

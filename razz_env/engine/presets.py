"""Named rule presets: a preset is data, a frozen mapping of table options to the values it plays.

``rules: house`` is the engine's defaults (the project's rule documents, ``docs/rules.md``);
``rules: wsop_2022``, ``wsop_2023`` and ``wsop_2024`` the World Series of Poker Official Tournament Rules of
that year, point by point as ``docs/rules.md`` cites them (rule numbers and pages). A preset only fills in the
options a table leaves out: every option it sets is an ordinary option too, so any of them can be overridden one
by one (``Table("stud8", rules="wsop_2023", raise_cap=4)``).

An option's value is either one value for every variant or a mapping from variant name to value,
with ``"*"`` for the variants it does not name.

>>> wsop = get_preset("wsop_2023")
>>> wsop.value("bring_in_tie_break", "razz"), wsop.value("later_street_tie_break", "razz")
('suit', 'position')
>>> [get_preset(name).value("later_street_tie_break", "stud") for name in ("wsop_2022", "wsop_2023", "wsop_2024")]
['position', 'suit', 'suit']
>>> get_preset("wsop_2025")
Traceback (most recent call last):
...
razz_env.engine.errors.ConfigError: rules: unknown preset 'wsop_2025'; known: house, wsop_2022, wsop_2023, wsop_2024
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from razz_env.engine.errors import ConfigError, shown

SUIT = "suit"
POSITION = "position"
TIE_BREAKS = (SUIT, POSITION)
"""How seats whose up cards tie on rank are ordered, by either tie-break option: by suit (spades, hearts, diamonds,
clubs), or by position, the first seat clockwise from the dealer first (the dealer sits just before seat 0, so seat
0 is first)."""
HOUSE = "house"
ANY_VARIANT = "*"
TIE_BREAK_OPTIONS = ("bring_in_tie_break", "later_street_tie_break")
"""The two tie-break options, each one of :data:`TIE_BREAKS`: ``bring_in_tie_break`` orders equal door cards (who
brings in on the first street), ``later_street_tie_break`` equal boards on every later street (who acts first)."""
PRESET_OPTIONS = ("raise_cap", "heads_up_uncapped", "heads_up_tournament_uncapped", "open_pair_big_bet",
                  *TIE_BREAK_OPTIONS)
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


_WSOP = {"raise_cap": 5, "heads_up_uncapped": False, "heads_up_tournament_uncapped": True, "open_pair_big_bet": False,
         "bring_in_tie_break": SUIT, "later_street_tie_break": {"stud": SUIT, ANY_VARIANT: POSITION}}
"""The WSOP tournament rules of 2023 and 2024 (``docs/rules.md``, Rule presets: Tournament Rule 100(b) and Section
IX, Seven Card Games, items 1, 2 and 4): a bet and four raises however few remain in the hand, none once the
tournament is heads-up; no open-pair big bet; equal door cards by suit in every game; equal later boards by suit in
stud high, by position in the low games and stud8. 2022 differs in one point: equal later boards in stud high go by
position too."""


def _wsop(year: int, **changes: Any) -> Preset:
    """The ``wsop_<year>`` preset: :data:`_WSOP` with ``changes``."""
    source = (f"{year} World Series of Poker Official Tournament Rules (Rules 73, 100(b), 129; Section IX, Seven "
              f"Card Games, items 1, 2, 4) and, where they are silent, the {year} WSOP Live-Action Rules "
              "(docs/rules.md, Rule presets)")
    return _preset(f"wsop_{year}", source, **{**_WSOP, **changes})


PRESETS: Mapping[str, Preset] = MappingProxyType({preset.name: preset for preset in (
    _preset(HOUSE, "the project's rule documents (rules.md; house sheet 004)",
            raise_cap=None, heads_up_uncapped=False, heads_up_tournament_uncapped=False, open_pair_big_bet=None,
            bring_in_tie_break=SUIT, later_street_tie_break=SUIT),
    _wsop(2022, later_street_tie_break=POSITION),
    _wsop(2023),
    _wsop(2024),
)})
"""Every preset by name."""


def get_preset(name: Any, field: str = "rules") -> Preset:
    """The preset called ``name``, or ``ConfigError`` naming ``field`` and the known presets."""
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        raise ConfigError(f"{field}: unknown preset {shown(name)}; known: {', '.join(PRESETS)}")
    return preset


def as_tie_break(name: str, value: Any) -> str:
    """``value`` as one of :data:`TIE_BREAKS`, or ``ConfigError`` naming ``name``."""
    if not isinstance(value, str) or value not in TIE_BREAKS:
        raise ConfigError(f"{name}: expected {' or '.join(repr(v) for v in TIE_BREAKS)}, got {shown(value)}")
    return value

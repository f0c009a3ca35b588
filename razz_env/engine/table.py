"""The table spec: variant, seats, stacks, stakes and rule options, spelled and checked one way everywhere.

A :class:`Table` is what every entry point takes: ``HandConfig.create``, the environments' keyword
arguments, tournament and training YAML, OpenSpiel game parameters and the zoo manifest all use its
field names, and all of them are checked here, once, by ``Table.__post_init__``. A bad value raises
:class:`~razz_env.engine.errors.ConfigError` naming the key and what is allowed.

Options left out take the variant's defaults (stakes 1/2/5/10 and cap 4 in the seven-card games,
1/1/2/4 and cap 2 in MiniRazz). ``raise_cap`` means the same everywhere: a positive number of bets
and raises a round allows, ``0`` for no cap, ``None`` (or left out) for the variant's cap. Once
built, a table holds the values it plays (defaults filled in, one stack per seat):

>>> table = Table("razz", num_seats=3, stacks=500)
>>> table.stacks, table.stakes.big_bet, table.raise_cap
((500, 500, 500), 10, 4)
>>> Table.from_mapping({"variant": "minirazz", "stacks": [50, 60], "raise_cap": 0}).to_dict()["raise_cap"]
0
>>> Table.from_params("razz", {"num_seats": 3, "stacks": "500"}) == table
True
>>> Table("minirazz", num_seats=7)
Traceback (most recent call last):
...
razz_env.engine.errors.ConfigError: num_seats: minirazz seats 2 to 5 (its 12-card deck deals 3 cards a seat), got 7
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from razz_env.engine.checks import as_flag, as_index, as_int, as_list
from razz_env.engine.config import (
    MAX_SEATS,
    MIN_SEATS,
    STREET_NAMES,
    HandConfig,
    Rules,
    Stakes,
    bet_sizes,
    check_bring_in,
    check_chip_multiple,
    check_street_bets,
    seats_problem,
)
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.presets import HOUSE, TIE_BREAK_OPTIONS, as_tie_break, get_preset
from razz_env.engine.variants import Variant, get_variant

DEFAULT_SEATS = 2
DEFAULT_STACK = 200
LIST_PARAMETERS = ("stacks", "street_bets")
"""The options that OpenSpiel, which has no list parameters, takes as space-separated integers."""

_STAKE_MINIMUMS = {"ante": 0, "bring_in": 1, "small_bet": 1, "big_bet": 1}


@dataclass(frozen=True, slots=True)
class Table:
    """One table: variant, seats, starting stacks, stakes and rule options (every field a keyword).

    ``variant``: a name from :data:`~razz_env.engine.variants.VARIANTS` (or a :class:`Variant`); held as the
    :class:`Variant`. ``num_seats``: 2 to 8, as many as the deck can deal to (default: one per listed stack,
    else 2). ``stacks``: one chip count for every seat or a list of one per seat (default 200); held as one per
    seat. ``ante``, ``bring_in``, ``small_bet``, ``big_bet``: chips (default the variant's). ``street_bets``: one
    bet size per street, replacing small/big. ``raise_cap``: bets and raises allowed a round, ``0`` for no cap
    (default the variant's). ``heads_up_uncapped``: no cap in a round that starts two-handed.
    ``open_pair_big_bet``: the stud open-pair big bet on 4th street (default on; stud and stud8 only, so off
    whatever the option in the other games); held as whether it applies. ``bring_in_tie_break``: ``"suit"``
    or ``"position"``, who of equal door cards brings in on the first street; ``later_street_tie_break``: the
    same for equal boards on the later streets, who acts first (position: the first such seat from seat 0, the
    dealer sitting just before seat 0). ``heads_up_tournament_uncapped``: no cap at all in a hand dealt to two
    seats (the tournament is heads-up). ``chip``: the smallest chip in play (default 1): every stake and stack
    is a multiple of it and pots split in whole chips. ``rules``: the rule preset (``"house"``, ``"wsop_2022"``,
    ``"wsop_2023"``, ``"wsop_2024"``, :mod:`~razz_env.engine.presets`; ``None``: ``"house"``) whose values the rule
    options left out take.
    """

    variant: Variant | str = "razz"
    num_seats: int | None = None
    stacks: int | Sequence[int] = DEFAULT_STACK
    ante: int | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    street_bets: Sequence[int] | None = None
    raise_cap: int | None = None
    heads_up_uncapped: bool | None = None
    open_pair_big_bet: bool | None = None
    bring_in_tie_break: str | None = None
    later_street_tie_break: str | None = None
    heads_up_tournament_uncapped: bool | None = None
    chip: int = 1
    rules: str | None = HOUSE
    stakes: Stakes = field(init=False, repr=False, compare=False)
    _config: HandConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        declared = self.variant if isinstance(self.variant, Variant) else get_variant(self.variant)
        set_ = object.__setattr__
        set_(self, "variant", declared)
        stacks = _stacks(self.stacks, self.num_seats)
        problem = seats_problem(declared, len(stacks))
        if problem is not None:
            raise ConfigError(f"{'num_seats' if self.num_seats is not None else 'stacks'}: {problem}")
        preset = get_preset(HOUSE if self.rules is None else self.rules)
        set_(self, "rules", preset.name)
        chip = as_int("chip", self.chip, 1, what="a positive integer number of chips (the smallest chip in play)")
        set_(self, "chip", chip)
        set_(self, "num_seats", len(stacks))
        set_(self, "stacks", tuple(check_chip_multiple("stacks" if len(set(stacks)) == 1 else f"stacks[{seat}]",
                                                       stack, chip) for seat, stack in enumerate(stacks)))
        for name, default in declared.default_stakes._asdict().items():
            value = getattr(self, name)
            value = default if value is None else as_int(name, value, _STAKE_MINIMUMS[name],
                                                         what="an integer number of chips")
            set_(self, name, check_chip_multiple(name, value, chip))
        street_bets = self.street_bets
        if street_bets is not None:
            bets = check_street_bets(declared, street_bets, "street_bets")
            street_bets = tuple(check_chip_multiple(f"street_bets ({STREET_NAMES[street]} street)", bet, chip)
                                for street, bet in zip(declared.street_numbers, bets))
            set_(self, "street_bets", street_bets)
        stakes = Stakes(self.ante, self.bring_in, self.small_bet, self.big_bet, street_bets, chip)
        set_(self, "stakes", stakes)
        check_bring_in("bring_in", declared, self.bring_in, bet_sizes(declared, stakes))
        given = preset.values_for(declared.name)
        cap = self.raise_cap
        if cap is None:
            cap = declared.default_raise_cap if given["raise_cap"] is None else given["raise_cap"]
        cap = as_int("raise_cap", cap, what="0 (no cap) or a positive number of bets and raises")
        if cap < 0:
            raise ConfigError(f"raise_cap: expected 0 (no cap) or a positive number of bets and raises, got {cap}")
        set_(self, "raise_cap", cap)
        for name in ("heads_up_uncapped", "heads_up_tournament_uncapped"):
            value = getattr(self, name)
            set_(self, name, given[name] if value is None else as_flag(name, value))
        option = self.open_pair_big_bet
        option = given["open_pair_big_bet"] if option is None else as_flag("open_pair_big_bet", option)
        open_pair = declared.open_pair_big_bet and option is not False
        set_(self, "open_pair_big_bet", open_pair)
        for name in TIE_BREAK_OPTIONS:
            value = getattr(self, name)
            set_(self, name, as_tie_break(name, given[name] if value is None else value))
        rules = Rules(cap or None, self.heads_up_uncapped,
                      None if open_pair or not declared.open_pair_big_bet else False,
                      bring_in_tie_break=self.bring_in_tie_break, later_street_tie_break=self.later_street_tie_break,
                      heads_up_tournament_uncapped=self.heads_up_tournament_uncapped, preset=preset.name)
        set_(self, "_config", HandConfig(declared, stakes, self.stacks, rules))

    def __repr__(self) -> str:
        shown_fields = ", ".join(f"{name}={value!r}" for name, value in self.to_dict().items())
        return f"Table({shown_fields})"

    def __copy__(self) -> Table:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self  # immutable: OpenSpiel's clone deep-copies every state attribute

    def hand_config(self) -> HandConfig:
        """The engine configuration every hand at this table is dealt with."""
        return self._config

    def require_decisions(self) -> Table:
        """This table, if two seats or more have chips behind the ante; else ``ConfigError``, since no seat would
        ever make a decision (the engine deals such a hand out; an environment or game has nothing to ask)."""
        if sum(stack > self.ante for stack in self.stacks) < 2:
            raise ConfigError(f"stacks: at most one seat has chips behind the ante ({self.ante}), "
                              "so no seat would ever make a decision")
        return self

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain data, in :data:`TABLE_KEYS` spelling (one stack for all seats as one number);
        ``Table.from_mapping(table.to_dict()) == table``."""
        data = {name: getattr(self, name) for name in TABLE_KEYS}
        data["variant"] = self.variant.name
        data["stacks"] = self.stacks[0] if len(set(self.stacks)) == 1 else list(self.stacks)
        data["street_bets"] = None if self.street_bets is None else list(self.street_bets)
        return data

    def to_params(self) -> dict[str, int | bool | str]:
        """The OpenSpiel game parameters of this table (the variant is the game's name; lists as text)."""
        data = self.to_dict()
        del data["variant"]
        data["stacks"] = " ".join(str(stack) for stack in self.stacks)
        data["street_bets"] = "" if self.street_bets is None else " ".join(str(bet) for bet in self.street_bets)
        if not self.variant.open_pair_big_bet:
            del data["open_pair_big_bet"]
        return data

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], label: str = "table") -> Table:
        """The table a YAML mapping (or any mapping of :data:`TABLE_KEYS`) describes; unknown keys are named."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"{label}: expected a mapping of table options, got {shown(data)}")
        unknown = sorted(shown(key) for key in data if key not in TABLE_KEYS)
        if unknown:
            raise ConfigError(f"{label}: unknown key(s) {', '.join(unknown)}; known: {', '.join(TABLE_KEYS)}")
        return cls(**data)

    @classmethod
    def from_params(cls, variant: str, params: Mapping[str, Any]) -> Table:
        """The table of OpenSpiel game parameters (:data:`TABLE_KEYS` but ``variant``; ``stacks`` and
        ``street_bets`` as integers separated by spaces, ``street_bets=""`` for none)."""
        data: dict[str, Any] = {"variant": variant}
        for key, value in params.items():
            if key == "variant" or key not in TABLE_KEYS:
                known = ", ".join(key for key in TABLE_KEYS if key != "variant")
                raise ConfigError(f"unknown parameter(s) {shown(key)}; known: {known}")
            if key == "street_bets" and value == "":
                value = None
            elif key in LIST_PARAMETERS and isinstance(value, str):
                value = _words(key, value)
                if key == "stacks" and len(value) == 1:
                    value = value[0]
            data[key] = value
        return cls(**data)


TABLE_KEYS = tuple(item.name for item in fields(Table) if item.init)
"""Every option of a table, in the one spelling that keyword arguments, YAML and OpenSpiel parameters share."""


def _stacks(value: Any, num_seats: Any) -> tuple[int, ...]:
    """``stacks`` (one for all, or one per seat) as one chip count per seat, checked against ``num_seats``."""
    if num_seats is not None:
        num_seats = as_int("num_seats", num_seats, MIN_SEATS, MAX_SEATS, what="a number of seats")
    one = None if isinstance(value, bool) else as_index(value, None)
    if one is not None:
        stacks = [one] * (DEFAULT_SEATS if num_seats is None else num_seats)
    else:
        stacks = as_list("stacks", value, "one chip count for every seat or a list of one per seat")
        if num_seats is not None and len(stacks) != num_seats:
            raise ConfigError(f"stacks: {len(stacks)} stacks given for num_seats={num_seats}")
    name = "stacks" if one is not None else "stacks[{}]"
    return tuple(as_int(name.format(seat), stack, 1, what="an integer number of chips")
                 for seat, stack in enumerate(stacks))


def _table_options(cls: type) -> type:
    """``cls`` given a field for each of :class:`Table`'s options but ``num_seats``, for ``@dataclass`` to make (the
    list of a table's options is Table's, written once), as a settings file gives them: a variant's name, tuples,
    1000 chips a seat and the house rules by default (``changes``: type hint and default where they differ)."""
    changes = {"variant": ("str", "razz"), "stacks": ("int | tuple[int, ...]", 1000),
               "street_bets": ("tuple[int, ...] | None", None), "rules": ("str", HOUSE)}
    annotations = {}
    for item in fields(Table):
        if item.init and item.name != "num_seats":
            annotations[item.name], default = changes.get(item.name, (item.type, item.default))
            setattr(cls, item.name, default)
    cls.__annotations__ = annotations
    return cls


@dataclass(frozen=True)
@_table_options
class TableOptions:
    """A config's table: :data:`TABLE_KEYS` but ``num_seats``, which the config sets otherwise (a tournament by
    its format, a training run by its list of sizes); declared once for :class:`TournamentConfig` and
    :class:`TrainConfig`, which inherit it, so YAML spells them as flat keys. Left out (``None``): the preset's,
    else the variant's; the checks are :class:`Table`'s own (:meth:`table_at`).

    >>> TableOptions(ante=2).table_at(3).ante
    2
    """

    @classmethod
    def config_keys(cls) -> list[str]:
        """The keys of a config file, in the order it is written: the config's own, then the table's."""
        table = [f.name for f in fields(TableOptions)]
        return [f.name for f in fields(cls) if f.init and f.name not in table] + table

    def table_at(self, num_seats: int) -> Table:
        """The table these options describe at ``num_seats`` seats."""
        return Table(**{f.name: getattr(self, f.name) for f in fields(TableOptions)}, num_seats=num_seats)


def _words(name: str, text: str) -> list[int]:
    try:
        words = [int(word) for word in text.split()]
    except ValueError:
        words = []
    if not words:
        raise ConfigError(f"{name}: expected integers separated by spaces, got {shown(text)}")
    return words

"""Hand configuration: stakes, rule options and stacks, validated on construction.

Every field is checked once here so the engine's hot path can trust it; a bad
field raises :class:`~razz_env.engine.errors.ConfigError` naming the field.

Stakes and the raise cap left out take the variant's defaults (razz, stud: 1/2/5/10, cap 4;
MiniRazz: ante 1, bring-in 1, complete 2, bet 4, cap 2); bet sizes are asked of the config,
which knows the variant's streets.

>>> cfg = HandConfig.create("razz", stacks=[100, 100], ante=1, bring_in=2, small_bet=5, big_bet=10)
>>> cfg.bet_size(5), cfg.big_bet, cfg.rules.raise_cap
(10, 10, 4)
>>> mini = HandConfig.create("minirazz")
>>> [mini.bet_size(street) for street in mini.variant.street_numbers], mini.big_bet, mini.rules.raise_cap
([2, 4], 4, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from razz_env.engine.cards import DECK_SIZE
from razz_env.engine.checks import as_flag, as_int, as_list
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.presets import HOUSE, PRESETS, SUIT, TIE_BREAK_OPTIONS, as_tie_break, get_preset
from razz_env.engine.variants import BIG, Variant, get_variant

MIN_SEATS = 2
MAX_SEATS = 8
STREETS = (3, 4, 5, 6, 7)
"""Seven-card stud's street numbers; a variant's own are ``variant.street_numbers``."""
_BOTH_TIE_BREAKS = "board_tie_break"
"""The one tie-break option of older hand records, which ordered equal door cards and equal later boards alike: read
as both of :data:`~razz_env.engine.presets.TIE_BREAK_OPTIONS` (unless the record names them)."""


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


STREET_NAMES = {number: _ordinal(number) for number in range(1, DECK_SIZE + 1)}
"""Name of every street number (the cards a seat holds once it is dealt): 1st, 2nd, 3rd... ."""


class _VariantDefault:
    """The type of :data:`VARIANT_DEFAULT`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "VARIANT_DEFAULT"

    def __reduce__(self) -> str:
        return "VARIANT_DEFAULT"


VARIANT_DEFAULT: Any = _VariantDefault()
"""``raise_cap`` left to the variant's ``default_raise_cap`` (``None`` already means no cap)."""


def _chips(name: str, value: Any, minimum: int = 0) -> int:
    return as_int(name, value, minimum, what="an integer number of chips")


def check_chip_multiple(name: str, value: int, chip: int) -> int:
    """``value`` if it is a whole number of ``chip`` (the smallest chip in play), else ``ConfigError`` naming it."""
    if value % chip:
        raise ConfigError(f"{name}: must be a multiple of the smallest chip (chip={chip}), got {value}")
    return value


def street_span(variant: Variant) -> str:
    """The variant's streets as words, e.g. ``"3rd to 7th street"`` (for messages)."""
    first, last = variant.street_numbers[0], variant.street_numbers[-1]
    return f"{STREET_NAMES[first]} street" if first == last else f"{STREET_NAMES[first]} to {STREET_NAMES[last]} street"


def check_street_bets(variant: Variant, value: Any, name: str = "stakes.street_bets") -> tuple[int, ...]:
    """``value`` as one positive bet size per street of ``variant``, or ``ConfigError`` naming the street."""
    count, span = len(variant.streets), street_span(variant)
    bets = as_list(name, value, f"a list of {count} bet sizes ({span})")
    if len(bets) != count:
        raise ConfigError(f"{name}: expected {count} sizes ({span}), got {len(bets)}")
    return tuple(_chips(f"{name} ({STREET_NAMES[street]} street)", bet, 1)
                 for street, bet in zip(variant.street_numbers, bets))


@dataclass(frozen=True, slots=True)
class Stakes:
    """Integer chip amounts. ``street_bets`` (one size per street of the variant) replaces small/big.

    A street whose declared bet is ``"small"`` bets ``small_bet``, a ``"big"`` one ``big_bet``.
    How many ``street_bets`` a variant needs, and that the bring-in is below the first street's
    bet, is checked by :class:`HandConfig`, which knows the variant. ``chip``: the smallest chip in
    play (default 1); every amount is a multiple of it, and pots split in whole chips of it.
    """

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    street_bets: tuple[int, ...] | None = None
    chip: int = 1

    def __post_init__(self) -> None:
        chip = _chips("stakes.chip", self.chip, 1)
        object.__setattr__(self, "chip", chip)
        for name, minimum in (("ante", 0), ("bring_in", 1), ("small_bet", 1), ("big_bet", 1)):
            value = _chips(f"stakes.{name}", getattr(self, name), minimum)
            object.__setattr__(self, name, check_chip_multiple(f"stakes.{name}", value, chip))
        if self.street_bets is not None:
            bets = as_list("stakes.street_bets", self.street_bets, "a list of bet sizes, one per street")
            if not bets:
                raise ConfigError("stakes.street_bets: expected a list of bet sizes, one per street, got []")
            bets = tuple(check_chip_multiple(f"stakes.street_bets[{i}]", _chips(f"stakes.street_bets[{i}]", bet, 1),
                                             chip) for i, bet in enumerate(bets))
            object.__setattr__(self, "street_bets", bets)

    def bet_size(self, street: int) -> int:
        """The fixed bet on seven-card stud's ``street`` (3 to 7); :meth:`HandConfig.bet_size` serves any variant."""
        if self.street_bets is not None:
            if len(self.street_bets) != len(STREETS):
                raise ConfigError(f"stakes.bet_size: these {len(self.street_bets)} street_bets are not seven-card "
                                  "stud's five; ask HandConfig.bet_size, which knows the variant")
            return self.street_bets[street - 3]
        return self.small_bet if street <= 4 else self.big_bet

    @property
    def big_bet_size(self) -> int:
        """Seven-card stud's big bet (its 5th-street bet); :attr:`HandConfig.big_bet` serves any variant."""
        return self.bet_size(5)

    def to_dict(self) -> dict[str, Any]:
        """The ``stakes`` object of a hand record."""
        out: dict[str, Any] = {"ante": self.ante, "bring_in": self.bring_in, "small_bet": self.small_bet,
                               "big_bet": self.big_bet}
        if self.street_bets is not None:
            out["street_bets"] = list(self.street_bets)
        if self.chip != 1:
            out["chip"] = self.chip
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], variant: Variant | None = None) -> Stakes:
        """Build from a record's ``stakes`` object, naming any missing or unknown key (and, given the
        ``variant``, checking ``street_bets`` against its streets)."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"stakes: expected an object, got {shown(data)}")
        known = ("ante", "bring_in", "small_bet", "big_bet", "street_bets", "chip")
        unknown = sorted(shown(key) for key in data if key not in known)
        if unknown:
            raise ConfigError(f"stakes: unknown key(s) {', '.join(unknown)}; known: {', '.join(known)}")
        missing = [k for k in known[:4] if k not in data]
        if missing:
            raise ConfigError(f"stakes: missing {', '.join(missing)}")
        street_bets = data.get("street_bets")
        if variant is not None and street_bets is not None:
            street_bets = check_street_bets(variant, street_bets)
        return cls(data["ante"], data["bring_in"], data["small_bet"], data["big_bet"], street_bets,
                   data.get("chip", 1))


@dataclass(frozen=True, slots=True)
class Rules:
    """Optional rules (``rules.md``); the defaults are the house defaults.

    ``raise_cap``: bets plus raises allowed in a round (``None`` = no cap; the default,
    :data:`VARIANT_DEFAULT`, is the variant's ``default_raise_cap``, filled in by :class:`HandConfig`).
    ``heads_up_uncapped``: no cap in a round that starts with two live players.
    ``open_pair_big_bet``: stud open-pair big bet on 4th street; ``None`` takes the variant's default.
    ``bring_in_tie_break``: ``"suit"`` or ``"position"``, who of equal door cards brings in on the first street
    (position: the first such seat from seat 0). ``later_street_tie_break``: the same for equal boards on every later
    street (who acts first).
    ``heads_up_tournament_uncapped``: no cap at all in a hand dealt to two seats (the tournament is heads-up).
    ``preset``: the rule preset (:mod:`~razz_env.engine.presets`) the options were filled in from; records name it.
    """

    raise_cap: int | None = VARIANT_DEFAULT
    heads_up_uncapped: bool = False
    open_pair_big_bet: bool | None = None
    bring_in_tie_break: str = SUIT
    later_street_tie_break: str = SUIT
    heads_up_tournament_uncapped: bool = False
    preset: str = HOUSE

    def __post_init__(self) -> None:
        if self.raise_cap is not None and self.raise_cap is not VARIANT_DEFAULT:
            object.__setattr__(self, "raise_cap", as_int("rules.raise_cap", self.raise_cap, 1))
        object.__setattr__(self, "heads_up_uncapped", as_flag("rules.heads_up_uncapped", self.heads_up_uncapped))
        if self.open_pair_big_bet is not None:
            object.__setattr__(self, "open_pair_big_bet", as_flag("rules.open_pair_big_bet", self.open_pair_big_bet))
        for name in TIE_BREAK_OPTIONS:
            as_tie_break(f"rules.{name}", getattr(self, name))
        object.__setattr__(self, "heads_up_tournament_uncapped",
                           as_flag("rules.heads_up_tournament_uncapped", self.heads_up_tournament_uncapped))
        get_preset(self.preset, "rules.preset")

    def to_dict(self, default_raise_cap: int | None = 4, variant: Variant | None = None) -> dict[str, Any]:
        """The ``rules`` object of a hand record: the preset when not ``house``, and every option that differs
        from the house defaults or from the preset's (``default_raise_cap``: the variant's)."""
        preset = PRESETS[self.preset].name
        house = Rules.from_preset(HOUSE, variant)._plain(default_raise_cap, variant)
        ours = Rules.from_preset(self.preset, variant)._plain(default_raise_cap, variant)
        return {**({} if preset == HOUSE else {"preset": preset}),
                **{key: value for key, value in self._plain(default_raise_cap, variant).items()
                   if value != house[key] or value != ours[key]}}

    def _plain(self, default_raise_cap: int | None, variant: Variant | None) -> dict[str, Any]:
        """The options as a record writes them, the variant's defaults filled in."""
        open_pair = None if variant is not None and not variant.open_pair_big_bet else self.open_pair_big_bet
        return {"raise_cap": default_raise_cap if self.raise_cap is VARIANT_DEFAULT else self.raise_cap,
                "heads_up_uncapped": self.heads_up_uncapped, "open_pair_big_bet": open_pair,
                "bring_in_tie_break": self.bring_in_tie_break, "later_street_tie_break": self.later_street_tie_break,
                "heads_up_tournament_uncapped": self.heads_up_tournament_uncapped}

    @classmethod
    def from_preset(cls, name: str, variant: Variant | None = None, field: str = "rules.preset") -> Rules:
        """The rules of the preset called ``name`` for ``variant`` (``None``: the preset's values for any variant)."""
        preset = get_preset(name, field)
        values = preset.values_for(variant.name if variant is not None else "*")
        cap = values.pop("raise_cap")
        return cls(VARIANT_DEFAULT if cap is None else cap, preset=preset.name, **values)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, variant: Variant | None = None) -> Rules:
        """Build from a record's optional ``rules`` object: the preset's options (default ``house``; a missing
        ``raise_cap`` is the variant's), then the options the object names."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ConfigError(f"rules: expected an object, got {shown(data)}")
        known = ("raise_cap", "heads_up_uncapped", "open_pair_big_bet", *TIE_BREAK_OPTIONS,
                 "heads_up_tournament_uncapped", "preset")
        if _BOTH_TIE_BREAKS in data:  # a record written before the tie-break was split in two: it set both
            both = as_tie_break(f"rules.{_BOTH_TIE_BREAKS}", data[_BOTH_TIE_BREAKS])
            data = {**{name: both for name in TIE_BREAK_OPTIONS},
                    **{key: value for key, value in data.items() if key != _BOTH_TIE_BREAKS}}
        unknown = sorted(shown(key) for key in data if key not in known)
        if unknown:
            raise ConfigError(f"rules: unknown key(s) {', '.join(unknown)}; known: {', '.join(known)}")
        base = cls.from_preset(data.get("preset", HOUSE), variant)
        options = {name: getattr(base, name) for name in known}
        options.update(data)
        return cls(**options)


class StreetLayout(NamedTuple):
    """A variant's streets as the engine's hot path reads them (built once per :class:`HandConfig`).

    ``first``, ``second``, ``last``: street numbers (``second`` is 0 in a one-street game); ``first``
    is also the number of cards the first street deals, ``first_up`` how many of them are face up.
    ``up``: the slice of a seat's cards (dealing order) that is face up.
    ``next_street[s]``: the street after street number ``s`` (0 after the last).
    ``single_last``: the last street's number when it deals one card (so a short deck can make it a
    community card), else 0.
    ``deck_size``: cards in the variant's deck.
    """

    first: int
    second: int
    last: int
    first_up: int
    up: slice
    next_street: tuple[int, ...]
    single_last: int
    deck_size: int


def street_layout(variant: Variant) -> StreetLayout:
    """The :class:`StreetLayout` of ``variant``."""
    numbers = variant.street_numbers
    following = [0] * (numbers[-1] + 1)
    for here, after in zip(numbers, numbers[1:]):
        following[here] = after
    last = variant.streets[-1]
    ups = variant.up_positions
    return StreetLayout(numbers[0], numbers[1] if len(numbers) > 1 else 0, numbers[-1], variant.streets[0].up,
                        slice(ups.start, ups.stop), tuple(following),
                        numbers[-1] if len(numbers) > 1 and last.down + last.up == 1 else 0, len(variant.deck))


def seats_problem(variant: Variant, count: int) -> str | None:
    """Why ``count`` seats cannot sit at a ``variant`` table (fewer than two, or more than its deck deals), or None."""
    most = max_seats(variant)
    if MIN_SEATS <= count <= most:
        return None
    deck = (f" (its {len(variant.deck)}-card deck deals {variant.cards_per_seat} cards a seat)" if most < MAX_SEATS
            else "")
    return f"{variant.name} seats {MIN_SEATS} to {most}{deck}, got {count}"


def bet_sizes(variant: Variant, stakes: Stakes) -> tuple[int, ...]:
    """Each street's bet under ``stakes``: its ``street_bets``, else the small or big bet as the street declares."""
    if stakes.street_bets is not None:
        return check_street_bets(variant, stakes.street_bets)
    return tuple(stakes.big_bet if street.bet == BIG else stakes.small_bet for street in variant.streets)


def check_bring_in(name: str, variant: Variant, bring_in: int, bets: tuple[int, ...]) -> None:
    """``ConfigError`` naming ``name`` unless the bring-in is below the first street's bet (``bets``: each street's)."""
    if bring_in >= bets[0]:
        raise ConfigError(f"{name}: must be below the {STREET_NAMES[variant.street_numbers[0]]}-street bet {bets[0]}, "
                          f"got {bring_in}")


def max_seats(variant: Variant) -> int:
    """The most seats (up to :data:`MAX_SEATS`) the variant's deck can deal.

    Every street but the last must reach every seat; the last must too, unless it deals one
    card, which a short deck turns into one community card (stud at 8 seats).
    """
    deck, per_seat = len(variant.deck), variant.cards_per_seat
    last = variant.streets[-1]
    before_last = per_seat - last.down - last.up
    single_last = len(variant.streets) > 1 and last.down + last.up == 1
    for seats in range(MAX_SEATS, 0, -1):
        if seats * per_seat <= deck or (single_last and seats * before_last < deck):
            return seats
    return 0


@dataclass(frozen=True, slots=True)
class HandConfig:
    """Everything that fixes a hand except the cards: variant, stakes, stacks and rules.

    Derived once on construction: ``big_bet`` (the bet of the variant's first ``"big"`` street,
    the unit of "big bets" in results; ``stakes.big_bet`` in a game without a big street),
    the per-street bet sizes behind :meth:`bet_size`, and the street ``layout``.
    """

    variant: Variant
    stakes: Stakes
    stacks: tuple[int, ...]
    rules: Rules = field(default_factory=Rules)
    big_bet: int = field(init=False, repr=False, compare=False)
    bets_by_street: tuple[int, ...] = field(init=False, repr=False, compare=False)
    layout: StreetLayout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", get_variant(self.variant))
        variant = self.variant
        if not isinstance(self.stakes, Stakes):
            raise ConfigError(f"stakes: expected a Stakes, got {shown(self.stakes)}")
        if not isinstance(self.rules, Rules):
            raise ConfigError(f"rules: expected a Rules, got {shown(self.rules)}")
        rules = self.rules
        if rules.raise_cap is VARIANT_DEFAULT:
            rules = replace(rules, raise_cap=variant.default_raise_cap)
        if rules.open_pair_big_bet is not None and not variant.open_pair_big_bet:
            rules = replace(rules, open_pair_big_bet=None)  # the rule never applies here, whatever the option
        object.__setattr__(self, "rules", rules)
        stacks = as_list("stacks", self.stacks, "a list of chip counts")
        problem = seats_problem(variant, len(stacks))
        if problem is not None:
            raise ConfigError(f"stacks: {problem}")
        chip = self.stakes.chip
        stacks = tuple(check_chip_multiple(f"stacks[{seat}]", _chips(f"stacks[{seat}]", stack, 1), chip)
                       for seat, stack in enumerate(stacks))
        object.__setattr__(self, "stacks", stacks)
        stakes = self.stakes
        layout = street_layout(variant)
        bets = bet_sizes(variant, stakes)
        by_street = [0] * (layout.last + 1)
        for number, bet in zip(variant.street_numbers, bets):
            by_street[number] = bet
        check_bring_in("stakes.bring_in", variant, stakes.bring_in, bets)
        big = next((bet for street, bet in zip(variant.streets, bets) if street.bet == BIG), stakes.big_bet)
        object.__setattr__(self, "big_bet", big)
        object.__setattr__(self, "bets_by_street", tuple(by_street))
        object.__setattr__(self, "layout", layout)

    @property
    def num_seats(self) -> int:
        """Number of seats at the table."""
        return len(self.stacks)

    def bet_size(self, street: int) -> int:
        """The fixed bet and raise size on street number ``street`` (one of ``variant.street_numbers``)."""
        if street not in self.variant.street_numbers:
            raise ConfigError(f"street: {self.variant.name} plays streets {self.variant.street_numbers} "
                              f"({street_span(self.variant)}), got {shown(street)}")
        return self.bets_by_street[street]

    @property
    def open_pair_big_bet(self) -> bool:
        """Whether the stud open-pair big bet applies: stud and stud8 only (rules.md), the option can turn it off."""
        return bool(self.variant.open_pair_big_bet) and self.rules.open_pair_big_bet is not False

    def raise_cap_for(self, players_at_start: int) -> int | None:
        """The cap of a betting round that starts with ``players_at_start`` live players: none when the round
        starts heads-up and ``heads_up_uncapped``, or the hand is dealt to two seats and
        ``heads_up_tournament_uncapped``."""
        rules = self.rules
        if (rules.heads_up_uncapped and players_at_start == 2) or (rules.heads_up_tournament_uncapped
                                                                     and len(self.stacks) == 2):
            return None
        return rules.raise_cap

    @property
    def bring_in_by_suit(self) -> bool:
        """Whether suits order equal door cards for the bring-in (``bring_in_tie_break="suit"``), else position."""
        return self.rules.bring_in_tie_break == SUIT

    @property
    def later_streets_by_suit(self) -> bool:
        """Whether suits order equal boards on the later streets (``later_street_tie_break="suit"``), else
        position."""
        return self.rules.later_street_tie_break == SUIT

    @property
    def chip(self) -> int:
        """The smallest chip in play: pots split and odd chips go in whole chips of it."""
        return self.stakes.chip

    @classmethod
    def create(cls, variant: str | Variant = "razz", **options: Any) -> HandConfig:
        """The config of ``Table(variant, **options)`` (:class:`~razz_env.engine.table.Table`: ``num_seats``,
        ``stacks``, the stakes and rule options, each left out the variant's default)."""
        from razz_env.engine.table import Table

        return Table(variant, **options).hand_config()

"""Hand configuration: stakes, rule options and stacks, validated on construction.

Every field is checked once here so the engine's hot path can trust it; a bad
field raises :class:`~razz_env.engine.errors.ConfigError` naming the field.

>>> cfg = HandConfig.create("razz", stacks=[100, 100], ante=1, bring_in=2, small_bet=5, big_bet=10)
>>> cfg.stakes.bet_size(5), cfg.rules.raise_cap
(10, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import Variant, get_variant

MIN_SEATS = 2
MAX_SEATS = 8
STREETS = (3, 4, 5, 6, 7)
STREET_NAMES = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


def _int_field(name: str, value: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name}: expected an integer number of chips, got {value!r}")
    if value < minimum:
        raise ConfigError(f"{name}: must be at least {minimum}, got {value}")
    return value


@dataclass(frozen=True, slots=True)
class Stakes:
    """Integer chip amounts. ``street_bets`` (five sizes, 3rd to 7th street) replaces small/big."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    street_bets: tuple[int, ...] | None = None
    by_street: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _int_field("stakes.ante", self.ante)
        _int_field("stakes.bring_in", self.bring_in, 1)
        _int_field("stakes.small_bet", self.small_bet, 1)
        _int_field("stakes.big_bet", self.big_bet, 1)
        if self.street_bets is not None:
            bets = tuple(self.street_bets)
            if len(bets) != len(STREETS):
                raise ConfigError(f"stakes.street_bets: expected 5 sizes (3rd to 7th street), got {len(bets)}")
            for street, bet in zip(STREETS, bets):
                _int_field(f"stakes.street_bets ({STREET_NAMES[street]} street)", bet, 1)
            object.__setattr__(self, "street_bets", bets)
        object.__setattr__(self, "by_street", (0, 0, 0) + tuple(self.bet_size(s) for s in STREETS))
        if self.bring_in >= self.bet_size(3):
            raise ConfigError(
                f"stakes.bring_in: must be below the 3rd-street bet {self.bet_size(3)}, got {self.bring_in}"
            )

    def bet_size(self, street: int) -> int:
        """The fixed bet and raise size on ``street`` (3 to 7)."""
        if self.street_bets is not None:
            return self.street_bets[street - 3]
        return self.small_bet if street <= 4 else self.big_bet

    @property
    def big_bet_size(self) -> int:
        """The big bet: the size allowed by the stud open-pair rule on 4th street."""
        return self.bet_size(5)

    def to_dict(self) -> dict[str, Any]:
        """The ``stakes`` object of a hand record."""
        out: dict[str, Any] = {
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
        }
        if self.street_bets is not None:
            out["street_bets"] = list(self.street_bets)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stakes:
        """Build from a record's ``stakes`` object, naming any missing or unknown key."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"stakes: expected an object, got {data!r}")
        known = {"ante", "bring_in", "small_bet", "big_bet", "street_bets"}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"stakes: unknown key(s) {sorted(unknown)}; known: {sorted(known)}")
        missing = [k for k in ("ante", "bring_in", "small_bet", "big_bet") if k not in data]
        if missing:
            raise ConfigError(f"stakes: missing {', '.join(missing)}")
        street_bets = data.get("street_bets")
        return cls(
            data["ante"], data["bring_in"], data["small_bet"], data["big_bet"],
            tuple(street_bets) if street_bets is not None else None,
        )


@dataclass(frozen=True, slots=True)
class Rules:
    """Optional rules (``rules.md``); the defaults are the house defaults.

    ``raise_cap``: bets plus raises allowed in a round (``None`` = no cap).
    ``heads_up_uncapped``: no cap in a round that starts with two live players.
    ``open_pair_big_bet``: stud open-pair big bet on 4th street; ``None`` takes the variant's default.
    """

    raise_cap: int | None = 4
    heads_up_uncapped: bool = False
    open_pair_big_bet: bool | None = None

    def __post_init__(self) -> None:
        if self.raise_cap is not None:
            _int_field("rules.raise_cap", self.raise_cap, 1)
        if not isinstance(self.heads_up_uncapped, bool):
            raise ConfigError(f"rules.heads_up_uncapped: expected true/false, got {self.heads_up_uncapped!r}")
        if self.open_pair_big_bet is not None and not isinstance(self.open_pair_big_bet, bool):
            raise ConfigError(f"rules.open_pair_big_bet: expected true/false, got {self.open_pair_big_bet!r}")

    def to_dict(self) -> dict[str, Any]:
        """The ``rules`` object of a hand record (only non-default entries)."""
        out: dict[str, Any] = {}
        if self.raise_cap != 4:
            out["raise_cap"] = self.raise_cap
        if self.heads_up_uncapped:
            out["heads_up_uncapped"] = True
        if self.open_pair_big_bet is not None:
            out["open_pair_big_bet"] = self.open_pair_big_bet
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Rules:
        """Build from a record's optional ``rules`` object."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ConfigError(f"rules: expected an object, got {data!r}")
        known = {"raise_cap", "heads_up_uncapped", "open_pair_big_bet"}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"rules: unknown key(s) {sorted(unknown)}; known: {sorted(known)}")
        return cls(**dict(data))


@dataclass(frozen=True, slots=True)
class HandConfig:
    """Everything that fixes a hand except the cards: variant, stakes, stacks and rules."""

    variant: Variant
    stakes: Stakes
    stacks: tuple[int, ...]
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if isinstance(self.variant, str):
            object.__setattr__(self, "variant", get_variant(self.variant))
        if not isinstance(self.stacks, Sequence) or isinstance(self.stacks, str):
            raise ConfigError(f"stacks: expected a list of chip counts, got {self.stacks!r}")
        stacks = tuple(self.stacks)
        if not MIN_SEATS <= len(stacks) <= MAX_SEATS:
            raise ConfigError(f"stacks: {MIN_SEATS} to {MAX_SEATS} seats are allowed, got {len(stacks)}")
        for seat, stack in enumerate(stacks):
            _int_field(f"stacks[{seat}]", stack, 1)
        object.__setattr__(self, "stacks", stacks)

    @property
    def num_seats(self) -> int:
        """Number of seats at the table."""
        return len(self.stacks)

    @property
    def open_pair_big_bet(self) -> bool:
        """Whether the stud open-pair big bet applies: stud and stud8 only (rules.md), the option can turn it off."""
        if not self.variant.open_pair_big_bet:
            return False
        return self.rules.open_pair_big_bet is not False

    def raise_cap_for(self, players_at_start: int) -> int | None:
        """The cap of a betting round that starts with ``players_at_start`` live players."""
        if self.rules.heads_up_uncapped and players_at_start == 2:
            return None
        return self.rules.raise_cap

    @classmethod
    def create(
        cls,
        variant: str = "razz",
        *,
        stacks: Sequence[int] | None = None,
        num_seats: int = 2,
        starting_stack: int = 200,
        ante: int = 1,
        bring_in: int = 2,
        small_bet: int = 5,
        big_bet: int = 10,
        street_bets: Sequence[int] | None = None,
        raise_cap: int | None = 4,
        heads_up_uncapped: bool = False,
        open_pair_big_bet: bool | None = None,
    ) -> HandConfig:
        """Keyword construction with defaults: 2 seats of 200 chips at 1/2/5/10."""
        if stacks is None:
            _int_field("num_seats", num_seats, MIN_SEATS)
            stacks = [starting_stack] * num_seats
        return cls(
            get_variant(variant),
            Stakes(ante, bring_in, small_bet, big_bet, tuple(street_bets) if street_bets is not None else None),
            tuple(stacks),
            Rules(raise_cap, heads_up_uncapped, open_pair_big_bet),
        )

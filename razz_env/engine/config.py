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

from razz_env.engine.checks import as_flag, as_int, as_list
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.variants import Variant, get_variant

MIN_SEATS = 2
MAX_SEATS = 8
STREETS = (3, 4, 5, 6, 7)
STREET_NAMES = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


def _chips(name: str, value: Any, minimum: int = 0) -> int:
    return as_int(name, value, minimum, what="an integer number of chips")


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
        for name, minimum in (("ante", 0), ("bring_in", 1), ("small_bet", 1), ("big_bet", 1)):
            object.__setattr__(self, name, _chips(f"stakes.{name}", getattr(self, name), minimum))
        if self.street_bets is not None:
            bets = as_list("stakes.street_bets", self.street_bets, "a list of 5 bet sizes (3rd to 7th street)")
            if len(bets) != len(STREETS):
                raise ConfigError(f"stakes.street_bets: expected 5 sizes (3rd to 7th street), got {len(bets)}")
            bets = tuple(_chips(f"stakes.street_bets ({STREET_NAMES[street]} street)", bet, 1)
                         for street, bet in zip(STREETS, bets))
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
            raise ConfigError(f"stakes: expected an object, got {shown(data)}")
        known = ("ante", "bring_in", "small_bet", "big_bet", "street_bets")
        unknown = sorted(shown(key) for key in data if key not in known)
        if unknown:
            raise ConfigError(f"stakes: unknown key(s) {', '.join(unknown)}; known: {', '.join(known)}")
        missing = [k for k in known[:4] if k not in data]
        if missing:
            raise ConfigError(f"stakes: missing {', '.join(missing)}")
        return cls(data["ante"], data["bring_in"], data["small_bet"], data["big_bet"], data.get("street_bets"))


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
            object.__setattr__(self, "raise_cap", as_int("rules.raise_cap", self.raise_cap, 1))
        object.__setattr__(self, "heads_up_uncapped", as_flag("rules.heads_up_uncapped", self.heads_up_uncapped))
        if self.open_pair_big_bet is not None:
            object.__setattr__(self, "open_pair_big_bet", as_flag("rules.open_pair_big_bet", self.open_pair_big_bet))

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
            raise ConfigError(f"rules: expected an object, got {shown(data)}")
        known = ("raise_cap", "heads_up_uncapped", "open_pair_big_bet")
        unknown = sorted(shown(key) for key in data if key not in known)
        if unknown:
            raise ConfigError(f"rules: unknown key(s) {', '.join(unknown)}; known: {', '.join(known)}")
        return cls(**dict(data))


@dataclass(frozen=True, slots=True)
class HandConfig:
    """Everything that fixes a hand except the cards: variant, stakes, stacks and rules."""

    variant: Variant
    stakes: Stakes
    stacks: tuple[int, ...]
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", get_variant(self.variant))
        if not isinstance(self.stakes, Stakes):
            raise ConfigError(f"stakes: expected a Stakes, got {shown(self.stakes)}")
        if not isinstance(self.rules, Rules):
            raise ConfigError(f"rules: expected a Rules, got {shown(self.rules)}")
        stacks = as_list("stacks", self.stacks, "a list of chip counts")
        if not MIN_SEATS <= len(stacks) <= MAX_SEATS:
            raise ConfigError(f"stacks: {MIN_SEATS} to {MAX_SEATS} seats are allowed, got {len(stacks)}")
        stacks = tuple(_chips(f"stacks[{seat}]", stack, 1) for seat, stack in enumerate(stacks))
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
            num_seats = as_int("num_seats", num_seats, MIN_SEATS, MAX_SEATS)
            stacks = [_chips("starting_stack", starting_stack, 1)] * num_seats
        return cls(
            get_variant(variant),
            Stakes(ante, bring_in, small_bet, big_bet, street_bets),
            stacks,
            Rules(raise_cap, heads_up_uncapped, open_pair_big_bet),
        )

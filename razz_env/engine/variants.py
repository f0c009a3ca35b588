"""Variants as data: a stud game is a small declaration, not a subclass.

A :class:`Variant` says which cards make the deck, what each street deals face down
and face up and which bet it plays, who is forced to bring in on the first street
and who opens the later ones, how hands are valued at showdown (and how many cards
a showdown hand has), and the stakes and cap a table plays by default. The betting
and dealing machinery in :mod:`razz_env.engine.state` reads these fields and
nothing else, so a new stud game (MiniRazz below) is one more declaration.

Streets are numbered by the cards each seat holds once the street is dealt, as
stud players count them: seven-card stud plays 3rd to 7th street, MiniRazz 2nd
and 3rd.

>>> VARIANTS["razz"].low_board, VARIANTS["stud8"].showdown, VARIANTS["razz"].street_numbers
(True, ('high', 'eight'), (3, 4, 5, 6, 7))
>>> mini = VARIANTS["minirazz"]
>>> len(mini.deck), mini.street_numbers, mini.hand_size, mini.default_stakes
(12, (2, 3), 3, StakeDefaults(ante=1, bring_in=1, small_bet=2, big_bet=4))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from razz_env.engine.cards import RANKS, SUITS
from razz_env.engine.errors import ConfigError, shown

SMALL = "small"
BIG = "big"
SHOWDOWN_KINDS = ("razz", "action_razz", "high", "eight")
"""The evaluators a pot half can name (:mod:`razz_env.engine.hand_value`)."""


class Street(NamedTuple):
    """One street: ``down`` then ``up`` cards dealt to each live seat, and its bet (``"small"`` or ``"big"``)."""

    down: int
    up: int
    bet: str


class StakeDefaults(NamedTuple):
    """A variant's default chip amounts: ante, bring-in, the small and the big bet."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int


STUD_STREETS = (Street(2, 1, SMALL), Street(0, 1, SMALL), Street(0, 1, BIG), Street(0, 1, BIG), Street(1, 0, BIG))
STUD_STAKES = StakeDefaults(ante=1, bring_in=2, small_bet=5, big_bet=10)
MINI_STAKES = StakeDefaults(ante=1, bring_in=1, small_bet=2, big_bet=4)


@dataclass(frozen=True, slots=True)
class Variant:
    """One stud game.

    ``low_board``: boards are read as lowball (aces low, pairs bad): the highest door
    card brings in and the lowest board opens later streets; otherwise the lowest
    door card brings in and the highest board opens. ``showdown``: the pot halves,
    each the name of an evaluator in :mod:`razz_env.engine.hand_value` (``"razz"``,
    ``"action_razz"``, ``"high"``, ``"eight"`` — the last qualifies or is absent).
    ``open_pair_big_bet``: on 4th street an open pair lets the first bet be the big bet.
    ``ranks``/``suits``: the deck is every card of these ranks in these suits (a subset
    of the 52, so card ids, names and encodings are shared by every variant).
    ``streets``: what each street deals (down cards first, then up cards) and its bet.
    ``hand_size``: cards in a showdown hand (the best ``hand_size`` of those held).
    ``default_stakes``/``default_raise_cap``: what a table plays when not told otherwise.
    """

    name: str
    title: str
    low_board: bool
    showdown: tuple[str, ...]
    open_pair_big_bet: bool
    ranks: str = RANKS
    suits: str = SUITS
    streets: tuple[Street, ...] = STUD_STREETS
    hand_size: int = 5
    default_stakes: StakeDefaults = STUD_STAKES
    default_raise_cap: int = 4
    deck: tuple[int, ...] = field(init=False, repr=False, compare=False)
    street_numbers: tuple[int, ...] = field(init=False, repr=False, compare=False)
    faces: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        where = f"variant {self.name}"
        if not self.ranks or any(r not in RANKS for r in self.ranks) or len(set(self.ranks)) != len(self.ranks):
            raise ConfigError(f"{where}: ranks must be distinct ranks from {RANKS}, got {shown(self.ranks)}")
        if not self.suits or any(s not in SUITS for s in self.suits) or len(set(self.suits)) != len(self.suits):
            raise ConfigError(f"{where}: suits must be distinct suits from {SUITS}, got {shown(self.suits)}")
        if not self.streets:
            raise ConfigError(f"{where}: a game needs at least one street")
        for number, street in enumerate(self.streets, 1):
            if street.down < 0 or street.up < 0 or street.down + street.up < 1 or street.bet not in (SMALL, BIG):
                raise ConfigError(f"{where}: street {number} must deal at least one card (down, up >= 0) and bet "
                                  f"'{SMALL}' or '{BIG}', got {street}")
        faces = "".join("d" * s.down + "u" * s.up for s in self.streets)
        first_up, last_up = faces.find("u"), faces.rfind("u")
        if self.streets[0].up < 1 or "d" in faces[first_up:last_up + 1]:
            raise ConfigError(f"{where}: the first street must deal an up card (the door card) and the up cards "
                              f"must follow one another (down cards, then up cards, then down cards), got {faces}")
        if not 1 <= self.hand_size <= len(faces):
            raise ConfigError(f"{where}: hand_size must be 1 to the {len(faces)} cards a seat is dealt, "
                              f"got {self.hand_size}")
        if (not 1 <= len(self.showdown) <= 2 or len(set(self.showdown)) != len(self.showdown)
                or any(half not in SHOWDOWN_KINDS for half in self.showdown)):
            raise ConfigError(f"{where}: showdown must be one or two of {', '.join(SHOWDOWN_KINDS)}, "
                              f"got {shown(self.showdown)}")
        if "high" in self.showdown and self.hand_size != 5:
            raise ConfigError(f"{where}: a 'high' showdown plays five-card hands (straights, flushes), "
                              f"got hand_size {self.hand_size}")
        deck = tuple(sorted(RANKS.index(r) * len(SUITS) + SUITS.index(s) for r in self.ranks for s in self.suits))
        numbers, held = [], 0
        for street in self.streets:
            held += street.down + street.up
            numbers.append(held)
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "street_numbers", tuple(numbers))
        object.__setattr__(self, "faces", faces)

    @property
    def cards_per_seat(self) -> int:
        """Cards a seat holds once every street is dealt."""
        return len(self.faces)

    @property
    def up_positions(self) -> range:
        """Positions (0-based, dealing order) of a seat's face-up cards."""
        return range(self.faces.find("u"), self.faces.rfind("u") + 1)


def minirazz(name: str, title: str, ranks: str, streets: tuple[Street, ...], hand_size: int = 3) -> Variant:
    """A MiniRazz game: razz rules on a short two-suit deck, ``ranks`` from the ace up, stakes 1/1/2/4, cap 2."""
    return Variant(name, title, True, ("razz",), False, ranks=ranks, suits="cd", streets=streets,
                   hand_size=hand_size, default_stakes=MINI_STAKES, default_raise_cap=2)


_MINI_STREETS = (Street(1, 1, SMALL), Street(0, 1, BIG))

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("razz", "Razz (seven-card stud, ace-to-five low)", True, ("razz",), False),
        Variant("action_razz", "Action Razz (a J, Q or K qualifies)", True, ("action_razz",), False),
        Variant("stud", "Seven-card stud (high)", False, ("high",), True),
        Variant("stud8", "Seven-card stud hi/lo, eight or better", False, ("high", "eight"), True),
        minirazz("minirazz", "MiniRazz (A-6 in two suits, two streets, best three-card low)", "A23456",
                 _MINI_STREETS),
        minirazz("minirazz_tiny", "MiniRazz tiny (A-3 in two suits, two streets)", "A23", _MINI_STREETS),
        minirazz("minirazz_small", "MiniRazz small (A-4 in two suits, two streets)", "A234", _MINI_STREETS),
        minirazz("minirazz_large", "MiniRazz large (A-6 in two suits, three streets, best three of four)",
                 "A23456", (*_MINI_STREETS, Street(0, 1, BIG))),
    )
}

SEVEN_CARD_GAMES: tuple[str, ...] = tuple(name for name, v in VARIANTS.items()
                                          if len(v.deck) == 52 and v.cards_per_seat == 7)
"""The 52-card seven-card stud variants (razz, action_razz, stud, stud8): what agents that read cards with
seven-card rules declare they play, so a harness refuses to seat them at a MiniRazz table."""


def get_variant(name: str) -> Variant:
    """Look a variant up by name, with an error listing the known ones."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ConfigError(f"variant: unknown variant {shown(name)}; known: {', '.join(VARIANTS)}") from None

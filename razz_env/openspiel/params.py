"""OpenSpiel game parameters: the table options as flat ints, bools and strings, and the bounds they imply.

OpenSpiel parameters cannot be lists or ``None``, so per-seat stacks and per-street
bets are space-separated strings and ``raise_cap=0`` means no cap. Every value is
checked here, before a game exists, and a bad one raises ``ValueError`` naming the
parameter and what is allowed. The bounds (decisions per betting round, game length,
utilities) are derived from the config so that OpenSpiel's checks and the
perfect-recall information state hold for every line of play.

>>> table = table_from_params("razz", {"players": 3, "stacks": "100 200 300"})
>>> table.config.stacks, table.allow_open_fold
((100, 200, 300), False)
>>> round_decisions_bound(HandConfig.create("razz", num_seats=2), 2)
7
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from razz_env.engine.config import MAX_SEATS, MIN_SEATS, STREET_NAMES, HandConfig, max_seats
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.variants import VARIANTS

TABLE_PARAMETERS: dict[str, int | bool | str] = {
    "players": 2,
    "starting_stack": 200,
    "stacks": "",
    "ante": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": 10,
    "street_bets": "",
    "raise_cap": 4,
    "heads_up_uncapped": False,
    "allow_open_fold": False,
}
"""The parameters with their defaults in the seven-card games (the environments' defaults); the stakes and the
cap default to each variant's own (:func:`parameters_for`)."""

OPEN_PAIR_PARAMETER = "open_pair_big_bet"


def parameters_for(variant: str) -> dict[str, int | bool | str]:
    """The parameter specification of ``variant``: the table options with the variant's default stakes and cap,
    plus the open-pair rule in stud games.

    >>> {name: parameters_for("minirazz")[name] for name in ("ante", "bring_in", "small_bet", "big_bet", "raise_cap")}
    {'ante': 1, 'bring_in': 1, 'small_bet': 2, 'big_bet': 4, 'raise_cap': 2}
    """
    declared = VARIANTS[variant]
    stakes = declared.default_stakes
    spec: dict[str, int | bool | str] = {
        **TABLE_PARAMETERS, "ante": stakes.ante, "bring_in": stakes.bring_in, "small_bet": stakes.small_bet,
        "big_bet": stakes.big_bet, "raise_cap": declared.default_raise_cap,
    }
    if declared.open_pair_big_bet:
        spec[OPEN_PAIR_PARAMETER] = True
    return spec


@dataclass(frozen=True)
class Table:
    """A validated table: the engine config every hand of the game is dealt with, and the fold rule of the ids."""

    config: HandConfig
    allow_open_fold: bool

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self  # immutable: OpenSpiel's clone deep-copies every state attribute


def table_from_params(variant: str, params: Mapping[str, Any]) -> Table:
    """The table ``params`` describe (unset ones take their defaults); ``ValueError`` names a bad parameter."""
    spec = parameters_for(variant)
    unknown = sorted(str(key) for key in params if key not in spec)
    if unknown:
        raise ConfigError(f"unknown parameter(s) {', '.join(unknown)}; known: {', '.join(spec)}")
    values = {**spec, **params}
    for name, default in spec.items():
        if type(values[name]) is not type(default):
            raise ConfigError(f"{name}: expected {type(default).__name__}, got {shown(values[name])}")
    players = values["players"]
    declared = VARIANTS[variant]
    most = max_seats(declared)
    if not MIN_SEATS <= players <= most:
        why = f" in {variant} (its {len(declared.deck)}-card deck deals {declared.cards_per_seat} cards a seat)" \
            if most < MAX_SEATS else ""
        raise ConfigError(f"players: {MIN_SEATS} to {most} are allowed{why}, got {players}")
    if values["stacks"]:
        if values["starting_stack"] != spec["starting_stack"]:  # OpenSpiel passes every default, so compare
            raise ConfigError("stacks: give either per-seat stacks or one starting_stack, not both")
        stacks = _ints("stacks", values["stacks"], "one chip count per seat")
        if len(stacks) != players:
            raise ConfigError(f"stacks: {len(stacks)} stacks given for players={players}")
    else:
        stacks = [values["starting_stack"]] * players
    street_bets = None
    if values["street_bets"]:
        streets = VARIANTS[variant].street_numbers
        street_bets = _ints("street_bets", values["street_bets"], f"{len(streets)} bet sizes, "
                            f"{STREET_NAMES[streets[0]]} to {STREET_NAMES[streets[-1]]} street")
    raise_cap = values["raise_cap"]
    if raise_cap < 0:
        raise ConfigError(f"raise_cap: expected 0 (no cap) or a positive number of bets and raises, got {raise_cap}")
    open_pair = values.get(OPEN_PAIR_PARAMETER, True)
    config = HandConfig.create(
        variant, stacks=stacks, ante=values["ante"], bring_in=values["bring_in"], small_bet=values["small_bet"],
        big_bet=values["big_bet"], street_bets=street_bets, raise_cap=raise_cap or None,
        heads_up_uncapped=values["heads_up_uncapped"], open_pair_big_bet=None if open_pair else False,
    )
    if sum(stack > config.stakes.ante for stack in config.stacks) < 2:
        raise ConfigError(f"stacks: at most one seat has chips behind the ante ({config.stakes.ante}), "
                          "so no seat would ever make a decision")
    return Table(config, values["allow_open_fold"])


def _ints(name: str, text: str, what: str) -> list[int]:
    try:
        return [int(word) for word in text.replace(",", " ").split()]
    except ValueError:
        raise ConfigError(f"{name}: expected {what} as integers separated by spaces, got {text!r}") from None


def round_decisions_bound(config: HandConfig, live: int) -> int:
    """The most decisions a betting round that starts with ``live`` players can hold.

    Each seat decides once, and again only after a level-raising event by another seat: a full bet
    or raise (at most the cap; uncapped, at most one per half bet of the largest stack) or a short
    all-in raise (each seat at most once, never the last seat with chips). The bring-in opens the round
    before anyone has acted, so it adds nothing. Hence ``live + (live - 1) * (full + live - 1)``.
    """
    cap = config.raise_cap_for(live)
    if cap is None:
        step = math.ceil(min(config.bet_size(street) for street in config.variant.street_numbers) / 2)
        cap = 1 + math.ceil(max(config.stacks) / step)
    return live + (live - 1) * (cap + live - 1)


def recall_history_slots(config: HandConfig) -> int:
    """History slots per street that no betting round can overflow: the information state keeps every decision."""
    return max(round_decisions_bound(config, live) for live in range(MIN_SEATS, config.num_seats + 1))


def max_game_length(config: HandConfig) -> int:
    """An upper bound on the decisions in one hand (one betting round per street: five in seven-card stud)."""
    return len(config.variant.streets) * recall_history_slots(config)


def utility_range(config: HandConfig) -> tuple[float, float]:
    """(least, most) chips a seat can end a hand with, relative to its start: its stack lost, or every
    other seat's stake up to its own won."""
    stacks = config.stacks
    most = max(sum(min(mine, theirs) for j, theirs in enumerate(stacks) if j != i) for i, mine in enumerate(stacks))
    return -float(max(stacks)), float(most)

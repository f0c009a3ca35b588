"""OpenSpiel game parameters: the table options as flat ints, bools and strings, and the bounds they imply.

The parameters are the fields of :class:`~razz_env.engine.table.Table` (but ``variant``, which is the
game's name), spelled and meaning the same as everywhere else, plus the games' ``allow_open_fold``.
OpenSpiel parameters cannot be lists or ``None``, so ``stacks`` and ``street_bets`` are integers
separated by spaces (``stacks`` one for every seat or one per seat; ``street_bets=""`` for none),
and a left-out option is the variant's default, as elsewhere; ``raise_cap=0`` is no cap, as
elsewhere. A bad value raises ``ValueError`` (``ConfigError``) naming the parameter and what is
allowed. The bounds (decisions per betting round, game length, utilities) are derived from the
config so that OpenSpiel's checks and the perfect-recall information state hold for every line of play.

``rules`` names a rule preset (``house``, ``wsop_2022``, ``wsop_2023``, ``wsop_2024``). OpenSpiel hands the
game every parameter, the left-out ones at their defaults (the house rules), so under another preset a rule
option at its house default counts as left out and takes the preset's value; to play a preset with one of its
options back at the house value, name ``rules=house`` and set the preset's other options.

>>> table, allow_open_fold = game_table("razz", {"num_seats": 3, "stacks": "100 200 300"})
>>> table.stacks, allow_open_fold
((100, 200, 300), False)
>>> round_decisions_bound(HandConfig.create("razz", num_seats=2), 2)
7
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from razz_env.engine.checks import as_flag
from razz_env.engine.config import MIN_SEATS, HandConfig
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.presets import HOUSE, PRESET_OPTIONS
from razz_env.engine.table import DEFAULT_SEATS, DEFAULT_STACK, Table

GAME_OPTIONS: dict[str, bool] = {"allow_open_fold": False}
"""The games' own parameter beside the table's: folding when checking is free (as in the environments)."""


def parameters_for(variant: str) -> dict[str, int | bool | str]:
    """The parameter specification of ``variant``: the table options with the variant's defaults (the
    open-pair rule in stud games only), and :data:`GAME_OPTIONS`.

    >>> {name: parameters_for("minirazz")[name] for name in ("ante", "bring_in", "small_bet", "big_bet", "raise_cap")}
    {'ante': 1, 'bring_in': 1, 'small_bet': 2, 'big_bet': 4, 'raise_cap': 2}
    """
    return {**Table(variant).to_params(), "stacks": str(DEFAULT_STACK), "num_seats": DEFAULT_SEATS, **GAME_OPTIONS}


def game_table(variant: str, params: Mapping[str, Any]) -> tuple[Table, bool]:
    """The table ``params`` describe (unset ones take their defaults) and ``allow_open_fold``; ``ValueError``
    names a bad parameter."""
    spec = parameters_for(variant)
    unknown = sorted(shown(key) for key in params if key not in spec)
    if unknown:
        raise ConfigError(f"unknown parameter(s) {', '.join(unknown)}; known: {', '.join(spec)}")
    for name, value in params.items():
        if type(value) is not type(spec[name]):
            raise ConfigError(f"{name}: expected {type(spec[name]).__name__}, got {shown(value)}")
    table_params = {name: value for name, value in params.items() if name not in GAME_OPTIONS}
    if table_params.get("rules", HOUSE) != HOUSE:  # OpenSpiel fills in the house defaults: the preset's apply
        table_params = {name: value for name, value in table_params.items()
                        if name not in PRESET_OPTIONS or value != spec[name]}
    open_fold = as_flag("allow_open_fold", params.get("allow_open_fold", GAME_OPTIONS["allow_open_fold"]))
    return Table.from_params(variant, table_params).require_decisions(), open_fold


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

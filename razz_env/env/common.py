"""What both environments share: keyword table options into a validated config.

``table_config(**options)`` turns the environments' keyword arguments into a
validated :class:`~razz_env.engine.config.HandConfig`. The action translator they
share is :class:`razz_env.encoding.actions.ActionTable`.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from razz_env.engine.config import MAX_SEATS, MIN_SEATS, HandConfig
from razz_env.engine.errors import ConfigError

DEFAULT_PLAYERS = 2


def table_config(**options: Any) -> HandConfig:
    """A validated config from the environments' table keywords; an unknown keyword names the known ones.

    The keywords and their defaults are those of :func:`_table_config`.
    """
    known = inspect.signature(_table_config).parameters
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise TypeError(f"unknown option(s) {unknown}; table options: {', '.join(known)}")
    return _table_config(**options)


def _table_config(
    variant: str = "razz",
    num_players: int | None = None,
    ante: int = 1,
    bring_in: int = 2,
    small_bet: int = 5,
    big_bet: int = 10,
    street_bets: Sequence[int] | None = None,
    starting_stacks: int | Sequence[int] = 200,
    raise_cap: int | None = 4,
    heads_up_uncapped: bool = False,
    open_pair_big_bet: bool | None = None,
) -> HandConfig:
    """A validated config from the environments' keywords (``num_players`` defaults to the stack list or 2).

    Raises ``ValueError`` (``ConfigError``) naming the bad option, including a table where at most one
    seat has chips behind the ante: no one could ever make a decision.
    """
    if isinstance(starting_stacks, int) and not isinstance(starting_stacks, bool):
        players = DEFAULT_PLAYERS if num_players is None else num_players
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_SEATS <= players <= MAX_SEATS:
            raise ConfigError(f"num_players: expected an int from {MIN_SEATS} to {MAX_SEATS}, got {players!r}")
        stacks = [starting_stacks] * players
    elif isinstance(starting_stacks, Sequence) and not isinstance(starting_stacks, str):
        stacks = list(starting_stacks)
        if num_players is not None and num_players != len(stacks):
            raise ConfigError(f"starting_stacks: {len(stacks)} stacks given for num_players={num_players}")
    else:
        raise ConfigError(f"starting_stacks: expected an int or a list of ints, got {starting_stacks!r}")
    config = HandConfig.create(
        variant, stacks=stacks, ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet,
        street_bets=street_bets, raise_cap=raise_cap, heads_up_uncapped=heads_up_uncapped,
        open_pair_big_bet=open_pair_big_bet,
    )
    if sum(stack > ante for stack in config.stacks) < 2:
        raise ConfigError(f"starting_stacks: at most one seat has chips behind the ante ({ante}), "
                          "so no seat would ever make a decision")
    return config

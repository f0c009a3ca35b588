"""What both environments share: keyword table options, the action translator and reward scaling.

``table_config(**options)`` turns the environments' keyword arguments into a
validated :class:`~razz_env.engine.config.HandConfig`; :class:`ActionTable`
turns the engine's legal actions into the five-id mask and an id back into an
engine action, caching both per legal set (the hot path of every step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from razz_env.encoding.actions import ACTION_NAMES, ENGINE_TO_ID, NUM_ACTIONS, action_mask
from razz_env.engine.actions import Action
from razz_env.engine.config import MAX_SEATS, MIN_SEATS, HandConfig
from razz_env.engine.errors import ConfigError

DEFAULT_PLAYERS = 2


def table_config(
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


class LegalIds(NamedTuple):
    """One legal set, translated: the int8 mask and, per action id, the engine action (or ``None``)."""

    mask: np.ndarray
    engine: tuple[Action | None, ...]


class ActionTable:
    """Five-id masks and id -> engine action for each legal set, cached (legal sets are few)."""

    __slots__ = ("allow_open_fold", "_cache")

    def __init__(self, allow_open_fold: bool = False) -> None:
        if not isinstance(allow_open_fold, bool):
            raise ConfigError(f"allow_open_fold: expected true/false, got {allow_open_fold!r}")
        self.allow_open_fold = allow_open_fold
        self._cache: dict[tuple[Action, ...], LegalIds] = {}

    def lookup(self, legal: tuple[Action, ...]) -> LegalIds:
        """The translation of ``legal`` (built on first sight)."""
        hit = self._cache.get(legal)
        if hit is None:
            mask = action_mask(legal, self.allow_open_fold)
            mask.flags.writeable = False
            engine: list[Action | None] = [None] * NUM_ACTIONS
            for action in legal:
                if mask[ENGINE_TO_ID[action]]:
                    engine[ENGINE_TO_ID[action]] = action
            hit = self._cache[legal] = LegalIds(mask, tuple(engine))
        return hit

    def mask(self, legal: tuple[Action, ...]) -> np.ndarray:
        """A fresh int8 mask over the five ids (all zero when ``legal`` is empty)."""
        return self.lookup(legal).mask.copy()

    def to_engine(self, who: str, action: object, legal: tuple[Action, ...]) -> Action:
        """The engine action for id ``action``; ``ValueError`` naming ``who``, the action and the legal ids."""
        engine = self.lookup(legal).engine
        try:
            index = action.__index__()  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            index = -1
        if 0 <= index < NUM_ACTIONS:
            chosen = engine[index]
            if chosen is not None:
                return chosen
        raise ValueError(f"{who}: action {action!r} is not legal now; {describe_legal(engine)}")


def describe_legal(engine: Sequence[Action | None]) -> str:
    """``"legal ids: 1 (check_call), 2 (bet_raise)"``, or that none is legal."""
    ids = [f"{i} ({ACTION_NAMES[i]})" for i, a in enumerate(engine) if a is not None]
    return "legal ids: " + ", ".join(ids) if ids else "no action is legal (not this seat's turn or the hand is over)"

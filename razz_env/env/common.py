"""What both environments share: keyword table options into a validated config, and reset options.

``table_config(**options)`` turns the environments' keyword arguments into a
validated :class:`~razz_env.engine.config.HandConfig`; ``reset_seed`` and
``deal_options`` check what ``reset(seed=..., options=...)`` receives before the
environment changes anything. The action translator they share is
:class:`razz_env.encoding.actions.ActionTable`.
"""

from __future__ import annotations

import inspect
import operator
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from razz_env.engine.checks import as_int
from razz_env.engine.config import MAX_SEATS, MIN_SEATS, HandConfig
from razz_env.engine.dealing import DeckDealer, ExplicitDealer
from razz_env.engine.errors import ConfigError, shown

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
    if num_players is not None:
        num_players = as_int("num_players", num_players, MIN_SEATS, MAX_SEATS)
    try:
        one_stack = None if isinstance(starting_stacks, bool) else operator.index(starting_stacks)
    except TypeError:
        one_stack = None
    if one_stack is not None:
        stacks = [one_stack] * (DEFAULT_PLAYERS if num_players is None else num_players)
    elif hasattr(starting_stacks, "__len__") and not isinstance(starting_stacks, (str, bytes, Mapping)):
        stacks = starting_stacks
        if num_players is not None and num_players != len(stacks):
            raise ConfigError(f"starting_stacks: {len(stacks)} stacks given for num_players={num_players}")
    else:
        raise ConfigError(f"starting_stacks: expected an int or a list of ints, got {shown(starting_stacks)}")
    config = HandConfig.create(
        variant, stacks=stacks, ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet,
        street_bets=street_bets, raise_cap=raise_cap, heads_up_uncapped=heads_up_uncapped,
        open_pair_big_bet=open_pair_big_bet,
    )
    if sum(stack > ante for stack in config.stacks) < 2:
        raise ConfigError(f"starting_stacks: at most one seat has chips behind the ante ({ante}), "
                          "so no seat would ever make a decision")
    return config


DEAL_OPTIONS = ("deck", "cards")


def reset_seed(seed: object, minimum: int | None = None) -> int | None:
    """``reset``'s seed as a plain int (numpy integers too), or ``ConfigError`` naming it."""
    return None if seed is None else as_int("seed", seed, minimum)


def deal_options(options: object, num_seats: int) -> dict[str, Any]:
    """``HandState`` keywords for the deal ``reset(options=...)`` chooses: ``{"deck": [...]}`` or
    ``{"cards": [...]}``, checked now so that every line the agents may play can be dealt.

    Explicit cards must list all 7 cards of every seat; at 8 seats, where who gets a 7th-street card depends
    on who folds, only a deck can fix the deal. Unknown keys are ignored with a warning.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ConfigError(f"options: expected a dict, got {shown(options)}")
    unknown = sorted(shown(key) for key in options if key not in DEAL_OPTIONS)
    if unknown:  # a warning, not an error: PettingZoo's API test resets with options={"options": 1}
        warnings.warn(f"options: ignoring unknown key(s) [{', '.join(unknown)}]; reset options: "
                      f"{', '.join(DEAL_OPTIONS)}", stacklevel=3)
    deal = {key: options[key] for key in DEAL_OPTIONS if options.get(key) is not None}
    if "deck" in deal:
        if len(deal) > 1:
            raise ConfigError("options: give either a deck or cards, not both")
        DeckDealer(deal["deck"], num_seats)
        return deal
    if "cards" in deal:
        if num_seats == MAX_SEATS:
            raise ConfigError(f"cards: at {MAX_SEATS} seats who gets a 7th-street card depends on who folds, so "
                              "per-seat cards cannot cover every line of play; give options={'deck': [...]} instead")
        dealer = ExplicitDealer(deal["cards"], None, num_seats)
        short = next((seat for seat, held in enumerate(dealer.cards) if len(held) < 7), None)
        if short is not None:
            raise ConfigError(f"cards[{short}]: the agents may play any line, so every seat must list all 7 of its "
                              f"cards in dealing order; seat {short} lists {len(dealer.cards[short])}")
    return deal

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
from razz_env.engine.config import MAX_SEATS, MIN_SEATS, STREET_NAMES, VARIANT_DEFAULT, HandConfig, max_seats
from razz_env.engine.dealing import DeckDealer, ExplicitDealer
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.variants import get_variant

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
    ante: int | None = None,
    bring_in: int | None = None,
    small_bet: int | None = None,
    big_bet: int | None = None,
    street_bets: Sequence[int] | None = None,
    starting_stacks: int | Sequence[int] = 200,
    raise_cap: int | None = VARIANT_DEFAULT,
    heads_up_uncapped: bool = False,
    open_pair_big_bet: bool | None = None,
) -> HandConfig:
    """A validated config from the environments' keywords (``num_players`` defaults to the stack list or 2).

    The stakes left ``None`` and ``raise_cap`` left out are the variant's (``variant.default_stakes``, 1/2/5/10 in
    the seven-card games and 1/1/2/4 in MiniRazz; ``default_raise_cap``, 4 or 2); ``raise_cap=None`` is no cap.
    Raises ``ValueError`` (``ConfigError``) naming the bad option, including a table where at most one
    seat has chips behind the ante: no one could ever make a decision.
    """
    declared = get_variant(variant)
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
    most = max_seats(declared)
    if len(stacks) > most:
        option = "num_players" if num_players is not None else "starting_stacks"
        raise ConfigError(f"{option}: {declared.name} seats {MIN_SEATS} to {most} (its {len(declared.deck)}-card deck "
                          f"deals {declared.cards_per_seat} cards a seat), got {len(stacks)} seats")
    config = HandConfig.create(
        variant, stacks=stacks, ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet,
        street_bets=street_bets, raise_cap=raise_cap, heads_up_uncapped=heads_up_uncapped,
        open_pair_big_bet=open_pair_big_bet,
    )
    ante = config.stakes.ante
    if sum(stack > ante for stack in config.stacks) < 2:
        raise ConfigError(f"starting_stacks: at most one seat has chips behind the ante ({ante}), "
                          "so no seat would ever make a decision")
    return config


DEAL_OPTIONS = ("deck", "cards")


def reset_seed(seed: object, minimum: int | None = None) -> int | None:
    """``reset``'s seed as a plain int (numpy integers too), or ``ConfigError`` naming it."""
    return None if seed is None else as_int("seed", seed, minimum)


def deal_options(options: object, config: HandConfig) -> dict[str, Any]:
    """``HandState`` keywords for the deal ``reset(options=...)`` chooses: ``{"deck": [...]}`` or
    ``{"cards": [...]}``, checked now against ``config``'s variant so that every line the agents may play
    can be dealt.

    Explicit cards must list all the cards of every seat (7 in seven-card stud, 3 in MiniRazz); where the deck
    is too short for every seat's last card (stud at 8 seats), who gets one depends on who folds, so only a
    deck can fix the deal. Unknown keys are ignored with a warning.
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
    variant, seats = config.variant, config.num_seats
    if "deck" in deal:
        if len(deal) > 1:
            raise ConfigError("options: give either a deck or cards, not both")
        DeckDealer(deal["deck"], config)
        return deal
    if "cards" in deal:
        per_seat = variant.cards_per_seat
        if seats * per_seat > len(variant.deck):
            last = STREET_NAMES[variant.street_numbers[-1]]
            raise ConfigError(f"cards: at {seats} seats who gets a {last}-street card depends on who folds, so "
                              "per-seat cards cannot cover every line of play; give options={'deck': [...]} instead")
        dealer = ExplicitDealer(deal["cards"], None, config)
        short = next((seat for seat, held in enumerate(dealer.cards) if len(held) < per_seat), None)
        if short is not None:
            raise ConfigError(f"cards[{short}]: the agents may play any line, so every seat must list all "
                              f"{per_seat} of its cards in dealing order; seat {short} lists "
                              f"{len(dealer.cards[short])}")
    return deal

"""What the environments share: the table they play (keywords or ``table=``), and reset options.

``env_table(table, **options)`` turns the environments' table keywords (the fields of
:class:`~razz_env.engine.table.Table`) or a ready ``table=Table(...)`` into the table they play;
``reset_seed`` and ``deal_options`` check what ``reset(seed=..., options=...)`` receives before the
environment changes anything. The action translator they share is
:class:`razz_env.encoding.actions.ActionTable`.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from razz_env.engine.checks import as_int
from razz_env.engine.config import STREET_NAMES, HandConfig
from razz_env.engine.dealing import DeckDealer, ExplicitDealer
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.table import TABLE_KEYS, Table


def env_table(table: Table | None = None, **options: Any) -> Table:
    """``table``, or the :class:`Table` the keyword ``options`` describe; an unknown keyword names the known ones.

    With ``table`` given, the only option allowed is its own ``variant`` (which the Gymnasium ids pass). A table
    where at most one seat has chips behind the ante is refused: no seat would ever act.
    """
    unknown = sorted(set(options) - set(TABLE_KEYS))
    if unknown:
        raise TypeError(f"unknown option(s) {unknown}; table options: table, {', '.join(TABLE_KEYS)}")
    if table is None:
        return Table(**options).require_decisions()
    if not isinstance(table, Table):
        raise ConfigError(f"table: expected a razz_env.Table, got {shown(table)}")
    variant = options.pop("variant", table.variant.name)
    if options or variant not in (table.variant.name, table.variant):
        given = sorted(options) or ["variant"]
        raise ConfigError(f"table: give the table or its options ({', '.join(given)}), not both")
    return table.require_decisions()


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

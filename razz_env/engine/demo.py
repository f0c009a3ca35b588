"""Play one hand with random legal actions and print it (``razz demo``): the engine at a glance.

The actions are drawn from the legal ones (never a fold where a check is free), so the same seed gives the same
hand.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from razz_env.engine.actions import Action
from razz_env.engine.checks import limited
from razz_env.engine.config import HandConfig, max_seats, seats_problem
from razz_env.engine.errors import ConfigError
from razz_env.engine.presets import PRESETS
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState
from razz_env.engine.text import render_hand
from razz_env.engine.variants import VARIANTS, get_variant

DEMO_SEATS = 4


@dataclass(frozen=True)
class Args:
    """``razz demo``'s settings (its flags; :func:`run`)."""

    variant: str = limited("razz", choices=tuple(VARIANTS))
    """the game"""
    seats: int | None = None
    """players at the table, 2 to 8, as many as the variant's deck deals (default 4, or fewer when the deck deals
    fewer)"""
    seed: int = 0
    """seed of the deal and the random actions"""
    rules: str = limited("house", choices=tuple(PRESETS))
    """the rule preset (docs/rules.md, Rule presets)"""
    record: bool = False
    """also print the hand record (JSON)"""


def random_hand(variant: str, seats: int, seed: int, rules: str = "house") -> HandState:
    """One finished hand of random legal actions (no fold where a check is free).

    >>> random_hand("razz", 2, seed=0).is_over
    True
    """
    hand = HandState(HandConfig.create(variant, num_seats=seats, rules=rules), seed=seed)
    chooser = random.Random(seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        if Action.CHECK in legal:
            legal = tuple(a for a in legal if a is not Action.FOLD)
        hand.act(chooser.choice(legal))
    return hand


def run(args: Args) -> int:
    """``razz demo``: the hand as text (and its record)."""
    variant = get_variant(args.variant)
    seats = min(DEMO_SEATS, max_seats(variant)) if args.seats is None else args.seats
    problem = seats_problem(variant, seats)
    if problem is not None:
        raise ConfigError(f"--seats: {problem}")
    hand = random_hand(args.variant, seats, args.seed, args.rules)
    print(render_hand(hand, viewer=None))
    if args.record:
        print(json.dumps(to_record(hand)))
    return 0

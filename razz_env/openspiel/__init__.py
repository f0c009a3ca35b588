"""OpenSpiel games for every variant: importing this package registers them with ``pyspiel``.

Needs the ``openspiel`` extra (``pip install razz-env[openspiel]``); ``import razz_env`` never loads it.

============================  ==================================================================
game                          variant
============================  ==================================================================
``razz_env_razz``             razz (ace-to-five low)
``razz_env_action_razz``      action razz (a J, Q or K qualifies)
``razz_env_stud``             seven-card stud, high
``razz_env_stud8``            seven-card stud hi/lo, eight or better
``razz_env_minirazz``         MiniRazz: A-6 in two suits, one down and one up card, then one up
                              card; the best three-card low (stakes 1/1/2/4, cap 2)
``razz_env_minirazz_tiny``    MiniRazz on A-3 (6 cards): small enough for exact checks in tests
``razz_env_minirazz_small``   MiniRazz on A-4 (8 cards)
``razz_env_minirazz_large``   MiniRazz with a third street (one more up card), best three of four
============================  ==================================================================

One game per entry of :data:`~razz_env.engine.variants.VARIANTS` (:data:`GAME_NAMES`). Parameters
(:func:`~razz_env.openspiel.params.parameters_for`): the fields of :class:`razz_env.Table`, spelled
and meaning the same as in the environments and the YAML configs: ``num_seats`` (2-8, as many as the
deck can deal to), ``stacks`` (integers separated by spaces: one for every seat, or one per seat),
``ante``, ``bring_in``, ``small_bet``, ``big_bet`` (the stakes default to the variant's: 1/2/5/10 in the
seven-card games, 1/1/2/4 in MiniRazz), ``street_bets`` (one size per street, separated by spaces),
``raise_cap`` (0 = no cap; default the variant's: 4, MiniRazz 2), ``heads_up_uncapped``, and in stud
and stud8 ``open_pair_big_bet``; and the games' own ``allow_open_fold``. Chance outcomes are indices
into the variant's deck (the card id in the 52-card games). Returns are in chips. ``docs/frameworks.md``
has the details.

>>> import pyspiel
>>> game = pyspiel.load_game("razz_env_razz", {"num_seats": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 5, 52)
>>> pyspiel.load_game("razz_env_minirazz").max_chance_outcomes()
12
"""

from __future__ import annotations

from razz_env.openspiel.deal import ChanceHand, Slot
from razz_env.openspiel.game import GAME_NAMES, StudGame, StudState
from razz_env.openspiel.observer import StudObserver
from razz_env.openspiel.params import game_table, parameters_for

__all__ = ["GAME_NAMES", "ChanceHand", "Slot", "StudGame", "StudObserver", "StudState", "game_table",
           "parameters_for"]

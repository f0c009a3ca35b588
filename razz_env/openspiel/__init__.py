"""OpenSpiel games for every variant: importing this package registers them with ``pyspiel``.

Needs the ``openspiel`` extra (``pip install razz-env[openspiel]``); ``import razz_env`` never loads it.

========================  ==========================================
game                      variant
========================  ==========================================
``razz_env_razz``         razz (ace-to-five low)
``razz_env_action_razz``  action razz (a J, Q or K qualifies)
``razz_env_stud``         seven-card stud, high
``razz_env_stud8``        seven-card stud hi/lo, eight or better
========================  ==========================================

Parameters (:data:`~razz_env.openspiel.params.TABLE_PARAMETERS`, the environments' defaults):
``players`` (2-8), ``starting_stack`` or ``stacks`` (space-separated, one per seat), ``ante``,
``bring_in``, ``small_bet``, ``big_bet``, ``street_bets`` (five sizes, 3rd to 7th street),
``raise_cap`` (0 = no cap), ``heads_up_uncapped``, ``allow_open_fold``, and in stud and stud8
``open_pair_big_bet``. Returns are in chips. ``docs/frameworks.md`` has the details.

>>> import pyspiel
>>> game = pyspiel.load_game("razz_env_razz", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 5, 52)
"""

from __future__ import annotations

from razz_env.openspiel.deal import ChanceHand, Slot
from razz_env.openspiel.game import GAME_NAMES, StudGame, StudState
from razz_env.openspiel.observer import StudObserver
from razz_env.openspiel.params import TABLE_PARAMETERS, table_from_params

__all__ = ["GAME_NAMES", "TABLE_PARAMETERS", "ChanceHand", "Slot", "StudGame", "StudObserver", "StudState",
           "table_from_params"]

"""Solving small razz-family games exactly: the game tree, CFR+, best response and exploitability.

``docs/solving.md`` describes the game, the exact rank reduction, the solver and the measured figures.

>>> from razz_env.solve import CFRPlus, build_game, exploitability
>>> game = build_game("minirazz_tiny")
>>> solver = CFRPlus(game)
>>> _ = solver.run(iterations=20)
>>> exploitability(game, solver.average_policy()).mbb < 100
True
"""

from razz_env.solve.agent import TabularPolicyAgent, policy_from_agent
from razz_env.solve.best_response import Exploitability, best_response_value, exploitability
from razz_env.solve.cfr import SOLVERS, CFRPlus, CFRSolver, Checkpoint, DiscountedCFR
from razz_env.solve.game import Game, build_game
from razz_env.solve.keys import infoset_key
from razz_env.solve.policy import TabularPolicy, translate

__all__ = [
    "SOLVERS", "CFRPlus", "CFRSolver", "Checkpoint", "DiscountedCFR", "Exploitability", "Game", "TabularPolicy",
    "TabularPolicyAgent", "best_response_value", "build_game", "exploitability", "infoset_key", "policy_from_agent",
    "translate",
]

"""The solver's exploitability equals OpenSpiel's on the registered tiny MiniRazz game.

OpenSpiel's ``exploitability.exploitability`` (NashConv / 2, in chips) walks the suited game of
:mod:`razz_env.openspiel` with its own best response; a policy of the solver answers it through
:func:`razz_env.solve.keys.infoset_key` on the engine hand each OpenSpiel state wraps. About half a
minute per measure, so ``slow``.
"""

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel (the openspiel extra) is not installed")

import pyspiel
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

import razz_env.openspiel  # noqa: F401  (registers the games)
from razz_env.solve.best_response import exploitability
from razz_env.solve.cfr import CFRPlus
from razz_env.solve.game import build_game
from razz_env.solve.keys import infoset_key
from razz_env.solve.policy import TabularPolicy


class SolverPolicy(openspiel_policy.Policy):
    """A solver policy as an OpenSpiel policy: the key of the wrapped engine hand, its probabilities."""

    def __init__(self, game, policy: TabularPolicy) -> None:
        super().__init__(game, [0, 1])
        self.policy = policy

    def action_probabilities(self, state, player_id=None):
        probabilities = self.policy.probabilities(infoset_key(state.hand, state.current_player()))
        return {action: float(probabilities[action]) for action in state.legal_actions()}


@pytest.mark.slow
def test_exploitability_matches_openspiel_on_the_tiny_game():
    game = pyspiel.load_game("razz_env_minirazz_tiny")
    tree = build_game("minirazz_tiny")
    uniform = TabularPolicy.uniform(tree)
    assert openspiel_exploitability.exploitability(game, SolverPolicy(game, uniform)) == pytest.approx(
        exploitability(tree, uniform).chips, abs=1e-9)
    solver = CFRPlus(tree)
    solver.run(iterations=100, check_every=100)
    solved = solver.average_policy()
    measured = openspiel_exploitability.exploitability(game, SolverPolicy(game, solved))
    assert measured == pytest.approx(exploitability(tree, solved).chips, abs=1e-9)
    assert measured < 0.01

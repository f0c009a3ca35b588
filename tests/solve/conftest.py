"""Shared fixtures of the solver tests: the tiny game and a CFR+ policy for it (built once per session)."""

import pytest

from razz_env.solve.cfr import CFRPlus
from razz_env.solve.game import build_game

SOLVED_ITERATIONS = 60


@pytest.fixture(scope="session")
def tiny():
    return build_game("minirazz_tiny")


@pytest.fixture(scope="session")
def solved(tiny):
    solver = CFRPlus(tiny)
    solver.run(iterations=SOLVED_ITERATIONS, check_every=SOLVED_ITERATIONS)
    policy = solver.average_policy()
    policy.exploitability_mbb = solver.history[-1].mbb
    return policy

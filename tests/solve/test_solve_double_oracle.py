"""``razz_env.solve.double_oracle`` and ``best_response_policy``: exact PSRO on the tiny game."""

from __future__ import annotations

import numpy as np
import pytest

from razz_env.solve.best_response import best_response_policy, best_response_value, exploitability
from razz_env.solve.double_oracle import DoubleOracle, solve_symmetric
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.sweep import Sweeper
from tests.solve.test_solve_mixture import random_policy


def test_the_best_response_policy_is_pure_and_earns_the_best_response_value(tiny):
    sweeper = Sweeper(tiny)
    for target in (TabularPolicy.uniform(tiny), random_policy(tiny, 3)):
        best = best_response_policy(tiny, target, sweeper)
        best.validate()
        table = best.table()
        assert set(np.unique(table)) <= {0.0, 1.0}
        for seat in (0, 1):
            earned = sweeper.root_value(seat, best.array, target.array)
            assert earned == pytest.approx(best_response_value(tiny, target, seat, sweeper), abs=1e-12)


def test_the_meta_solver_finds_an_equilibrium_of_a_random_symmetric_game():
    rng = np.random.default_rng(0)
    upper = rng.normal(size=(12, 12))
    payoff = np.triu(upper, 1) - np.triu(upper, 1).T
    strategy = solve_symmetric(payoff)
    assert strategy.sum() == pytest.approx(1.0) and (strategy >= 0).all()
    assert (payoff @ strategy).max() < 0.01  # no pure strategy wins against it (the game's value is 0)


def test_the_population_grows_by_one_best_response_and_its_exploitability_falls(tiny):
    oracle = DoubleOracle(tiny)
    start = oracle.exploitability().mbb
    assert start == pytest.approx(exploitability(tiny, TabularPolicy.uniform(tiny)).mbb)
    for _ in range(12):
        oracle.iterate()
    assert len(oracle.population) == 13 and oracle.payoff.shape == (13, 13)
    np.testing.assert_allclose(oracle.payoff, -oracle.payoff.T, atol=1e-12)
    assert oracle.meta.sum() == pytest.approx(1.0)
    assert oracle.exploitability().mbb < start / 2

"""CFR+ and discounted CFR on the tiny preset: convergence, stopping rules, policies."""

import numpy as np
import pytest

from razz_env.engine.errors import ConfigError
from razz_env.solve.best_response import exploitability
from razz_env.solve.cfr import SOLVERS, CFRPlus, DiscountedCFR
from razz_env.solve.game import build_game


@pytest.fixture(scope="module")
def tiny():
    return build_game("minirazz_tiny")


@pytest.mark.parametrize("method", sorted(SOLVERS))
def test_exploitability_falls_below_one_mbb(tiny, method):
    solver = SOLVERS[method](tiny)
    history = solver.run(iterations=300, check_every=25, target_mbb=1.0)
    mbb = [point.mbb for point in history]
    assert mbb[0] > 5 * mbb[-1] and mbb[-1] < 1.0
    assert all(later < 1.5 * earlier for earlier, later in zip(mbb, mbb[1:]))  # falls, give or take noise
    assert history[-1].iteration == solver.iterations < 300
    assert exploitability(tiny, solver.average_policy()).mbb == pytest.approx(mbb[-1])


def test_cfr_plus_reaches_the_game_value(tiny):
    solver = CFRPlus(tiny)
    solver.run(iterations=400, check_every=400)
    result = solver.exploitability()
    assert result.mbb < 0.2
    assert abs(result.value) <= 2 * result.chips + 1e-9  # the seats are symmetric: the game is worth 0


def test_policies_are_distributions_over_the_legal_ids(tiny):
    solver = DiscountedCFR(tiny)
    solver.run(iterations=20, check_every=20)
    for policy in (solver.average_policy(), solver.current_policy()):
        policy.validate()
        assert policy.iterations == 20 and policy.method == "dcfr"


def test_run_reports_every_check_and_calls_back(tiny):
    seen = []
    solver = CFRPlus(tiny)
    history = solver.run(iterations=7, check_every=3, callback=seen.append)
    assert [p.iteration for p in history] == [3, 6, 7] and seen == history == solver.history
    assert all(b.seconds >= a.seconds for a, b in zip(history, history[1:]))
    again = solver.run(iterations=2, check_every=5)
    assert [p.iteration for p in again] == [9] and len(solver.history) == 4


def test_run_stops_on_seconds(tiny):
    solver = CFRPlus(tiny)
    history = solver.run(seconds=0.05, check_every=1000)
    assert len(history) == 1 and history[0].seconds >= 0.05


@pytest.mark.parametrize(("kwargs", "message"), [
    ({}, "give iterations, target_mbb or seconds"),
    ({"iterations": 0}, "iterations"),
    ({"iterations": 5, "check_every": 0}, "check_every"),
    ({"target_mbb": -1}, "target_mbb: expected a positive number"),
    ({"seconds": 0}, "seconds: expected a positive finite number"),
    ({"seconds": float("inf")}, "seconds: expected a positive finite number, got inf"),
])
def test_run_refuses_bad_arguments(tiny, kwargs, message):
    solver = CFRPlus(tiny)
    with pytest.raises(ConfigError, match=message):
        solver.run(**kwargs)
    assert solver.iterations == 0 and np.all(solver.regret == 0)

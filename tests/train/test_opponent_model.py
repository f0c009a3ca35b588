"""The opponent model a sampled CFR run exploits, checked exactly on MiniRazz's tiny game: the restricted Nash
response against a model of the calling station is its best response at weight 1 (the exact best response's value,
the oracle), exploits it nearly as well at weight 1/2 while giving up far less, and the plain run neither."""

import numpy as np
import pytest

from razz_env.agents.registry import make_agent
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.solve import exploitability, policy_from_agent
from razz_env.solve.game import build_game
from razz_env.solve.sampled_cfr import SampledCFR
from razz_env.solve.sampled_policy import SampledCFRAgent
from razz_env.solve.sweep import Sweeper
from razz_env.train.opponent_model import ModelSpec, build_model

pytestmark = pytest.mark.filterwarnings("ignore::numba.NumbaPerformanceWarning")

TINY = HandConfig.create("minirazz_tiny")


@pytest.fixture(scope="module")
def measured():
    """For the plain run and the runs against the model at weights 1/2 and 1 (16,000 iterations each): the exact
    value (chips a hand, both seats) of the average policy against the calling station, and its exploitability."""
    tiny = build_game("minirazz_tiny")
    sweeper = Sweeper(tiny)
    target = policy_from_agent(tiny, make_agent("calling_station"), check_suits=0)
    figures = {}
    for weight in (None, 0.5, 1.0):
        spec = ModelSpec(("calling_station",), (weight,), ("random",), hands=3_000, full=1) if weight else None
        solver = SampledCFR(TINY, seed=0, model=build_model(spec, TINY, "exact") if spec else None)
        solver.run(16_000)
        policy = policy_from_agent(tiny, SampledCFRAgent(solver.average_policy(), seed=0), check_suits=0)
        value = sum(sweeper.root_value(seat, policy.array, target.array) for seat in (0, 1)) / 2
        figures[weight] = value, exploitability(tiny, policy).mbb
    figures["best response"] = exploitability(tiny, target).chips
    return figures


def test_at_weight_one_the_run_is_the_models_best_response(measured):
    """1.432 chips a hand measured, the exact best response's 1.433; the plain run's 1.038."""
    assert measured[1.0][0] == pytest.approx(measured["best response"], abs=0.01)
    assert measured[None][0] < measured["best response"] - 0.3


def test_at_weight_one_half_it_exploits_nearly_as_much_and_gives_up_far_less(measured):
    """1.407 chips a hand against it at 61.8 mbb/hand exploitability, where weight 1 gives up 685.5 and the plain
    run 8.6 (measured)."""
    value, mbb = measured[0.5]
    assert value > measured["best response"] - 0.05
    assert mbb < measured[1.0][1] / 5
    assert measured[None][1] < mbb


@pytest.mark.parametrize(("settings", "message"), [
    ({"agents": ["razz_heuristic"], "weights": [0.5]}, "partners missing"),
    ({"agents": "razz_heuristic", "weights": [0.5], "partners": ["random"]}, "agents: expected a list"),
    ({"agents": ["razz_heuristic"], "weights": [0.5, 0.2], "partners": ["random"]}, "expected one per model"),
    ({"agents": ["a", "b"], "weights": [0.6, 0.6], "partners": ["random"]}, "at most 1 together"),
    ({"agents": ["a"], "weights": [0.5], "partners": ["random"], "hands": 0}, "model: hands"),
    ({"agents": ["a"], "weights": [0.5], "partners": ["random"], "depth": 3}, "unknown key 'depth'"),
    (["razz_heuristic"], "expected a mapping"),
    ({"agents": ["a"], "weights": [0.5], "partners": ["random"], "streets": "3"}, "streets: expected a list"),
    ({"agents": ["a"], "weights": [0.5], "partners": ["random"], "streets": [0]}, "model: streets"),
])
def test_a_bad_spec_is_refused_by_name(settings, message):
    with pytest.raises(ConfigError, match=message):
        ModelSpec.create(settings)


def test_a_spec_reads_back_its_settings():
    spec = ModelSpec.create({"agents": ["razz_heuristic", "ppo_razz_psro"], "weights": [0.25, 0.25],
                             "partners": ["random"], "hands": 500, "seed": 7, "full": 3})
    assert ModelSpec.create(spec.settings()) == spec
    assert spec.settings()["agents"] == ["razz_heuristic", "ppo_razz_psro"]
    assert "streets" not in spec.settings()  # as a spec written before streets existed reads
    third = ModelSpec.create({**spec.settings(), "streets": [3]})
    assert third.streets == (3,) and ModelSpec.create(third.settings()) == third and third != spec


def test_a_model_of_some_streets_holds_only_their_keys():
    """A model of the maniac's 3rd street only: every key of it is a 3rd-street key, each one the whole-hand model
    holds too, with the same choices there; the whole-hand model also holds later streets'."""
    from razz_env.solve.abstraction import bucket_fields

    razz = HandConfig.create("razz", stacks=1000)
    whole = build_model(ModelSpec(("maniac",), (0.3,), ("razz_heuristic",), hands=300), razz, "razz_buckets")
    third = build_model(ModelSpec(("maniac",), (0.3,), ("razz_heuristic",), hands=300, streets=(3,)), razz,
                        "razz_buckets")
    streets = {bucket_fields(int(key))["street"] for key in third.keys}
    assert streets == {0} and len(third.keys) > 10
    assert {bucket_fields(int(key))["street"] for key in whole.keys} == {0, 1, 2, 3, 4}
    at = np.searchsorted(whole.keys, third.keys)
    assert np.array_equal(whole.keys[at], third.keys)
    assert np.array_equal(whole.probabilities[at], third.probabilities)
    with pytest.raises(ConfigError, match="razz plays streets 3 to 7, got 8"):
        build_model(ModelSpec(("maniac",), (0.3,), ("random",), hands=1, streets=(8,)), razz, "razz_buckets")


def test_agents_are_watched_on_one_torch_thread_and_the_count_is_restored(monkeypatch):
    """A network agent's choices (and so the model) must not depend on the machine's thread count."""
    torch = pytest.importorskip("torch")
    from razz_env.train import opponent_model

    seen = []
    monkeypatch.setattr(opponent_model, "observe", lambda *args: seen.append(torch.get_num_threads()) or (
        np.array([1]), np.array([0])))
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        build_model(ModelSpec(("random",), (0.5,), ("random",), hands=1), TINY, "exact")
        assert seen == [1] and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)

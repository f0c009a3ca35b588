"""External-sampling MCCFR on the batched kernels: it approaches the exact equilibrium of a game the exact solver
measures (the oracle), it is seeded, and a run cut at a checkpoint repeats the uninterrupted one."""

from pathlib import Path

import numpy as np
import pytest

from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.solve import TabularPolicy, exploitability, policy_from_agent
from razz_env.solve.sampled_cfr import NUM_IDS, SampledCFR, opponent_model
from razz_env.solve.sampled_policy import SampledCFRAgent

pytestmark = pytest.mark.filterwarnings("ignore::numba.NumbaPerformanceWarning")

TINY = HandConfig.create("minirazz_tiny")


def measured(tiny, solver: SampledCFR) -> float:
    """The exact exploitability (mbb/hand) of the solver's average policy as its agent plays it."""
    agent = SampledCFRAgent(solver.average_policy(), seed=0)
    return exploitability(tiny, policy_from_agent(tiny, agent, check_suits=0)).mbb


def test_the_average_policy_approaches_the_exact_equilibrium(tiny, solved):
    """Measured exactly on the tiny game's whole tree: far below uniform play after 2,000 iterations, and at
    16,000 within 15 mbb/hand (8.6 measured) of the CFR+ equilibrium's own figure."""
    uniform = exploitability(tiny, TabularPolicy.uniform(tiny)).mbb
    solver = SampledCFR(TINY, seed=0)
    solver.run(2_000)
    early = measured(tiny, solver)
    solver.run(14_000)
    late = measured(tiny, solver)
    assert early < uniform / 2
    assert late < early / 3
    assert late < solved.exploitability_mbb + 15


def test_a_run_cut_at_a_checkpoint_repeats_the_uninterrupted_run(tmp_path):
    whole = SampledCFR(TINY, seed=3)
    whole.run(600)
    cut = SampledCFR(TINY, seed=3)
    cut.run(250)
    resumed = SampledCFR.load(cut.save(tmp_path / "run.npz"))
    resumed.run(350)
    assert resumed.iterations == whole.iterations == 600
    a, b = whole.average_policy(), resumed.average_policy()
    assert np.array_equal(a.keys, b.keys)
    assert np.array_equal(a.probabilities, b.probabilities)
    assert np.array_equal(whole.table.regrets, resumed.table.regrets)


def test_the_same_run_saves_the_same_bytes_whenever_it_is_saved(tmp_path, monkeypatch):
    import time

    first, second = SampledCFR(TINY, seed=3), SampledCFR(TINY, seed=3)
    first.run(300)
    second.run(300)
    now = time.time()
    first.save(tmp_path / "first.npz")
    first.average_policy().save(tmp_path / "first_policy.npz")
    monkeypatch.setattr(time, "time", lambda: now + 86_400)  # a day later: the archive stamps no time
    second.save(tmp_path / "second.npz")
    second.average_policy().save(tmp_path / "second_policy.npz")
    for name in ("", "_policy"):
        assert (tmp_path / f"first{name}.npz").read_bytes() == (tmp_path / f"second{name}.npz").read_bytes()


def test_the_seed_sets_the_deals_and_draws():
    first, second, other = (SampledCFR(TINY, seed=seed) for seed in (5, 5, 6))
    for solver in (first, second, other):
        solver.run(300)
    assert np.array_equal(first.average_policy().probabilities, second.average_policy().probabilities)
    assert not np.array_equal(first.table.regrets, other.table.regrets)


def test_a_full_table_stops_with_the_setting_to_raise_and_keeps_its_iterations():
    solver = SampledCFR(TINY, seed=0, max_infosets=50)
    with pytest.raises(ConfigError, match="max_infosets 50"):
        solver.run(1_000)
    assert 0 < solver.iterations < 1_000
    assert solver.num_infosets == 50


@pytest.mark.parametrize(("config", "options", "error", "message"), [
    (HandConfig.create("razz", num_seats=3), {}, ConfigError, "heads-up tables; this one has 3 seats"),
    (TINY, {"abstraction": "buckets"}, ValueError, "unknown abstraction 'buckets'; known: exact"),
    (TINY, {"max_infosets": 0}, ConfigError, "max_infosets"),
    ("razz", {}, ConfigError, "expected a HandConfig, got str"),
    (TINY, {"model": {"agents": ["random"]}}, ConfigError, "model: expected an OpponentModel"),
])
def test_bad_settings_are_refused_by_name(config, options, error, message):
    with pytest.raises(error, match=message):
        SampledCFR(config, **options)


def test_a_damaged_or_foreign_checkpoint_is_refused_by_name(tmp_path):
    solver = SampledCFR(TINY, seed=0)
    solver.run(50)
    path = solver.save(tmp_path / "run.npz")
    with np.load(path) as data:
        arrays = dict(data)
    arrays["regrets"] = arrays["regrets"] + 1.0
    damaged = tmp_path / "damaged.npz"
    np.savez(damaged, **arrays)
    with pytest.raises(ConfigError, match="do not match their SHA-256"):
        SampledCFR.load(damaged)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, x=np.zeros(3))
    with pytest.raises(ConfigError, match="not a sampled CFR checkpoint"):
        SampledCFR.load(foreign)
    with pytest.raises(ConfigError, match="no such file"):
        SampledCFR.load(tmp_path / "missing.npz")


@pytest.mark.parametrize("variant, abstraction", [("razz", "razz_buckets"), ("action_razz", "action_razz_buckets"),
                                                  ("stud8", "stud8_buckets")])
def test_the_walk_keys_its_decisions_by_the_abstraction_it_was_given(variant, abstraction):
    """Every key the solver met is one the abstraction makes (a walk compiled against another version of
    ``infoset_key``, from a stale cache, hashed Action Razz's decisions as ``exact`` keys)."""
    from razz_env.solve import abstraction as module
    from razz_env.solve.abstraction import CACHE_SOURCES, bucket_fields

    solver = SampledCFR(HandConfig.create(variant, stacks=1000), abstraction=abstraction, seed=2)
    solver.run(40)
    keys = solver.table.keys[:solver.num_infosets]
    assert len(keys) > 100
    assert {next(iter(bucket_fields(int(key)))) for key in keys} == {"street"}  # each a bucket key
    assert {("own_face" in bucket_fields(int(key))) for key in keys} == {abstraction == "action_razz_buckets"}
    assert {("high" in bucket_fields(int(key))) for key in keys} == {abstraction == "stud8_buckets"}
    assert Path(module.__file__) in CACHE_SOURCES  # its cache is dropped when the abstraction changes


def synthetic_model(weights=(0.5,), full=2):
    """A model of an agent that plays the highest legal id at every key a short plain run met."""
    plain = SampledCFR(TINY, seed=1)
    plain.run(300)
    count = plain.num_infosets
    keys, legal = plain.table.keys[:count], plain.table.legal[:count]
    ids = NUM_IDS - 1 - np.argmax(legal[:, ::-1], axis=1)
    return opponent_model([(np.repeat(keys, 2), np.repeat(ids, 2))] * len(weights), weights, full)


def test_a_run_against_a_model_cut_at_a_checkpoint_repeats_the_uninterrupted_run(tmp_path):
    model = synthetic_model()
    whole = SampledCFR(TINY, seed=3, model=model)
    whole.run(600)
    cut = SampledCFR(TINY, seed=3, model=model)
    cut.run(250)
    resumed = SampledCFR.load(cut.save(tmp_path / "run.npz"))
    assert resumed.model is not None and np.array_equal(resumed.model.keys, model.keys)
    resumed.run(350)
    assert whole.adversary_infosets == resumed.adversary_infosets > 0
    for table in ("table", "adversary_table"):
        for name in ("keys", "regrets", "sums"):
            assert np.array_equal(getattr(getattr(whole, table), name), getattr(getattr(resumed, table), name))
    plain = SampledCFR(TINY, seed=3)
    plain.run(600)
    assert not np.array_equal(plain.average_policy().probabilities[:10], whole.average_policy().probabilities[:10])


def test_the_model_is_counted_per_key_and_trusted_by_its_count():
    model = opponent_model([(np.array([9, 4, 9, 9]), np.array([1, 2, 1, 3])), (np.array([5]), np.array([0]))],
                           [0.25, 0.5], full=4)
    assert model.keys.tolist() == [4, 9, 5] and model.starts.tolist() == [0, 2, 3]
    assert model.probabilities[1].tolist() == pytest.approx([0, 2 / 3, 0, 1 / 3, 0])
    assert model.confidence.tolist() == [0.25, 0.75, 0.25]
    assert model.weights.tolist() == [0.25, 0.5]


@pytest.mark.parametrize(("observed", "weights", "message"), [
    ([(np.array([1]), np.array([0]))], [0.5, 0.5], "expected one per model"),
    ([(np.array([1]), np.array([0]))], [1.5], r"each in \(0, 1\]"),
    ([(np.array([1]), np.array([0]))] * 2, [0.6, 0.6], "at most 1 together"),
    ([(np.array([1, 2]), np.array([0]))], [0.5], "as many ids as keys"),
    ([(np.array([1]), np.array([7]))], [0.5], "ids must be 0 to 4"),
])
def test_a_bad_model_is_refused_by_name(observed, weights, message):
    with pytest.raises(ConfigError, match=message):
        opponent_model(observed, weights)

"""The shipped tabular policies (``minirazz_cfr`` solved, ``minirazz_ppo`` learned): verified before they are read, as
strong as their manifest says, seatable."""

import hashlib
import json
import pickle
import random
import re
import shutil

import numpy as np
import pytest

from razz_env.agents import tabular_zoo
from razz_env.agents.registry import describe_agent, get_factory, make_agent
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import ObservationBatch, declaration_of, observe
from razz_env.engine.state import HandState
from razz_env.solve.best_response import exploitability

TABULAR = [name for name, entry in tabular_zoo.policies().items() if "abstraction" not in entry]
"""The solved and learned MiniRazz tables (the others are sampled policies of seven-card games)."""


@pytest.fixture(scope="module")
def shipped():
    return tabular_zoo.load_policy("minirazz_cfr")


@pytest.mark.parametrize("name", TABULAR)
def test_each_manifest_entry_names_its_file_its_hash_and_how_to_reproduce_it(name):
    entry = tabular_zoo.policies()[name]
    path = tabular_zoo.ZOO_DIR / entry["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
    assert entry["variant"] == "minirazz" and entry["command"].split()[0] in ("razz", "python")
    assert describe_agent(name).variants == ("minirazz",)


@pytest.mark.parametrize("name", TABULAR)
def test_each_shipped_policy_is_as_exploitable_as_its_manifest_says(name):
    policy = tabular_zoo.load_policy(name)
    measured = exploitability(policy.game, policy)
    assert measured.mbb == pytest.approx(tabular_zoo.policies()[name]["exploitability_mbb"], rel=1e-9)
    assert measured.mbb == pytest.approx(policy.exploitability_mbb, rel=1e-9)


def test_the_solved_policy_is_nearly_unexploitable(shipped):
    assert tabular_zoo.policies()["minirazz_cfr"]["command"].startswith("razz solve --game minirazz")
    assert exploitability(shipped.game, shipped).mbb < 1.0


def test_the_learned_policy_is_the_studys_run_and_mixes_as_it_learned():
    entry = tabular_zoo.policies()["minirazz_ppo"]
    assert entry["command"].startswith("python studies/minirazz_equilibrium.py --method ppo")
    assert f"--seed {entry['training_seed']}" in entry["command"]
    learned = tabular_zoo.load_policy("minirazz_ppo")
    table = learned.table()
    assert ((table > 0.01) & (table < 0.99)).any(axis=1).mean() > 0.2  # a mixed action at over a fifth of the sets
    assert 100 < learned.exploitability_mbb < 381  # between the solved policy and always calling


def test_it_declares_heads_up_minirazz_and_a_seven_card_table_is_refused():
    info = describe_agent("minirazz_cfr")
    assert info.variants == ("minirazz",) and info.seat_counts == (2,)
    agent = make_agent("minirazz_cfr")
    with pytest.raises(ValueError, match="minirazz"):
        agent.reset(0, 2, "razz")


def test_it_acts_in_batch_as_it_acts_one_by_one(shipped):
    """Every decision of 300 random MiniRazz hands, mixed across hands and seats: the same ids, probabilities
    and draws, from a batch as from ``act`` one decision after another."""
    rng = random.Random(4)
    observations = []
    for number in range(300):
        hand = HandState(shipped.game.config, seed=number)
        while not hand.is_over:
            observations.append(observe(hand, hand.actor))
            legal = np.flatnonzero(observations[-1].action_mask).tolist()
            hand.act(to_engine(rng.choice(legal), hand.legal_actions()))
    rng.shuffle(observations)
    one, many = make_agent({"type": "minirazz_cfr", "seed": 11}), make_agent({"type": "minirazz_cfr", "seed": 11})
    assert get_factory("minirazz_cfr").declaration.acts_in_batch and declaration_of(many).acts_in_batch
    assert declaration_of(tabular_zoo.load_policy_file(tabular_zoo.ZOO_DIR / "minirazz_cfr.npz")).acts_in_batch
    probabilities = np.array([one.action_probabilities(o) for o in observations])
    expected = [one.act(o) for o in observations]
    assert len(set(expected)) >= 3 and (probabilities.max(axis=1) < 0.9).mean() > 0.1  # draws matter
    assert many.act_batch(ObservationBatch.of(observations)) == expected
    assert many.rng.getstate() == one.rng.getstate()
    assert np.array_equal(many.action_probabilities_batch(observations), probabilities)


def test_it_pickles_as_its_name_and_plays_the_same_policy_after(shipped):
    agent = make_agent({"type": "minirazz_cfr", "seed": 3})
    data = pickle.dumps(agent)
    assert len(data) < 1000
    clone = pickle.loads(data)
    assert clone.name == "minirazz_cfr" and clone.seed == 3 and clone.policy is shipped


def test_a_tampered_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    for name in ("policies.json", tabular_zoo.policies()["minirazz_cfr"]["file"]):
        shutil.copy(tabular_zoo.ZOO_DIR / name, tmp_path / name)
    target = tmp_path / tabular_zoo.policies()["minirazz_cfr"]["file"]
    data = bytearray(target.read_bytes())
    data[-10] ^= 1
    target.write_bytes(bytes(data))
    monkeypatch.setattr(tabular_zoo, "ZOO_DIR", tmp_path)
    monkeypatch.setattr(tabular_zoo, "POLICIES", tmp_path / "policies.json")
    tabular_zoo.load_policy.cache_clear()
    try:
        with pytest.raises(tabular_zoo.PolicyIntegrityError, match="SHA-256"):
            tabular_zoo.load_policy("minirazz_cfr")
        target.unlink()
        with pytest.raises(tabular_zoo.PolicyIntegrityError, match="missing"):
            tabular_zoo.load_policy("minirazz_cfr")
    finally:
        tabular_zoo.load_policy.cache_clear()
    assert json.loads((tmp_path / "policies.json").read_text())["minirazz_cfr"]["variant"] == "minirazz"


@pytest.mark.parametrize(("damage", "problem"), [
    (lambda data: b"garbage here", r"not a zip archive \(it begins b'garbage '\)"),
    (lambda data: data[:300], r"a truncated or damaged zip archive \(300 bytes: "),
])
def test_a_damaged_policy_file_is_named_by_its_path(tmp_path, damage, problem):
    path = tmp_path / "policy.npz"
    path.write_bytes(damage(tabular_zoo.ZOO_DIR.joinpath("minirazz_cfr.npz").read_bytes()))
    with pytest.raises(ValueError) as err:
        make_agent(str(path))
    message = str(err.value)
    assert f"policy file {path}: not a policy file (" in message and re.search(problem, message), message
    assert "allow_pickle" not in message and "\n" not in message


def test_it_beats_random_in_a_minirazz_tournament_run_by_worker_processes(tmp_path, capsys):
    from razz_env.cli import main

    path = tmp_path / "cfr.yaml"
    output = tmp_path / "out"
    path.write_text(f"variant: minirazz\nagents: [minirazz_cfr, random]\ndeals: 200\nblock_deals: 100\nworkers: 2\n"
                    f"output: {output}\n")
    assert main(["tournament", "--config", str(path), "--quiet", "--no-plots"]) == 0
    capsys.readouterr()
    standings = {row["agent"]: row for row in json.loads((output / "summary.json").read_text())["standings"]}
    row = standings["minirazz_cfr"]
    assert row["bb_per_100"] - row["ci95"] > 0


@pytest.mark.slow
def test_the_manifest_command_reproduces_the_shipped_probabilities(tmp_path, shipped):
    from razz_env.cli import main
    from razz_env.solve.policy import TabularPolicy

    entry = tabular_zoo.policies()["minirazz_cfr"]
    args = entry["command"].split()[1:]
    assert main([*args, "--output", str(tmp_path / "again"), "--quiet", "--no-plots", "--check-every", "1000"]) == 0
    again = TabularPolicy.load(tmp_path / "again" / "policy.npz")
    assert again.header()["sha256"] == shipped.header()["sha256"]


def test_a_shipped_sampled_policy_plays_as_accepted_and_pickles_as_its_name(tmp_path, monkeypatch):
    pytest.importorskip("numba", reason="the sampled solver walks the batched engine's kernels")
    from razz_env.agents import registry
    from razz_env.engine.config import HandConfig
    from razz_env.solve.sampled_cfr import SampledCFR

    solver = SampledCFR(HandConfig.create("minirazz_tiny"), seed=0)
    solver.run(2_000)
    path = solver.average_policy().save(tmp_path / "tiny_sampled.npz")
    entry = {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "variant": "minirazz_tiny",
             "num_seats": 2, "abstraction": "exact", "threshold": 0.2, "summary": "a test's"}
    (tmp_path / "policies.json").write_text(json.dumps({"tiny_sampled": entry}))
    monkeypatch.setattr(tabular_zoo, "ZOO_DIR", tmp_path)
    monkeypatch.setattr(tabular_zoo, "POLICIES", tmp_path / "policies.json")
    monkeypatch.setitem(registry._FACTORIES, "tiny_sampled", None)  # restored (removed) after the test
    monkeypatch.setitem(registry._FACTORIES, "minirazz_cfr", registry._FACTORIES["minirazz_cfr"])
    monkeypatch.setitem(registry._FACTORIES, "minirazz_ppo", registry._FACTORIES["minirazz_ppo"])
    tabular_zoo._register_all()
    try:
        agent = make_agent("tiny_sampled", seed=3)
        assert isinstance(agent, tabular_zoo.ZooSampledAgent) and agent.threshold == 0.2
        assert describe_agent("tiny_sampled").variants == ("minirazz_tiny",)
        twin = pickle.loads(pickle.dumps(agent))
        assert (twin.name, twin.seed, twin.threshold) == ("tiny_sampled", 3, 0.2) and len(pickle.dumps(agent)) < 300
        assert make_agent({"type": "tiny_sampled", "threshold": 0.0}).threshold == 0.0
        assert make_agent({"type": "tiny_sampled", "deterministic": True}).deterministic
        data = bytearray(path.read_bytes())
        data[100] ^= 0xFF
        path.write_bytes(bytes(data))
        tabular_zoo.load_policy.cache_clear()
        with pytest.raises(tabular_zoo.PolicyIntegrityError, match="not loaded"):
            make_agent("tiny_sampled")
    finally:
        tabular_zoo.load_policy.cache_clear()


SHIPPED_SAMPLED = {"mccfr_action_razz": ("action_razz", "razz_heuristic", 0.0),
                   "mccfr_stud8": ("stud8", "stud8_heuristic", 0.0),
                   "mccfr_razz": ("razz", "razz_heuristic", 5.0)}
"""The sampled CFR agents shipped for seven-card games: each one's game, hand-crafted player and the AIVAT lower
bound its acceptance rule asked of it against each baseline (the razz flagship's: +5)."""


@pytest.mark.parametrize("name", SHIPPED_SAMPLED)
def test_a_shipped_sampled_agent_is_its_recipes_product_and_plays_as_it_was_accepted(name):
    """The file its manifest entry and recipe name, thresholded at 0.15 as accepted, its recorded acceptance above
    zero (AIVAT lower bound) against each of its game's baselines."""
    pytest.importorskip("numba", reason="the sampled solver's policies read the batched engine's abstraction")
    from razz_env import recipes

    variant, heuristic, bar = SHIPPED_SAMPLED[name]
    entry = tabular_zoo.policies()[name]
    path = tabular_zoo.ZOO_DIR / entry["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
    recipe = recipes.load_recipe(name)
    stages = recipe.stages
    assert recipe.product == f"@stage{len(stages)}/policy.npz" and recipe.manifest_entry() == entry
    assert {stage.kind for stage in stages} == {"mccfr"} and stages[-1].until == entry["iterations"]
    assert {stage.config["abstraction"] for stage in stages} == {entry["abstraction"]}
    info = describe_agent(name)
    assert info.variants == (variant,) and info.seat_counts == (2,)
    agent = make_agent(name, seed=1)
    assert isinstance(agent, tabular_zoo.ZooSampledAgent) and agent.threshold == entry["threshold"] == 0.15
    assert make_agent({"type": name, "deterministic": True}).threshold == 0.0
    rows = {row["opponent"]: row for row in entry["final_eval"]}
    assert all(rows[opponent]["aivat_ci95_low"] > bar for opponent in ("random", "calling_station", heuristic,
                                                                       "monte_carlo"))
    with pytest.raises(ValueError, match=variant):
        agent.reset(0, 2, "stud" if variant == "razz" else "razz")


@pytest.mark.parametrize("name", SHIPPED_SAMPLED)
def test_a_shipped_sampled_agent_seats_in_a_match(name):
    pytest.importorskip("numba", reason="the sampled solver's policies read the batched engine's abstraction")
    from razz_env.evaluate import match

    table = {"variant": SHIPPED_SAMPLED[name][0], "stacks": 1000}
    result = match(name, "calling_station", deals=100, table=table, seed=5)
    assert result.hands == 200 and result.bb_per_100 > 0

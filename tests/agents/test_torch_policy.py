"""``.pt`` policies of the batched PPO trainer as agents: reloading, legality, batches, pickling, matches, errors."""

from __future__ import annotations

import pickle
import random
import re

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba", reason="the batched PPO trainer needs numba (the batch extra)")

import torch

from razz_env.agents.registry import is_model_file, make_agent
from razz_env.agents.torch_policy import TorchPolicyAgent
from razz_env.encoding.actions import to_engine
from razz_env.encoding.encoders import FlatEncoder
from razz_env.encoding.interface import ObservationBatch, Observer
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState
from razz_env.evaluate import match
from razz_env.train.batch_ppo import Agent, Args, save_policy

torch.set_num_threads(1)
CONFIG = HandConfig.create("razz", num_seats=2, stacks=200)
TABLE = {"stacks": 200}  # the table the policy below is saved as trained at


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A policy file as the trainer writes it (random weights) and the network that wrote it."""
    torch.manual_seed(0)
    network = Agent(FlatEncoder(CONFIG).size, (32, 16), "tanh")
    with torch.no_grad():  # larger weights than PPO's init, so the policy is far from uniform
        for parameter in network.actor.parameters():
            parameter.mul_(20.0)
    path = tmp_path_factory.mktemp("policy") / "final.pt"
    save_policy(path, network, Args(hidden=(32, 16), stacks=200), steps=123)
    return path, network


def observations(agent, hands: int = 12):
    """The acting seat's observation (what ``agent`` reads) at every decision of seeded random hands."""
    observer, rng, found = Observer(agent, CONFIG), random.Random(0), []
    for deal in range(hands):
        hand = HandState(CONFIG, seed=deal)
        while not hand.is_over:
            found.append(observer(hand, hand.actor))
            legal = np.flatnonzero(found[-1].action_mask).tolist()
            hand.act(to_engine(rng.choice(legal), hand.legal_actions()))
    return found


def test_a_saved_file_reloads_to_the_same_network_and_logits(saved) -> None:
    path, network = saved
    agent = make_agent(str(path))
    assert isinstance(agent, TorchPolicyAgent) and is_model_file(str(path))
    assert str(agent.network) == str(network.actor)
    x = torch.randn(64, FlatEncoder(CONFIG).size)
    with torch.no_grad():
        assert torch.equal(agent.network(x), network.actor(x))
    assert agent.meta["steps"] == 123 and agent.meta["layers"] == network.layers
    declared = agent.declaration
    assert declared.variants == ("razz",) and declared.seat_counts == (2,) and declared.deterministic


@pytest.mark.parametrize("deterministic", [True, False])
def test_every_decision_is_legal_and_the_policy_is_stated(saved, deterministic, play_hand) -> None:
    agent = TorchPolicyAgent(saved[0], deterministic=deterministic, seed=1)
    for deal in range(10):
        play_hand(HandState(CONFIG, seed=deal), [agent, make_agent("random", seed=deal)])
    found = observations(agent)
    probabilities = agent.action_probabilities_batch(ObservationBatch.of(found))
    masks = np.stack([o.action_mask for o in found])
    assert (probabilities[masks == 0] == 0).all()
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    if deterministic:
        assert set(np.unique(probabilities)) <= {0.0, 1.0}
    else:
        assert ((probabilities > 0) & (probabilities < 1)).any()


def test_a_batch_decides_as_one_decision_at_a_time(saved) -> None:
    agent = TorchPolicyAgent(saved[0])
    found = observations(agent)
    batch = ObservationBatch.of(found)
    assert agent.act_batch(batch) == [agent.act(o) for o in found]
    np.testing.assert_allclose(agent.action_probabilities_batch(batch),
                               np.stack([agent.action_probabilities(o) for o in found]), atol=1e-6)
    sampler = TorchPolicyAgent(saved[0], deterministic=False)
    np.testing.assert_allclose(sampler.action_probabilities_batch(batch),
                               np.stack([sampler.action_probabilities(o) for o in found]), atol=1e-6)


@pytest.mark.parametrize("deterministic", [True, False])
def test_a_pickled_agent_decides_as_the_original(saved, deterministic) -> None:
    agent = TorchPolicyAgent(saved[0], deterministic=deterministic, seed=7)
    found = observations(agent, hands=4)
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.name == agent.name and copy.spec == agent.spec
    assert copy.act_batch(found) == agent.act_batch(found)


def test_it_plays_a_duplicate_match_in_worker_processes(saved) -> None:
    result = match(str(saved[0]), "calling_station", deals=30, workers=2, block_deals=15, table=TABLE)
    assert result.hands == 60 and result.agents[0] == str(saved[0])
    assert result == match(str(saved[0]), "calling_station", deals=30, block_deals=15, table=TABLE)


def test_it_refuses_other_tables(saved) -> None:
    agent = TorchPolicyAgent(saved[0])
    with pytest.raises(ValueError, match="plays razz at 2 seats"):
        agent.reset(0, 3, "razz")
    with pytest.raises(ValueError, match="trained for variant 'razz', not 'stud'"):
        make_agent({"type": str(saved[0]), "variant": "stud"})


def test_the_file_carries_its_table_and_other_tables_are_refused(saved, tmp_path) -> None:
    """A policy plays only the table it was trained at (stacks, stakes, rules): a match at another is refused in one
    line naming the agent, its table and the one offered; a file from before tables were recorded plays anywhere."""
    data = torch.load(saved[0], weights_only=True)
    assert data["table"]["stacks"] == 200 and data["table"]["variant"] == "razz" and data["table"]["ante"] == 1
    assert TorchPolicyAgent(saved[0]).declaration.table == CONFIG
    with pytest.raises(ConfigError, match=r"^agents\[0\] \(.*final.pt\): agent 'final' was trained at stacks 200; it "
                                          r"cannot be seated at a table of stacks 1000$"):
        match(str(saved[0]), "random", deals=2)
    assert match(str(saved[0]), "random", deals=2, table=TABLE).hands == 4
    with pytest.raises(ConfigError, match="trained at ante 1, bring_in 2; it cannot be seated at a table of ante 2, "
                                          "bring_in 3"):
        match(str(saved[0]), "random", deals=2, table={**TABLE, "ante": 2, "bring_in": 3})
    old = tmp_path / "old.pt"
    torch.save({key: value for key, value in data.items() if key != "table"}, old)
    assert TorchPolicyAgent(old).declaration.table is None
    assert match(str(old), "random", deals=2, table={"stacks": 300}).hands == 4
    torch.save({**data, "table": {**data["table"], "num_seats": 3}}, tmp_path / "mixed.pt")
    with pytest.raises(ValueError, match="its table is razz at 3 seats, but it names razz at 2"):
        make_agent(str(tmp_path / "mixed.pt"))


def test_the_trainer_defaults_to_the_tournament_table() -> None:
    from razz_env.evaluate.config import TournamentConfig

    assert Args().stacks == TournamentConfig(agents=["random", "calling_station"]).stacks == 1000


def test_bad_files_are_named(saved, tmp_path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        make_agent(str(tmp_path / "missing.pt"))
    (tmp_path / "text.pt").write_text("not a model")
    with pytest.raises(ValueError, match="not a saved torch policy"):
        make_agent(str(tmp_path / "text.pt"))
    torch.save({"weights": torch.zeros(2)}, tmp_path / "other.pt")
    with pytest.raises(ValueError, match="not a razz-batch-ppo file"):
        make_agent(str(tmp_path / "other.pt"))
    data = torch.load(saved[0], weights_only=True)
    torch.save({**data, "layers": [data["layers"][0], 8, 5]}, tmp_path / "wrong.pt")
    with pytest.raises(ValueError, match="do not fit layers"):
        make_agent(str(tmp_path / "wrong.pt"))
    with pytest.raises(ValueError, match="SHA-256 .* differs"):
        TorchPolicyAgent(saved[0], sha256="0" * 64)


@pytest.mark.parametrize(("damage", "problem"), [
    (lambda data: b"garbage here", r"not a zip archive \(it begins b'garbage '\)"),
    (lambda data: data[:len(data) // 2], r"a truncated or damaged zip archive \([\d,]+ bytes: "),
])
def test_a_damaged_policy_file_is_named_by_its_path(saved, tmp_path, damage, problem) -> None:
    path = tmp_path / "final.pt"
    path.write_bytes(damage(saved[0].read_bytes()))
    with pytest.raises(ValueError) as err:
        make_agent(str(path))
    message = str(err.value)
    assert f"policy file {str(path)!r}: not a saved torch policy (" in message and re.search(problem, message)
    assert "weights_only" not in message and "\n" not in message, message


@pytest.mark.parametrize("deterministic", [True, False])
def test_varied_queries_equal_the_same_vectors_asked_whole(saved, deterministic) -> None:
    """What LBR asks about every holding (``action_probabilities_varied_batch``, the first layer computed once per
    base) equals the policy at the explicit vectors; in float64 to rounding."""
    agent = TorchPolicyAgent(saved[0], deterministic=deterministic)
    found = observations(agent, hands=4)[:6]
    encoder = FlatEncoder(CONFIG)
    down = encoder.layout.slices["own_down"]
    vectors = np.stack([o.vector for o in found])
    vectors[:, down] = 0.0
    masks = np.stack([o.action_mask for o in found])
    rng = np.random.default_rng(1)
    bases = np.repeat(np.arange(len(found)), 5)
    columns = np.stack([down.start + rng.choice(52, size=2, replace=False) for _ in bases])
    varied = agent.action_probabilities_varied_batch(vectors, masks, columns, bases, device="cpu", dtype="float64")
    whole = vectors[bases].copy()
    whole[np.arange(len(bases))[:, None], columns] = 1.0
    asked = agent.action_probabilities_batch(ObservationBatch(np.zeros(len(bases), dtype=np.int64), masks[bases],
                                                              vectors=whole))
    np.testing.assert_allclose(varied, asked, atol=1e-6)
    assert (varied[masks[bases] == 0] == 0).all()

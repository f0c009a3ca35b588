"""The shipped zoo: verified loading (exactly the bytes that were hashed), declared tables, legal play."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import re

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch

from razz_env.agents import sb3_zoo
from razz_env.agents.registry import get_factory, make_agent
from razz_env.agents.sb3_agent import SB3Agent, load_model, trained_seat_counts
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import to_engine
from razz_env.encoding.interface import declaration_of, observe, seating_problem
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState

torch.set_num_threads(1)

SHIPPED = sb3_zoo.manifest()
SHIPPED_DIR = sb3_zoo.ZOO_DIR


@pytest.fixture
def private_zoo(tmp_path, monkeypatch):
    """A zoo folder of the test's own (names unused elsewhere, so the per-process model cache is not shared)."""
    monkeypatch.setattr(sb3_zoo, "ZOO_DIR", tmp_path)
    monkeypatch.setattr(sb3_zoo, "MANIFEST", tmp_path / "manifest.json")
    sb3_zoo._load_model.cache_clear()
    yield tmp_path
    sb3_zoo._load_model.cache_clear()


def test_zoo_agents_load_verified_and_play_legally():
    names = list(sb3_zoo.manifest())
    if not names:
        pytest.skip("no shipped agents in razz_env/agents/zoo")
    for name in names:
        agent = make_agent(name)
        entry = sb3_zoo.manifest()[name]
        hand_config = HandConfig.create(entry["variant"], num_seats=entry["num_seats"],
                                        stacks=entry["stacks"])
        encoder = make_encoder(entry["encoding"], hand_config)
        hand = HandState(hand_config, seed=1)
        agent.reset(hand.actor, hand.num_seats, entry["variant"])
        while not hand.is_over:
            observation = observe(hand, hand.actor, encoder=encoder)
            hand.act(to_engine(agent.act(observation), hand.legal_actions()))


def test_zoo_refuses_a_file_whose_hash_differs(private_zoo):
    (private_zoo / "fake.zip").write_bytes(b"not the trusted file")
    manifest = {"fake": {"file": "fake.zip", "sha256": "0" * 64, "algorithm": "maskable_ppo", "encoding": "flat"}}
    (private_zoo / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(sb3_zoo.ZooIntegrityError, match="SHA-256"):
        sb3_zoo.load_zoo_agent("fake")


def test_zoo_loads_the_bytes_it_verified_even_if_the_file_is_swapped_after(private_zoo, monkeypatch):
    """The file is replaced right after its hash is taken: what loads is still the verified model."""
    trusted = (SHIPPED_DIR / SHIPPED["ppo_razz"]["file"]).read_bytes()
    original = load_model(trusted, "maskable_ppo")
    tampered = load_model(trusted, "maskable_ppo")
    with torch.no_grad():
        for parameter in tampered.policy.parameters():
            parameter.zero_()
    swapped = io.BytesIO()
    tampered.save(swapped)
    path = private_zoo / "swap_test.zip"
    path.write_bytes(trusted)
    entry = {**SHIPPED["ppo_razz"], "file": path.name}
    (private_zoo / "manifest.json").write_text(json.dumps({"swap_test": entry}))
    real_sha256 = hashlib.sha256

    def sha256_then_swap(*args, **kwargs):
        digest = real_sha256(*args, **kwargs)
        path.write_bytes(swapped.getvalue())
        return digest

    monkeypatch.setattr(hashlib, "sha256", sha256_then_swap)
    agent = sb3_zoo.load_zoo_agent("swap_test")
    monkeypatch.setattr(hashlib, "sha256", real_sha256)
    assert path.read_bytes() == swapped.getvalue(), "the file was swapped after the check"
    loaded = dict(agent.model.policy.named_parameters())
    for name, parameter in original.policy.named_parameters():
        assert torch.equal(loaded[name], parameter), f"{name}: not the verified model's weights"


@pytest.mark.parametrize(("damage", "problem"), [
    (lambda data: b"garbage here", r"not a zip archive \(it begins b'garbage '\)"),
    (lambda data: data[:3000], r"a truncated or damaged zip archive \(3,000 bytes: "),
    (lambda data: b"", r"empty \(0 bytes\)"),
])
def test_a_damaged_model_file_is_named_by_its_path(tmp_path, damage, problem):
    path = tmp_path / "model.zip"
    path.write_bytes(damage((SHIPPED_DIR / "ppo_stud.zip").read_bytes()))
    with pytest.raises(ValueError) as err:
        make_agent(str(path))
    message = str(err.value)
    assert f"model file {path}: " in message and re.search(problem, message), message
    assert "BytesIO" not in message and "\n" not in message


def test_zoo_agents_declare_the_table_they_were_trained_for():
    agent = make_agent("ppo_razz")
    assert (agent.declaration.variants, agent.declaration.seat_counts) == (("razz",), (2,))
    assert seating_problem(agent, "razz", 2) is None
    agent.reset(0, 2, "razz")
    with pytest.raises(ValueError, match=r"'ppo_razz' plays razz at 2 seats.*razz with 3 seats"):
        agent.reset(0, 3, "razz")
    with pytest.raises(ValueError, match=r"'ppo_razz' plays razz at 2 seats.*stud with 2 seats"):
        agent.reset(1, 2, "stud")


def test_a_padded_encoding_declares_every_table_size_of_its_variant(private_zoo, monkeypatch):
    """A model trained on "flat8"/"ranks8" reads every table size alike: the zoo declares them all."""
    assert trained_seat_counts("flat", "razz", 2) == (2,)
    assert trained_seat_counts("flat8", "razz", 6) == (2, 3, 4, 5, 6, 7, 8)
    assert trained_seat_counts("ranks8", "minirazz", 2) == (2, 3, 4, 5)
    assert trained_seat_counts("flat8", "minirazz_tiny", 2) == (2,)
    monkeypatch.setattr(sb3_zoo, "_load_model", functools.cache(lambda name: object()))  # the model is not read
    entries = {"padded": {"file": "padded.zip", "sha256": "0" * 64, "algorithm": "maskable_ppo", "encoding": "flat8",
                          "variant": "stud", "num_seats": 2},
               "plain": {"file": "plain.zip", "sha256": "0" * 64, "algorithm": "maskable_ppo", "encoding": "flat",
                         "variant": "stud", "num_seats": 2}}
    (private_zoo / "manifest.json").write_text(json.dumps(entries))
    padded, plain = sb3_zoo.load_zoo_agent("padded"), sb3_zoo.load_zoo_agent("plain")
    assert (padded.declaration.variants, padded.declaration.seat_counts,
            plain.declaration.seat_counts) == (("stud",), tuple(range(2, 9)), (2,))
    padded.reset(3, 8, "stud")
    with pytest.raises(ValueError, match="cannot be seated at razz"):
        padded.reset(0, 2, "razz")


def test_every_shipped_agent_and_model_file_agent_acts_in_batch():
    for name in SHIPPED:
        assert get_factory(name).declaration.acts_in_batch, name
    path = SHIPPED_DIR / SHIPPED["ppo_razz"]["file"]
    agent = make_agent({"type": "sb3_model", "path": str(path), "sha256": SHIPPED["ppo_razz"]["sha256"],
                        "variant": "razz", "num_seats": 2})
    assert declaration_of(agent).methods == ("action_probabilities", "act_batch", "action_probabilities_batch")


def test_an_undeclared_sb3_agent_sits_anywhere():
    agent = SB3Agent(sb3_zoo._load_model("ppo_razz"), name="mine")
    assert agent.declaration.variants is None and agent.declaration.seat_counts is None
    agent.reset(0, 6, "stud8")


def test_a_model_archive_loads_whatever_module_path_its_action_space_was_pickled_under():
    """Archives pickle the action space's class by its module path; a path since moved must not stop loading."""
    import zipfile

    data = (sb3_zoo.ZOO_DIR / "ppo_razz_psro.zip").read_bytes()
    source, moved = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(moved, "w") as target:
        for item in source.infolist():
            body = source.read(item.filename)
            if item.filename == "data":
                record = json.loads(body)
                record["action_space"][":serialized:"] = "gASVIAAAAAAAAACMEW5vX3N1Y2hfbW9kdWxlLnhylIwBWZSTlC4="
                body = json.dumps(record).encode()
            target.writestr(item, body)
    model = load_model(moved.getvalue(), "maskable_ppo")
    assert model.action_space.n == 5


def test_a_zoo_agents_spec_cannot_name_another_agent():
    """``{type: ppo_razz, _name: qrdqn_razz}`` loaded qrdqn_razz under ppo_razz's name."""
    with pytest.raises(TypeError, match=r"agent 'ppo_razz': bad arguments \['_name'\]"):
        make_agent({"type": "ppo_razz", "_name": "qrdqn_razz"})


@pytest.mark.parametrize("text", ["{oops", "[1, 2]", '{"ppo_razz": 3}'])
def test_a_damaged_manifest_is_named_not_a_json_traceback(tmp_path, monkeypatch, text):
    damaged = tmp_path / "manifest.json"
    damaged.write_text(text)
    monkeypatch.setattr(sb3_zoo, "MANIFEST", damaged)
    with pytest.raises(sb3_zoo.ZooIntegrityError, match=rf"{re.escape(str(damaged))}: damaged"):
        sb3_zoo.manifest()


def test_a_batch_ppo_entry_plays_its_policy_file_sampling_as_it_learned(private_zoo):
    from razz_env.agents.torch_policy import TorchPolicyAgent
    from razz_env.encoding.encoders import FlatEncoder
    from razz_env.train.batch_ppo import Agent, Args, save_policy

    args = Args(hidden=(8,), output=str(private_zoo / "run"))
    config = HandConfig.create("razz", num_seats=2, stacks=1000)
    torch.manual_seed(0)
    save_policy(private_zoo / "staged.pt", Agent(FlatEncoder(config).size, args.hidden, args.activation), args, 0)
    entry = {"file": "staged.pt", "sha256": hashlib.sha256((private_zoo / "staged.pt").read_bytes()).hexdigest(),
             "algorithm": "batch_ppo", "encoding": "flat", "variant": "razz", "num_seats": 2, "stacks": 1000,
             "ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
    (private_zoo / "manifest.json").write_text(json.dumps({"zoo_batch_test": entry}))
    agent = sb3_zoo.load_zoo_agent("zoo_batch_test", seed=3)
    assert isinstance(agent, TorchPolicyAgent) and not agent.deterministic
    assert agent.declaration == sb3_zoo.zoo_declaration("zoo_batch_test")
    assert sb3_zoo.load_zoo_agent("zoo_batch_test", deterministic=True).deterministic
    hand = HandState(config, seed=1)
    agent.reset(hand.actor, 2, "razz")
    observation = observe(hand, hand.actor, encoder=make_encoder("flat", config))
    assert (agent.action_probabilities(observation) > 0).sum() > 1, "an untrained softmax mixes"
    (private_zoo / "staged.pt").write_bytes(b"changed")
    with pytest.raises(sb3_zoo.ZooIntegrityError, match="SHA-256"):
        sb3_zoo.load_zoo_agent("zoo_batch_test")

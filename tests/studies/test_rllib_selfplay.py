"""``studies/rllib_selfplay.py``: its agent everywhere; a tiny self-play run where ``ray[rllib]`` is."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
RLLIB_MISSING = "self-play training needs ray[rllib] (the rllib extra, in a venv of its own: it pins gymnasium 1.2.2)"


@pytest.fixture
def selfplay(load_study) -> ModuleType:
    """The study as a module, loaded from its file."""
    return load_study("rllib_selfplay")


@pytest.fixture
def weights(tmp_path: Path) -> Path:
    """A random policy file (the fuzz test's, written once per test)."""
    return write_weights(tmp_path / "policy.npz", seed=5)


def write_weights(path: Path, seed: int = 0) -> Path:
    """A random policy in the exported layout: 676 -> 8 (tanh) -> 5."""
    rng = np.random.default_rng(seed)
    np.savez_compressed(path, activations=np.array(["tanh", ""]), w0=rng.normal(size=(8, 676)), b0=np.zeros(8),
                        w1=rng.normal(size=(5, 8)), b1=rng.normal(size=5))
    return path


def test_agent_plays_only_legal_actions_through_the_harness(selfplay: ModuleType, tmp_path: Path) -> None:
    agent = selfplay.RLlibPolicyAgent(str(write_weights(tmp_path / "policy.npz")))
    rows = selfplay.evaluate(agent, ("random",), deals=4, seed="t")
    assert set(rows) == {"random"} and np.isfinite(rows["random"]["bb_per_100"])


def test_agent_probabilities_are_masked_softmax_of_the_layers(selfplay: ModuleType, tmp_path: Path) -> None:
    from razz_env.encoding.interface import Observation

    agent = selfplay.RLlibPolicyAgent(str(write_weights(tmp_path / "policy.npz")))
    vector = np.random.default_rng(1).random(676).astype(np.float32)
    mask = np.array([0, 1, 1, 0, 0], dtype=np.int8)
    probabilities = agent.action_probabilities(Observation(0, mask, None, vector))
    with np.load(tmp_path / "policy.npz") as data:
        logits = data["w1"] @ selfplay.ACTIVATIONS["tanh"](data["w0"] @ vector + data["b0"]) + data["b1"]
    expected = np.exp(logits[1:3] - logits[1:3].max())
    assert probabilities[[0, 3, 4]].tolist() == [0, 0, 0]
    np.testing.assert_allclose(probabilities[1:3], expected / expected.sum(), rtol=1e-4)
    assert agent.act(Observation(0, mask, None, vector)) == 1 + int(np.argmax(logits[1:3]))


def test_missing_weights_is_a_clear_error(selfplay: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="weights: no file"):
        selfplay.RLlibPolicyAgent(str(tmp_path / "absent.npz"))


def test_env_steps_that_advance_are_read_at_the_top_or_under_env_runners(selfplay: ModuleType) -> None:
    assert selfplay.env_steps_after({"num_env_steps_sampled_lifetime": 4000}, 0, 1) == 4000
    assert selfplay.env_steps_after({"env_runners": {"num_env_steps_sampled_lifetime": 8000}}, 4000, 2) == 8000


@pytest.mark.parametrize(("result", "before", "message"), [
    ({"num_env_steps_sampled_lifetime": 4000}, 4000, "iteration 3 sampled no environment steps "
                                               r"\(num_env_steps_sampled_lifetime stayed at 4,000\)"),
    ({"env_runners": {"num_env_steps_sampled_lifetime": 0}}, 0, "stayed at 0"),
    ({"env_runners": {}}, 0, "reported no num_env_steps_sampled_lifetime"),
])
def test_a_run_whose_env_steps_do_not_advance_stops_saying_so(selfplay: ModuleType, result, before, message) -> None:
    """Under load RLlib's sample_timeout_s expired every iteration: the lifetime steps stayed put."""
    with pytest.raises(selfplay.StalledRun, match=message):
        selfplay.env_steps_after(result, before, 3)


def test_bad_arguments_exit_2_with_one_line(study) -> None:
    for argv, message in ((["--iterations", "0"], "--iterations must be positive, got 0"),
                          (["--minibatch", "4000"], "--minibatch must not exceed --train-batch"),
                          (["--opponents", "nobody"], "--opponents: unknown agent 'nobody'"),
                          (["--fcnet-hiddens", "0"], "--fcnet-hiddens must be positive")):
        study("rllib_selfplay").assert_refuses(argv, message)


def test_a_policy_file_is_seated_by_the_tournament_by_its_module_and_class(tmp_path: Path) -> None:
    """``razz tournament`` run from the repository root seats ``studies.rllib_selfplay:RLlibPolicyAgent``."""
    config = tmp_path / "tournament.yaml"
    config.write_text(yaml.safe_dump({
        "name": "rllib", "deals": 2, "seed": 3, "workers": 1, "agents": [
            {"type": "studies.rllib_selfplay:RLlibPolicyAgent", "weights": str(write_weights(tmp_path / "p.npz"))},
            "calling_station"]}))
    done = subprocess.run([sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(config), "--output",
                           str(tmp_path / "out"), "--no-plots", "--quiet"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out" / "pairings.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert any(row["agent"].startswith("studies.rllib_selfplay:RLlibPolicyAgent") for row in rows)
    assert rows and all(row["hands"] == "4" for row in rows)


def test_tiny_selfplay_run_writes_the_curve_and_policy(selfplay: ModuleType, tmp_path: Path) -> None:
    """Two PPO iterations of self-play on RLlib's PettingZooEnv, evaluated after each."""
    pytest.importorskip("ray.rllib", reason=RLLIB_MISSING, exc_type=ImportError)

    args = selfplay.Args(iterations=2, eval_every=1, eval_deals=4, train_batch=128, minibatch=64, epochs=1,
                output=str(tmp_path / "run"))
    curve = selfplay.train(args)
    assert [row["iteration"] for row in curve] == [1, 2] and curve[-1]["env_steps"] >= 256
    for name in ("learning_curve.csv", "learning_curve.png", "summary.json", "policy.npz"):
        assert (tmp_path / "run" / name).is_file()
    selfplay.RLlibPolicyAgent(str(tmp_path / "run" / "policy.npz"))


def test_exported_policy_gives_the_rlmodules_masked_distribution(selfplay: ModuleType, tmp_path: Path) -> None:
    """The numpy agent replays RLlib's action-masking module exactly (encoder, pi head, mask)."""
    pytest.importorskip("ray.rllib", reason=RLLIB_MISSING, exc_type=ImportError)
    import gymnasium
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from razz_env.encoding.interface import Observation

    spaces = gymnasium.spaces
    observation_space = spaces.Dict({"observations": spaces.Box(0.0, 40.0, (676,), np.float32),
                                     "action_mask": spaces.Box(0.0, 1.0, (5,), np.float32)})
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule, observation_space=observation_space,
                          action_space=spaces.Discrete(5),
                          model_config={"fcnet_hiddens": [16], "head_fcnet_hiddens": [8]}).build()
    path = selfplay.export_policy(module, tmp_path / "module.npz")
    vectors = np.random.default_rng(2).random((3, 676)).astype(np.float32)
    masks = np.array([[0, 1, 1, 0, 0], [0, 0, 1, 1, 1], [1, 1, 1, 0, 1]], dtype=np.float32)
    with torch.no_grad():
        out = module.forward_inference({Columns.OBS: {"observations": torch.from_numpy(vectors),
                                                      "action_mask": torch.from_numpy(masks)}})
    theirs = torch.softmax(out[Columns.ACTION_DIST_INPUTS], dim=-1).numpy()
    ours = selfplay.RLlibPolicyAgent(str(path)).action_probabilities_batch(
        [Observation(0, m.astype(np.int8), None, v) for v, m in zip(vectors, masks, strict=True)])
    np.testing.assert_allclose(ours, theirs, atol=1e-5)


@settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", 50)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixture only imports the module
@given(seed=st.integers(0, 2**32 - 1), mask=st.lists(st.booleans(), min_size=5, max_size=5).filter(any),
       scale=st.floats(0.0, 1e3))
def test_agent_picks_a_legal_id_with_a_distribution(selfplay: ModuleType, weights: Path, seed: int,
                                                    mask: list[bool], scale: float) -> None:
    """Any vector, any non-empty mask: probabilities sum to 1 on legal ids, the pick (greedy or drawn) is legal."""
    from razz_env.encoding.interface import Observation

    agent = selfplay.RLlibPolicyAgent(str(weights), sample=seed % 2 == 1, seed=seed)
    vector = (np.random.default_rng(seed).random(676) * scale).astype(np.float32)
    observation = Observation(0, np.array(mask, dtype=np.int8), None, vector)
    probabilities = agent.action_probabilities(observation)
    assert np.isfinite(probabilities).all() and abs(probabilities.sum() - 1) < 1e-5
    assert not probabilities[~np.array(mask)].any() and mask[agent.act(observation)]

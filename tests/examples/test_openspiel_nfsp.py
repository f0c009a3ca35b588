"""The NFSP example: a few self-play hands with learning switched on early, then its evaluation and command line."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the example needs the openspiel extra")
pytest.importorskip("tree", reason="OpenSpiel's PyTorch NFSP needs dm-tree (the openspiel extra)")
torch = pytest.importorskip("torch", reason="the example needs the train extra")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_nfsp.py"


def load_example():
    spec = importlib.util.spec_from_file_location("openspiel_nfsp", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_few_hands_train_both_networks_and_the_policy_plays_random_play():
    example = load_example()
    torch.set_num_threads(1)
    torch.manual_seed(3)
    example.np.random.seed(3)  # NFSP draws each hand's mode (best response or average) from numpy's global state
    env = example.rl_environment.Environment(example.GAME,
                                             chance_event_sampler=example.rl_environment.ChanceEventSampler(3))
    agents = example.make_agents(env, seed=3, learn_after=16, batch_size=8, learn_every=4)
    assert example.train(env, agents, episodes=60) == 60
    assert all(loss is not None for agent in agents for loss in agent.loss)  # both networks took steps
    mean, error = example.play_random(env.game, agents, hands=6, seed=1)
    assert math.isfinite(mean) and math.isfinite(error)
    assert abs(mean) <= env.game.max_utility()


def test_the_command_line_reports_training_and_evaluation(capsys):
    load_example().main(["--episodes", "3", "--hands", "4", "--seed", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("trained NFSP on razz_env_razz for 3 hands")
    assert lines[1].startswith("average policy vs uniform random, 4 hands: ")
    assert lines[1].endswith(" chips per hand")

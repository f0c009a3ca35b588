"""``razz_env.train.tree_policy``: a network read into the tree in one pass states what the agent interface reads."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from razz_env.agents.torch_policy import TorchPolicyAgent  # noqa: E402
from razz_env.solve.agent import policy_from_agent  # noqa: E402
from razz_env.solve.best_response import exploitability  # noqa: E402
from razz_env.solve.game import build_game  # noqa: E402
from razz_env.train.batch_ppo import Agent, Args, save_policy  # noqa: E402
from razz_env.train.tree_policy import TreePolicies  # noqa: E402


@pytest.fixture(scope="module")
def tree():
    return TreePolicies(build_game("minirazz_tiny"))


def test_the_vectors_are_the_tables_masks_and_widths(tree):
    game = tree.game
    assert tree.vectors.shape[0] == tree.masks.shape[0] == game.num_infosets
    np.testing.assert_array_equal(tree.masks.numpy(), game.legal[game.infoset_decision])


def test_a_saved_network_states_the_same_policy_through_the_agent_interface(tree, tmp_path):
    torch.manual_seed(3)
    args = Args(variant="minirazz_tiny", stacks=200, hidden=(16, 16))
    agent = Agent(tree.vectors.shape[1], args.hidden, args.activation)
    with torch.no_grad():
        for parameter in agent.actor.parameters():
            parameter.normal_(0.0, 1.0)  # far from uniform, so that a misplaced row shows
    save_policy(tmp_path / "p.pt", agent, args, steps=0)
    fast = tree.policy(agent.actor)
    slow = policy_from_agent(tree.game, TorchPolicyAgent(tmp_path / "p.pt", deterministic=False), check_suits=0)
    np.testing.assert_allclose(fast.table(), slow.table(), atol=1e-12)
    assert np.abs(fast.table() - tree.policy(lambda x: torch.zeros(len(x), 5)).table()).max() > 0.5
    assert tree.exploitability(fast).mbb == pytest.approx(exploitability(tree.game, slow).mbb)

"""``razz_env.agents.sb3_agent``: a zoo model stays usable in forked children."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

FORKED_VECTOR_ENV = '''
import gymnasium
import numpy as np
import torch

import razz_env.envs.registration  # noqa: F401
from razz_env.agents.registry import make_agent

torch.set_num_threads(2)
torch.randn(800, 800) @ torch.randn(800, 800)
opponent = make_agent("ppo_razz")
env = gymnasium.make("razz_env/Razz-v0", opponents=opponent)
for seed in range(10):  # the parent plays the model first: torch's thread pool is running at the fork
    observation, info = env.reset(seed=seed)
    done = False
    while not done:
        observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        done = terminated or truncated
vec = gymnasium.make_vec("razz_env/Razz-v0", num_envs=2, vectorization_mode="async",
                         vector_kwargs={"context": "fork"}, opponents=opponent)
for seed in range(5):
    observation, info = vec.reset(seed=seed)
    actions = [int(np.flatnonzero(mask)[-1]) if mask.any() else 0 for mask in info["action_mask"]]
    vec.step(np.array(actions))
vec.close()
print("played")
'''


def test_a_fork_vector_env_with_a_zoo_opponent_does_not_hang_after_the_parent_used_torch_threads() -> None:
    """Forked workers used to deadlock in the model's forward pass (torch's thread pool does not survive fork)."""
    child = subprocess.Popen([sys.executable, "-c", FORKED_VECTOR_ENV], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = child.communicate(timeout=120)
    finally:  # a hung run leaves deadlocked workers: end the whole session it started
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert child.returncode == 0 and out.split() == ["played"], err[-2000:]

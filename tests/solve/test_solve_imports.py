"""The solver imports the engine, the action ids and the agent interface: no environment, agent zoo or RL framework."""

import subprocess
import sys

LATER = ("razz_env.envs", "razz_env.evaluate", "razz_env.train", "razz_env.openspiel", "razz_env.agents", "gymnasium",
         "pettingzoo", "torch", "stable_baselines3", "pyspiel")


def test_solver_imports_stay_below_the_environments():
    code = ("import sys, razz_env.solve, razz_env.solve.agent; "
            f"print(sorted(m for m in sys.modules if m.startswith({LATER!r})))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"

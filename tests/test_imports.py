"""Import direction: the engine and ``import razz_env`` stay free of gymnasium, pettingzoo and torch."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "tianshou", "ray")


def test_import_razz_env_loads_no_rl_framework():
    code = ("import sys, razz_env, razz_env.engine, razz_env.engine.hand_value; "
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_import_razz_env_loads_no_environment_and_keeps_env_a_function():
    """The environments load on first use; ``razz_env.env`` is the constructor, ``razz_env.envs`` the package."""
    code = ("import sys, razz_env; "
            "print(sorted(m for m in sys.modules if m.startswith('razz_env.env')), type(razz_env.env).__name__)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["[]", "function"]


def test_the_environments_package_imports_in_every_form():
    """``import razz_env.envs.single_agent as m`` works: the package's name is not the constructor's."""
    code = "import razz_env.envs.single_agent as m, razz_env; print(m.SingleAgentEnv.__name__, razz_env.env.__name__)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["SingleAgentEnv", "env"]


def test_the_engine_imports_no_rl_framework():
    """The engine (and so ``import razz_env``) never names gymnasium, pettingzoo, torch or their kin."""
    for path in (ROOT / "razz_env" / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        names |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        heavy = sorted(name for name in names if name.split(".")[0] in HEAVY + ("pettingzoo",))
        assert not heavy, f"{path.relative_to(ROOT)} imports {heavy}"

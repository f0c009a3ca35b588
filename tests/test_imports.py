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
    """The environments load on first use; ``razz_env.env`` stays the constructor, not the package."""
    code = ("import sys, razz_env, razz_env.env; "
            "print(sorted(m for m in sys.modules if m.startswith('razz_env.env')), type(razz_env.env).__name__)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["['razz_env.env']", "function"]


def test_no_module_imports_the_env_package_through_the_constructors_name():
    """``razz_env.env`` is the constructor function: ``import razz_env.envs.x as y`` reads it and fails; use ``from``."""
    for path in [*ROOT.glob("razz_env/**/*.py"), *ROOT.glob("agents/**/*.py"), *ROOT.glob("tests/**/*.py"),
                 *ROOT.glob("examples/*.py"), *ROOT.glob("benchmarks/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bad = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
               if alias.name.startswith("razz_env.env.")]
        assert not bad, f"{path.relative_to(ROOT)}: import {bad} (write `from razz_env.env... import ...`)"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_imports_flow_one_way():
    """engine -> encoding -> env -> agents -> evaluation/training: no module imports a later layer."""
    later = {
        "razz_env/engine": ("razz_env.encoding", "razz_env.env", "agents", "razz_env.evaluate",
                            "razz_env.train") + HEAVY,
        "razz_env/encoding": ("razz_env.env", "agents", "razz_env.evaluate", "razz_env.train"),
        "razz_env/env": ("agents", "razz_env.evaluate", "razz_env.train"),
        "agents": ("razz_env.evaluate", "razz_env.train"),
        "razz_env/envs/adapters.py": ("agents", "razz_env.evaluate", "razz_env.train"),
    }
    for folder, banned in later.items():
        root = ROOT / folder
        assert root.exists(), root
        for path in [root] if root.is_file() else root.rglob("*.py"):
            bad = [name for name in _imports(path) if name.startswith(banned)]
            assert not bad, f"{path.relative_to(ROOT)} imports {bad}"

"""Fixtures of the study tests: a study run as a user runs it (a fresh interpreter), or loaded by its path."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
STUDIES = REPO / "studies"


class Study:
    """``studies/<name>.py`` run from the repository root."""

    def __init__(self, name: str) -> None:
        self.path = str(STUDIES / f"{name}.py")

    def run(self, *args: str) -> subprocess.CompletedProcess:
        """Its exit status and output for ``args``."""
        return subprocess.run([sys.executable, self.path, *args], capture_output=True, text=True, timeout=300,
                              cwd=REPO)

    def assert_refuses(self, args: list[str], named: str, out: Path | None = None) -> None:
        """``args`` (with ``--out out`` when given) exit 2 with one last line naming ``named``, no traceback, and
        nothing written."""
        result = self.run(*args, *(["--out", str(out)] if out else []))
        last = result.stderr.strip().splitlines()[-1]
        assert result.returncode == 2 and "Traceback" not in result.stderr and named in last, (args, result.stderr)
        assert out is None or not out.exists()


@pytest.fixture
def study() -> type[Study]:
    """``study("heads_up_field")``: a :class:`Study`."""
    return Study


@pytest.fixture
def load_study(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], ModuleType]:
    """``load_study("rllib_selfplay")``: the study as a module, imported from its file (and known by its name in
    ``sys.modules`` for this test, as dataclasses and pickling look modules up there)."""

    def load(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(name, STUDIES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
        return module

    return load

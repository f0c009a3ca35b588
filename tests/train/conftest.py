"""Fixtures shared by the tests of the experiment scripts (run as a user runs them: a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


class ExperimentScript:
    """``experiments/<path>`` run from the repository root."""

    def __init__(self, path: str) -> None:
        self.path = str(REPO / "experiments" / path)

    def run(self, *args: str) -> subprocess.CompletedProcess:
        """Its exit status and output for ``args``."""
        return subprocess.run([sys.executable, self.path, *args], capture_output=True, text=True, timeout=300,
                              cwd=REPO)

    def assert_refuses(self, args: list[str], named: str, out: Path) -> None:
        """``args`` (with ``--out out``) exit 2 with a last line naming ``named``, no traceback, nothing written."""
        result = self.run(*args, "--out", str(out))
        last = result.stderr.strip().splitlines()[-1]
        assert result.returncode == 2 and "Traceback" not in result.stderr and named in last, (args, result.stderr)
        assert not out.exists()


@pytest.fixture
def experiment():
    """``experiment("ppo_razz_pool/evaluate.py")``: an :class:`ExperimentScript`."""
    return ExperimentScript

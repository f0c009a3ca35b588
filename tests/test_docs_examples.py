"""Every ```python block of README.md and docs/*.md runs, each in a fresh interpreter with a time limit.

A block preceded by ``<!-- no-test -->`` is skipped (one that needs a cluster or a virtualenv of its own).
Blocks run in a scratch folder that links the repository's ``configs`` and ``docs``, so what they write
stays out of the checkout.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"(<!-- no-test -->\s*)?```python\n(.*?)```", re.DOTALL)
TIMEOUT = 180


def _blocks() -> list:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start(2))
            marks = [pytest.mark.skip(reason="marked <!-- no-test -->")] if match.group(1) else []
            found.append(pytest.param(match.group(2), id=f"{page.relative_to(ROOT)}:{line}", marks=marks))
    return found


def test_the_pages_have_python_examples() -> None:
    assert len(_blocks()) >= 10


@pytest.mark.parametrize("code", _blocks())
def test_the_example_runs(code: str, tmp_path: Path) -> None:
    for name in ("configs", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]


WRITES = re.compile(r"(?:--(?:output|html|png|plot|out)[ =]|--screenshot=|\.save(?:fig)?\(['\"])([^\s'\"`)\]]+)")
SCRATCH = ("runs/", "results/", "/tmp/", "$TMPDIR/")


def _fenced(text: str) -> list[str]:
    """The contents of every fenced code block of a Markdown page, whatever its language."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append("\n".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_documented_commands_write_only_under_ignored_folders_or_a_temp_path() -> None:
    """A command copied from the docs never overwrites a tracked file nor leaves an untracked one in the checkout:
    what it writes goes under runs/ or results/ (ignored by git) or /tmp."""
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "runs/" in ignored and "results/" in ignored
    outside = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for block in _fenced(page.read_text(encoding="utf-8")):
            for target in WRITES.findall(block):
                if not target.startswith(SCRATCH) and not re.fullmatch(r"<[^>]*>?|[A-Z_]+(\.html)?:?", target):
                    outside.append(f"{page.relative_to(ROOT)}: {target}")
    assert outside == []

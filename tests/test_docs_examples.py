"""Every ```python block of README.md and docs/ runs as a user's script would, with a time limit.

Each block is written to ``example.py`` and run with ``python example.py``: a standalone file with no
``if __name__ == "__main__":`` guard, as a user copies it (worker processes that re-import the main module
see it so). A block preceded by ``<!-- no-test: REASON -->`` is skipped with that reason (one that needs a
cluster, a GPU or a virtualenv of its own). Blocks run in a scratch folder that links the repository's
``configs`` and ``docs``, so what they write stays out of the checkout. The shell blocks run in
``tests/test_docs_commands.py``, which reads the same annotations.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from docs_pages import PAGES, ROOT, blocks

TIMEOUT = 180


def _blocks() -> list:
    found = []
    for page in PAGES:
        for block in blocks(page):
            if block.language != "python":
                continue
            reasons = [reason for kind, _, reason in block.notes if kind == "no-test"]
            marks = [pytest.mark.skip(reason=reasons[0])] if reasons else []
            found.append(pytest.param(block.text, id=f"{page.relative_to(ROOT)}:{block.line}", marks=marks))
    return found


def test_the_pages_have_python_examples() -> None:
    assert len(_blocks()) >= 10


@pytest.mark.parametrize("code", _blocks())
def test_the_example_runs(code: str, tmp_path: Path) -> None:
    for name in ("configs", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "example.py").write_text(code, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
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

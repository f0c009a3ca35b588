"""The fenced blocks of README.md and the docs pages, with the HTML comments above each (the tests' annotations).

Shared by ``test_docs_examples.py`` (the python blocks) and ``test_docs_commands.py`` (the shell blocks), which
describe the annotations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\S*)\s*$")
COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
ANNOTATION = re.compile(r"\s*(no-test|test|slow)(?:\s+`([^`]+)`)?\s*(?::\s*(.*?))?\s*", re.DOTALL)


@dataclass
class Block:
    """A fenced block of a page: its language, first line (1-based), text and the annotations above it."""

    page: Path
    language: str
    line: int
    text: str
    notes: list[tuple[str, str | None, str]] = field(default_factory=list)


def blocks(page: Path, text: str | None = None) -> list[Block]:
    """The fenced blocks of ``page`` (or of ``text``, read as that page), each with the HTML comments above it."""
    lines = (page.read_text(encoding="utf-8") if text is None else text).splitlines()
    found, current = [], None
    for number, line in enumerate(lines):
        fence = FENCE.match(line.strip())
        if fence is None:
            if current is not None:
                current.text += line + "\n"
            continue
        if current is not None:
            found.append(current)
            current = None
            continue
        current = Block(page, fence.group(1), number + 2, "")
        for comment in COMMENT.findall(_comments_above(lines, number)):
            note = ANNOTATION.fullmatch(comment)
            if note is not None:
                current.notes.append((note.group(1), note.group(2), note.group(3) or ""))
    return found


def _comments_above(lines: list[str], fence: int) -> str:
    """The HTML comments directly above line ``fence`` (blank lines between them allowed), as text."""
    top = fence
    above = fence - 1
    while above >= 0:
        if not lines[above].strip():
            above -= 1
            continue
        if not lines[above].rstrip().endswith("-->"):
            break
        while above >= 0 and "<!--" not in lines[above]:
            above -= 1
        top = above
        above -= 1
    return "\n".join(lines[max(top, 0):fence])

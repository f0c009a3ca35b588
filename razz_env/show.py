"""``razz show``: hand records as a replay page you step through, and as pictures, one per street.

Every record must replay legally to its payoffs; a bad record, selection or output is exit status 2 and nothing is
written (docs/hand-records.md, docs/pictures.md).

:func:`load_hands` replays every record of the files (each must replay legally to its recorded
payoffs, else one :class:`ConfigError` names the file and line) into :class:`ShownHand` snapshots:
the table after the deal and after every action (the page's steps), and the table as each street's
betting closed (the pictures). :func:`write_html` writes one self-contained page (inline CSS, script
and SVG; nothing is fetched) that draws the steps from :func:`razz_env.envs.render.layout`;
:func:`write_pngs` paints the street pictures with :func:`razz_env.envs.render.draw_table`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from razz_env.engine.checks import limited
from razz_env.engine.config import STREET_NAMES
from razz_env.engine.errors import ConfigError
from razz_env.engine.record import replay_record, start_hand, unreadable_file
from razz_env.engine.replay import replay_items
from razz_env.envs.render import TableState, layout, table_script, table_state

PICTURE_NAME = re.compile(r"hand-\d+-\d+(st|nd|rd|th)\.png")


@dataclass(frozen=True)
class ShownHand:
    """One replayed record: where it came from, the page's steps and one picture per street."""

    number: int
    source: str
    steps: tuple[TableState, ...]
    streets: tuple[tuple[str, TableState], ...]


def parse_selection(text: str, total: int) -> list[int]:
    """Hand numbers (1-based) from ``"1-5,9"``; :class:`ConfigError` for bad syntax or numbers past ``total``.

    >>> parse_selection("2-4, 7", 10)
    [2, 3, 4, 7]
    """
    chosen: list[int] = []
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if match is None:
            raise ConfigError(f"--hands: expected hand numbers and ranges like '1-5,9', got {text!r}")
        first, last = int(match[1]), int(match[2] or match[1])
        if not 1 <= first <= last <= total:
            raise ConfigError(f"--hands: {part.strip()!r} is outside the hands in the files (1 to {total})")
        chosen += [n for n in range(first, last + 1) if n not in chosen]
    return chosen


def load_hands(paths: Sequence[str], viewer: int | None = None, selection: str | None = None) -> list[ShownHand]:
    """Replay the records of ``paths`` (in order) as :class:`ShownHand` s, as seat ``viewer`` saw them.

    Every line must be a record that replays legally to its payoffs, and every chosen hand (``selection``, e.g.
    ``"1-5,9"``; default all) must seat ``viewer``; otherwise one :class:`ConfigError` names the first bad
    ``file:line`` (and how many more there are).
    """
    unreadable = [f"{path}: {problem}" for path in paths if (problem := unreadable_file(path))]
    if unreadable:
        raise ConfigError("; ".join(unreadable))
    records: list[tuple[str, dict[str, Any]]] = []
    problems: list[str] = []
    for path in paths:
        for line, record in replay_items(path):
            where = f"{path}:{line}"
            if isinstance(record, Exception):
                problems.append(f"{where}: {record}")
                continue
            result = replay_record(record)
            if result.ok:
                records.append((where, record))
            else:
                problems.append(f"{where}: {result.message}")
    _refuse(problems, "bad line", "bad lines")
    if not records:
        raise ConfigError(f"{', '.join(paths)}: no hand records to show")
    numbers = parse_selection(selection, len(records)) if selection is not None else range(1, len(records) + 1)
    for number in numbers:
        where, record = records[number - 1]
        if viewer is not None and not 0 <= viewer < len(record["stacks"]):
            problems.append(f"{where}: --seat {viewer}: hand {number} has seats 0 to {len(record['stacks']) - 1} "
                            f"(--hands picks hands that have it)")
    _refuse(problems, "hand without that seat", "hands without that seat")
    return [_replay(number, *records[number - 1], viewer) for number in numbers]


def _refuse(problems: list[str], one: str, many: str) -> None:
    """One :class:`ConfigError` for the first problem, counting the others (``one`` / ``many`` of them)."""
    if problems:
        more = f" (and {len(problems) - 1} more {one if len(problems) == 2 else many})" * (len(problems) > 1)
        raise ConfigError(f"{problems[0]}{more}; nothing was written")


def _replay(number: int, source: str, record: dict[str, Any], viewer: int | None) -> ShownHand:
    """Step through a record that :func:`replay_record` accepted."""
    hand = start_hand(record)  # unknown cards ("??") are placeholders the pictures draw face down
    names = record.get("players")
    steps = [table_state(hand, viewer, names)]
    streets: list[tuple[str, TableState]] = []
    for action in record["actions"]:
        street = hand.street
        hand.act(action)
        if hand.street != street or hand.is_over:
            streets += [(STREET_NAMES[s], table_state(hand, viewer, names, street=s))
                        for s in hand.config.variant.street_numbers
                        if street <= s < hand.street + (1 if hand.is_over else 0)]
        steps.append(table_state(hand, viewer, names))
    return ShownHand(number, source, tuple(steps), tuple(streets))


def _checked_output(path: Path, force: bool, what: str) -> None:
    if path.is_dir():
        raise ConfigError(f"{what} {path}: is a folder; give a file name")
    if path.exists() and not force:
        raise ConfigError(f"{what} {path}: already exists; give a new name or --force to replace it")
    if not path.parent.is_dir():
        raise ConfigError(f"{what} {path}: no such folder {path.parent}")


def check_outputs(html: str | None, png: str | None, force: bool) -> None:
    """Refuse outputs that cannot be written or would silently replace or mix with earlier ones."""
    if html is None and png is None:
        raise ConfigError("give --html OUT.html (a replay page) and/or --png DIR (one picture per street)")
    if html is not None:
        _checked_output(Path(html), force, "--html")
    if png is not None:
        folder = Path(png)
        if folder.exists() and not folder.is_dir():
            raise ConfigError(f"--png {folder}: is a file; give a folder for the pictures")
        if folder.is_dir() and any(folder.iterdir()) and not force:
            raise ConfigError(f"--png {folder}: the folder is not empty; give a new or empty folder, or --force "
                              f"to replace the hand pictures in it")


def write_pngs(hands: Sequence[ShownHand], folder: str | Path) -> list[Path]:
    """One PNG per street of every hand (``hand-0001-3rd.png``); earlier hand pictures in ``folder`` are removed."""
    from PIL import Image

    from razz_env.envs.render import draw_table

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if PICTURE_NAME.fullmatch(old.name):
            old.unlink()
    digits = max(4, len(str(max(hand.number for hand in hands))))
    written = []
    for hand in hands:
        for street, state in hand.streets:
            path = folder / f"hand-{hand.number:0{digits}d}-{street}.png"
            Image.fromarray(draw_table(state)).save(path, optimize=True)
            written.append(path)
    return written


def page(hands: Sequence[ShownHand], title: str) -> str:
    """The replay page: the hands' steps as JSON, drawn and stepped through by an inline script."""
    data = {
        "title": title,
        "layouts": {f"{n}/{cards}": layout(n, cards) for n, cards in
                    sorted({(len(hand.steps[0].seats), hand.steps[0].cards_per_seat) for hand in hands})},
        "hands": [{"number": hand.number, "source": hand.source, "steps": [s.to_dict() for s in hand.steps]}
                  for hand in hands],
    }
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    safe_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    html = resources.files("razz_env.envs").joinpath("replay.html").read_text(encoding="utf-8")  # beside table.js
    return html.replace("{table_js}", table_script()).replace("{title}", safe_title).replace("{payload}", payload)


def write_html(hands: Sequence[ShownHand], path: str | Path, title: str) -> Path:
    """Write :func:`page` to ``path`` at once (a temporary file renamed into place)."""
    path = Path(path)
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(page(hands, title), encoding="utf-8")
    os.replace(partial, path)
    return path


@dataclass(frozen=True)
class Args:
    """``razz show``'s settings (its arguments; :func:`run`)."""

    files: tuple[str, ...] = field(metadata={"positional": True})
    """hand-record files (JSON lines), e.g. a tournament's hands/*.jsonl, or PHH files (.phh, .phhs)"""
    html: str | None = field(default=None, metadata={"metavar": "OUT.html"})
    """write the replay page (one self-contained page that steps through every hand) to this file"""
    png: str | None = field(default=None, metadata={"metavar": "DIR"})
    """write one PNG per street of each hand (hand-0001-3rd.png, ...) into this folder"""
    seat: int | None = limited(None, minimum=0, metavar="N")
    """show the hands as seat N saw them (others' down cards face down unless shown at the end); default: every
    card face up"""
    hands: str | None = field(default=None, metadata={"metavar": "LIST"})
    """which hands, numbered from 1 in file order, e.g. '1-20,25' (default: all)"""
    force: bool = False
    """replace an existing page, or the hand pictures in a folder that is not empty"""


def run(args: Args) -> int:
    """``razz show``: check the outputs, replay the records, write the page and the pictures asked for."""
    check_outputs(args.html, args.png, args.force)
    hands = load_hands(args.files, args.seat, args.hands)
    if args.html is not None:
        title = f"razz show: {', '.join(args.files)}"
        path = write_html(hands, args.html, title)
        print(f"wrote {path}: {len(hands)} hand{'s' if len(hands) != 1 else ''}, "
              f"{sum(len(hand.steps) for hand in hands)} steps")
    if args.png is not None:
        pictures = write_pngs(hands, args.png)
        print(f"wrote {len(pictures)} pictures (one per street) to {args.png}")
    return 0

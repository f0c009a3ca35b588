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
    return (_PAGE.replace("{table_js}", table_script()).replace("{title}", safe_title)
            .replace("{payload}", payload))


def write_html(hands: Sequence[ShownHand], path: str | Path, title: str) -> Path:
    """Write :func:`page` to ``path`` at once (a temporary file renamed into place)."""
    path = Path(path)
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(page(hands, title), encoding="utf-8")
    os.replace(partial, path)
    return path


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
  body { margin: 0; background: #0d1912; color: #f1f5f2; font: 14px "DejaVu Sans", Arial, sans-serif; }
  header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 12px; background: #13241a; }
  header h1 { font-size: 15px; margin: 0 12px 0 0; font-weight: normal; color: #9fb3a6; }
  button, select { background: #1c3a28; color: #f1f5f2; border: 1px solid #7d9c89; border-radius: 4px;
                   padding: 3px 9px; font: inherit; cursor: pointer; }
  button:hover, select:hover { background: #275237; }
  input[type=range] { width: 220px; }
  #where { color: #f4c430; min-width: 260px; }
  main { padding: 8px 12px; }
  svg { display: block; max-width: 100%; height: auto; }
  svg text { white-space: pre; }
  .hint { color: #9fb3a6; font-size: 12px; padding: 0 12px 10px; }
</style>
</head>
<body>
<header>
  <h1>{title}</h1>
  <select id="hand" aria-label="hand"></select>
  <button id="first" title="first step (Home)">|&#x25C0;</button>
  <button id="prev" title="previous step (left arrow)">&#x25C0;</button>
  <button id="play" title="play or pause (space)">play</button>
  <button id="next" title="next step (right arrow)">&#x25B6;</button>
  <button id="last" title="last step: the result (End)">&#x25B6;|</button>
  <input id="step" type="range" min="0" value="0" aria-label="step">
  <span id="where"></span>
</header>
<main><svg id="table" xmlns="http://www.w3.org/2000/svg"></svg></main>
<div class="hint">Keys: left/right arrows step through the hand, up/down change hand, Home/End jump, space plays.
  Links: add #hand=N&amp;step=K (or step=last) to the address.</div>
<script type="application/json" id="data">{payload}</script>
<script>
{table_js}
</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const svg = document.getElementById("table");
const handSelect = document.getElementById("hand");
const slider = document.getElementById("step");
const where = document.getElementById("where");
let handIndex = 0, stepIndex = 0, timer = null;

function draw() {
  const hand = DATA.hands[handIndex], state = hand.steps[stepIndex];
  drawTable(svg, DATA.layouts[`${state.seats.length}/${state.cards_per_seat}`], state);
  slider.max = hand.steps.length - 1;
  slider.value = stepIndex;
  handSelect.value = String(handIndex);
  const last = stepIndex === 0 ? "the deal" : state.over ? "the result" : hand.steps[stepIndex].actions.at(-1) || "";
  where.textContent = `hand ${hand.number} (${hand.source}), step ${stepIndex} of ${hand.steps.length - 1}: ${last}`;
  history.replaceState(null, "", `#hand=${hand.number}&step=${stepIndex}`);
}
function go(hand, step) {
  handIndex = Math.min(Math.max(hand, 0), DATA.hands.length - 1);
  stepIndex = Math.min(Math.max(step, 0), DATA.hands[handIndex].steps.length - 1);
  draw();
}
function play() {
  const button = document.getElementById("play");
  if (timer !== null) { clearInterval(timer); timer = null; button.textContent = "play"; return; }
  button.textContent = "pause";
  timer = setInterval(() => {
    if (stepIndex < DATA.hands[handIndex].steps.length - 1) go(handIndex, stepIndex + 1);
    else if (handIndex < DATA.hands.length - 1) go(handIndex + 1, 0);
    else play();
  }, 900);
}
DATA.hands.forEach((hand, index) => {
  const option = document.createElement("option");
  option.value = String(index);
  const first = hand.steps[0];
  option.textContent = `hand ${hand.number}: ${first.title.split(" (")[0]}, ${first.seats.length} seats`;
  handSelect.appendChild(option);
});
handSelect.addEventListener("change", () => go(Number(handSelect.value), 0));
slider.addEventListener("input", () => go(handIndex, Number(slider.value)));
document.getElementById("first").addEventListener("click", () => go(handIndex, 0));
document.getElementById("prev").addEventListener("click", () => go(handIndex, stepIndex - 1));
document.getElementById("next").addEventListener("click", () => go(handIndex, stepIndex + 1));
document.getElementById("last").addEventListener("click", () => go(handIndex, Infinity));
document.getElementById("play").addEventListener("click", play);
document.addEventListener("keydown", (event) => {
  const moves = {ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, null], ArrowDown: [1, null]};
  if (event.key in moves) {
    const [dh, ds] = moves[event.key];
    go(handIndex + dh, ds === null ? 0 : stepIndex + ds);
  } else if (event.key === "Home") go(handIndex, 0);
  else if (event.key === "End") go(handIndex, Infinity);
  else if (event.key === " ") play();
  else return;
  event.preventDefault();
});
const asked = new URLSearchParams(location.hash.slice(1));
const askedHand = DATA.hands.findIndex((hand) => String(hand.number) === asked.get("hand"));
go(askedHand < 0 ? 0 : askedHand, asked.get("step") === "last" ? Infinity : Number(asked.get("step")) || 0);
</script>
</body>
</html>
"""


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

"""Pictures of the table: what a viewer sees of a hand, as plain data and as an RGB image.

:func:`table_state` takes the snapshot (cards face up or down as the viewer may see them, stacks,
bets, pot, whose turn, the last actions and, at the end, the result); :func:`draw_table` paints it
with Pillow as an ``(H, W, 3)`` uint8 array (the environments' ``rgb_array`` render mode, the PNGs
of ``razz show``). The replay page of :mod:`razz_env.show` draws the same snapshots in the browser
from the same layout (:func:`layout`). Cards use a four-colour deck and suit shapes drawn from
:data:`SUIT_SHAPES`, text Pillow's built-in font: nothing is read from the network or the system.

>>> from razz_env.engine.config import HandConfig
>>> from razz_env.engine.state import HandState
>>> hand = HandState(HandConfig.create("razz", num_seats=3), seed=1)
>>> picture = draw_table(table_state(hand, viewer=hand.actor))
>>> picture.shape, picture.dtype.name
((640, 960, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

import numpy as np

from razz_env.engine.cards import RANKS, card_str
from razz_env.engine.config import STREET_NAMES
from razz_env.engine.text import contested, shows_down_cards

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

    from razz_env.engine.state import HandState

WIDTH, HEIGHT = 960, 640
SEAT_W, SEAT_H = 244, 118
CARD_W, CARD_H, CARD_GAP = 29, 41, 4
CENTER = (480, 332)
SEAT_RADII = (355, 226)
CARD_ROW_Y = 24
PANEL = (362, 172, 598, 490)
RECENT_ACTIONS = 6
STUD_CARDS = 7  # a seven-card stud seat's row of cards; shorter games (MiniRazz) centre theirs in the same box
RANK_TEXT = {rank: ("10" if rank == "T" else rank) for rank in RANKS}
# One colour per suit (clubs, diamonds, hearts, spades): a four-colour deck reads at small sizes.
SUIT_COLOURS = {"c": "#17803d", "d": "#1d5fc2", "h": "#c62828", "s": "#151515"}
# Each suit as circles (cx, cy, r) and polygons in a unit square, for Pillow and the replay page alike.
SUIT_SHAPES: dict[str, dict[str, list[Any]]] = {
    "d": {"circles": [], "polygons": [[(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)]]},
    "h": {"circles": [(0.28, 0.3, 0.25), (0.72, 0.3, 0.25)],
          "polygons": [[(0.05, 0.4), (0.95, 0.4), (0.5, 1.0)]]},
    "s": {"circles": [(0.28, 0.6, 0.23), (0.72, 0.6, 0.23)],
          "polygons": [[(0.5, 0.0), (0.96, 0.6), (0.04, 0.6)], [(0.5, 0.55), (0.7, 1.0), (0.3, 1.0)]]},
    "c": {"circles": [(0.5, 0.26, 0.22), (0.26, 0.62, 0.22), (0.74, 0.62, 0.22)],
          "polygons": [[(0.5, 0.5), (0.68, 1.0), (0.32, 1.0)]]},
}
COLOURS = {
    "background": "#0d1912", "felt": "#1c6a3b", "rim": "#5b3a1c", "seat": "#0f2c1b", "seat_folded": "#1a211d",
    "edge": "#7d9c89", "turn": "#f4c430", "text": "#f1f5f2", "muted": "#9fb3a6", "face": "#ffffff",
    "hole_face": "#dbe5f3", "back": "#8e1b2e", "back_line": "#c2485b", "win": "#6be38f", "loss": "#ff8a80",
}
_VERBS = {"fold": "folds", "check": "checks", "call": "calls", "bring_in": "brings in", "complete": "completes",
          "bet": "bets", "bet_big": "bets big", "raise": "raises"}
_HALF_NAMES = {"razz": "low", "action_razz": "low", "high": "high", "eight": "low"}


@dataclass(frozen=True)
class SeatState:
    """One seat as the viewer sees it. ``cards``: ``(name or None when face down, is a down card)`` each."""

    seat: int
    name: str
    cards: tuple[tuple[str | None, bool], ...]
    stack: int
    bet: int
    in_pot: int
    folded: bool
    all_in: bool
    payoff: int | None
    shows: str


@dataclass(frozen=True)
class TableState:
    """The whole picture: title, street, pot, seats, community card, whose turn, recent actions, result.

    ``cards_per_seat``: the cards a seat is dealt in the whole hand (7 in seven-card stud, 3 in MiniRazz),
    which places each seat's row of cards (:func:`card_box`).
    """

    title: str
    street: str
    pot: int
    stakes: str
    seats: tuple[SeatState, ...]
    community: str | None
    actor: int | None
    to_call: int
    actions: tuple[str, ...]
    result: tuple[str, ...]
    over: bool
    viewer: str
    cards_per_seat: int = STUD_CARDS

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the replay page's steps)."""
        return asdict(self)


def table_state(hand: HandState, viewer: int | None = None, names: Sequence[str] | None = None,
                street: int | None = None) -> TableState:
    """What ``viewer`` (a seat, or ``None`` for every card face up) sees of ``hand`` now.

    ``street``: picture that street as its betting closed (its cards and actions only, nobody to act); give
    it right after the street's last action, when the next street's cards are already dealt. ``names``: one
    display name per seat.
    """
    n = hand.num_seats
    variant = hand.config.variant
    up = variant.up_positions
    shown = hand.street if street is None else street
    final = hand.is_over and shown == hand.street
    names = [str(name) for name in names] if names is not None else [""] * n
    if len(names) != n:
        raise ValueError(f"names: expected {n} names (one per seat), got {len(names)}")
    seats = []
    for seat in range(n):
        held = hand.cards[seat] if street is None else hand.cards[seat][:shown]
        visible = shows_down_cards(hand, seat, viewer) if final else viewer is None or viewer == seat
        cards = tuple((card_str(card) if (visible or position in up) and hand.is_known(seat, position) else None,
                       position not in up) for position, card in enumerate(held))
        seats.append(SeatState(
            seat, names[seat], cards, hand.stacks[seat],
            sum(e.amount for e in hand.history if e.seat == seat and e.street == shown),
            hand.contributed[seat], hand.folded[seat], hand.is_all_in(seat) and not final,
            hand.payoffs[seat] if final else None, _shows(hand, seat) if final else ""))
    entries = [e for e in hand.history if e.street == shown] if street is not None else hand.history[-RECENT_ACTIONS:]
    actions = tuple(f"{STREET_NAMES[e.street]} s{e.seat} {_VERBS[str(e.action)]}" + (f" {e.amount}" if e.amount else "")
                    for e in entries[-RECENT_ACTIONS:])
    live = street is None and not hand.is_over
    stakes = hand.config.stakes
    return TableState(
        hand.config.variant.title, f"{STREET_NAMES[shown]} street", hand.pot,
        f"ante {stakes.ante}, bring-in {stakes.bring_in}, {stakes.small_bet}/{stakes.big_bet}",
        tuple(seats),
        card_str(hand.community) if hand.community is not None and shown == variant.street_numbers[-1] else None,
        hand.actor if live else None, hand.to_call if live else 0, actions,
        _result(hand) if final else (), final,
        "all cards face up" if viewer is None else f"seen by seat {viewer}" if viewer >= 0 else "shown cards only",
        variant.cards_per_seat)


def _shows(hand: HandState, seat: int) -> str:
    from razz_env.engine.hand_value import describe

    if hand.folded[seat] or not contested(hand):
        return ""
    cards, variant = hand.showdown_cards(seat), hand.config.variant
    return "; ".join(f"{_HALF_NAMES[half]}: {describe(cards, half, variant.hand_size)}" for half in variant.showdown)


def _result(hand: HandState) -> tuple[str, ...]:
    lines = []
    for number, pot in enumerate(hand.pots):
        lines.append(f"{'main pot' if number == 0 else f'side pot {number}'} {pot.amount}")
        lines += [f"seat {seat} wins {chips}" for seat, chips in sorted(pot.shares.items())]
    return tuple(lines)


# ------------------------------------------------------------------ layout


def table_script() -> str:
    """The script that draws a :class:`TableState` (its ``to_dict``) into an SVG element from :func:`layout`:
    ``drawTable(svg, layout, state)``, shared by the replay page and the browser app (``table.js``)."""
    return files("razz_env.envs").joinpath("table.js").read_text(encoding="utf-8")


def seat_origin(num_seats: int, seat: int) -> tuple[int, int]:
    """Top-left corner of ``seat``'s box: seat 0 at the bottom, the others clockwise round the table."""
    angle = math.pi / 2 + 2 * math.pi * seat / num_seats
    x = CENTER[0] + SEAT_RADII[0] * math.cos(angle) - SEAT_W / 2
    y = CENTER[1] + SEAT_RADII[1] * math.sin(angle) - SEAT_H / 2
    return (int(round(min(max(x, 6), WIDTH - SEAT_W - 6))), int(round(min(max(y, 44), HEIGHT - SEAT_H - 6))))


def card_box(num_seats: int, seat: int, position: int, cards_per_seat: int = STUD_CARDS) -> tuple[int, int, int, int]:
    """``(left, top, right, bottom)`` of the ``position``-th card (dealing order) of ``seat`` in the picture, in a
    row of ``cards_per_seat`` cards centred in the seat's box."""
    x, y = seat_origin(num_seats, seat)
    left = (x + (SEAT_W - cards_per_seat * CARD_W - (cards_per_seat - 1) * CARD_GAP) // 2
            + position * (CARD_W + CARD_GAP))
    top = y + CARD_ROW_Y
    return (left, top, left + CARD_W, top + CARD_H)


def layout(num_seats: int, cards_per_seat: int = STUD_CARDS) -> dict[str, Any]:
    """Every size and place the picture uses, as JSON-ready data (the replay page draws from it)."""
    return {
        "width": WIDTH, "height": HEIGHT, "seat": [SEAT_W, SEAT_H], "card": [CARD_W, CARD_H, CARD_GAP],
        "center": list(CENTER), "felt": [CENTER[0], CENTER[1], SEAT_RADII[0] + 40, SEAT_RADII[1] + 20],
        "panel": list(PANEL), "card_row_y": CARD_ROW_Y,
        "seats": [list(seat_origin(num_seats, seat)) for seat in range(num_seats)],
        "cards": [[list(card_box(num_seats, seat, p, cards_per_seat)[:2]) for p in range(cards_per_seat)]
                  for seat in range(num_seats)],
        "colours": COLOURS, "suit_colours": SUIT_COLOURS, "suits": SUIT_SHAPES, "ranks": RANK_TEXT,
    }


# ------------------------------------------------------------------ drawing


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """``text`` cut with '...' to fit ``width`` pixels."""
    font = _font(size)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "...", font=font) > width:
        text = text[:-1]
    return text + "..."


def _centred(draw: ImageDraw.ImageDraw, y: int, text: str, size: int, fill: str) -> None:
    left, right = PANEL[0], PANEL[2]
    text = _fit(draw, text, size, right - left)
    width = draw.textlength(text, font=_font(size))
    draw.text(((left + right - width) / 2, y), text, font=_font(size), fill=fill)


def _suit(draw: ImageDraw.ImageDraw, suit: str, x: float, y: float, size: float, fill: str) -> None:
    shape = SUIT_SHAPES[suit]
    for cx, cy, r in shape["circles"]:
        draw.ellipse((x + (cx - r) * size, y + (cy - r) * size, x + (cx + r) * size, y + (cy + r) * size), fill=fill)
    for polygon in shape["polygons"]:
        draw.polygon([(x + px * size, y + py * size) for px, py in polygon], fill=fill)


def _card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], name: str | None, down: bool) -> None:
    left, top, right, bottom = box
    if name is None:
        draw.rounded_rectangle(box, radius=4, fill=COLOURS["back"], outline="#f3e6e8", width=2)
        width, height = CARD_W - 8, CARD_H - 8
        for k in range(-height, width, 6):  # the diagonals x - y = k of the inner rectangle
            x0, x1 = max(k, 0), min(width, height + k)
            draw.line((left + 4 + x0, top + 4 + x0 - k, left + 4 + x1, top + 4 + x1 - k), fill=COLOURS["back_line"])
        return
    rank, suit = name[0], name[1]
    draw.rounded_rectangle(box, radius=4, fill=COLOURS["hole_face" if down else "face"], outline="#8a8f95", width=1)
    colour = SUIT_COLOURS[suit]
    draw.text((left + 3, top + 1), RANK_TEXT[rank], font=_font(15), fill=colour)
    _suit(draw, suit, left + (CARD_W - 15) / 2, bottom - 20, 15, colour)


def _seat(image: Image.Image, draw: ImageDraw.ImageDraw, state: TableState, seat: SeatState) -> None:
    n = len(state.seats)
    x, y = seat_origin(n, seat.seat)
    turn = state.actor == seat.seat
    edge = COLOURS["turn"] if turn else COLOURS["win"] if (seat.payoff or 0) > 0 else COLOURS["edge"]
    draw.rounded_rectangle((x, y, x + SEAT_W, y + SEAT_H), radius=8,
                           fill=COLOURS["seat_folded" if seat.folded else "seat"], outline=edge, width=3 if turn else 1)
    text = COLOURS["muted"] if seat.folded else COLOURS["text"]
    badge, badge_colour = "", text
    if turn:
        badge, badge_colour = "TO ACT", COLOURS["turn"]
    elif seat.payoff is not None:
        badge = f"{seat.payoff:+d}"
        badge_colour = COLOURS["win"] if seat.payoff > 0 else COLOURS["loss"] if seat.payoff < 0 else text
    elif seat.folded:
        badge = "folded"
    elif seat.all_in:
        badge, badge_colour = "all-in", COLOURS["turn"]
    badge_width = draw.textlength(badge, font=_font(14))
    draw.text((x + SEAT_W - 8 - badge_width, y + 5), badge, font=_font(14), fill=badge_colour)
    label = f"seat {seat.seat}" + (f"  {seat.name}" if seat.name else "")
    draw.text((x + 8, y + 5), _fit(draw, label, 14, SEAT_W - 24 - int(badge_width)), font=_font(14), fill=text)
    row_of = state.cards_per_seat
    for position, (name, down) in enumerate(seat.cards):
        _card(draw, card_box(n, seat.seat, position, row_of), name, down)
    if seat.folded and seat.cards:
        from PIL import Image

        row = card_box(n, seat.seat, 0, row_of)[:2] + card_box(n, seat.seat, len(seat.cards) - 1, row_of)[2:]
        region = image.crop(row)
        image.paste(Image.blend(region, Image.new("RGB", region.size, COLOURS["seat_folded"]), 0.6), row[:2])
    money = f"stack {seat.stack}   in pot {seat.in_pot}" + (f"   bet {seat.bet}" if seat.bet else "")
    draw.text((x + 8, y + CARD_ROW_Y + CARD_H + 5), _fit(draw, money, 13, SEAT_W - 16), font=_font(13), fill=text)
    for line, half in enumerate(seat.shows.split("; ") if seat.shows else ()):
        draw.text((x + 8, y + CARD_ROW_Y + CARD_H + 22 + 14 * line), _fit(draw, half, 12, SEAT_W - 16), font=_font(12),
                  fill=COLOURS["turn"] if (seat.payoff or 0) > 0 else text)


def draw_table(state: TableState) -> np.ndarray:
    """The picture of ``state``: an ``(HEIGHT, WIDTH, 3)`` uint8 RGB array, the same for the same state."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), COLOURS["background"])
    draw = ImageDraw.Draw(image)
    cx, cy = CENTER
    rx, ry = SEAT_RADII[0] + 40, SEAT_RADII[1] + 20
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=COLOURS["felt"], outline=COLOURS["rim"], width=14)
    draw.text((12, 10), _fit(draw, state.title, 16, 600), font=_font(16), fill=COLOURS["text"])
    corner = f"{state.street}   {state.viewer}"
    draw.text((WIDTH - 12 - draw.textlength(corner, font=_font(14)), 12), corner, font=_font(14),
              fill=COLOURS["muted"])
    for seat in state.seats:
        _seat(image, draw, state, seat)
    top = PANEL[1]
    _centred(draw, top, f"pot {state.pot}", 24, COLOURS["text"])
    _centred(draw, top + 32, state.stakes, 13, COLOURS["muted"])
    y = top + 56
    if state.community is not None:
        left = (PANEL[0] + PANEL[2] - CARD_W) // 2
        _card(draw, (left, y, left + CARD_W, y + CARD_H), state.community, False)
        y += CARD_H + 6
    if state.actor is not None:
        owed = f", {state.to_call} to call" if state.to_call else ""
        _centred(draw, y, f"seat {state.actor} to act{owed}", 15, COLOURS["turn"])
        y += 24
    lines = state.result if state.over else state.actions
    if state.over:
        _centred(draw, y, "hand over", 15, COLOURS["turn"])
        y += 24
    for line in lines[: (PANEL[3] - y) // 18]:
        _centred(draw, y, line, 13, COLOURS["text"])
        y += 18
    return np.asarray(image, dtype=np.uint8)


def render_rgb(hand: HandState, viewer: int | None = None, names: Sequence[str] | None = None) -> np.ndarray:
    """:func:`draw_table` of :func:`table_state`: the environments' ``rgb_array`` picture."""
    return draw_table(table_state(hand, viewer, names))


__all__ = ["HEIGHT", "WIDTH", "SeatState", "TableState", "card_box", "draw_table", "layout", "render_rgb",
           "seat_origin", "table_state"]

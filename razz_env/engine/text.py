"""Plain-text rendering of a hand: boards, the viewer's own down cards, pot, stacks, actions, results.

Used by ``razz demo``, ``razz play`` and the environments' ``ansi``/``human``
render modes. ``viewer=None`` shows every card (a finished hand, or a demo).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from razz_env.engine.cards import card_str
from razz_env.engine.config import STREET_NAMES

if TYPE_CHECKING:
    from razz_env.engine.state import HandState

_HIDDEN = "##"
_HALF_NAMES = {"razz": "low", "action_razz": "low", "high": "high", "eight": "low"}


def _show(cards: list[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def shows_down_cards(hand: HandState, seat: int, viewer: int | None) -> bool:
    """Whether ``viewer`` sees ``seat``'s down cards: its own, everyone's for ``None``, or shown at a showdown."""
    showdown = hand.is_over and not hand.folded[seat] and len(hand.pots) > 0 and contested(hand)
    return viewer is None or viewer == seat or showdown


def seat_line(hand: HandState, seat: int, viewer: int | None) -> str:
    """One seat: its cards (down cards hidden unless shown), stack and chips in."""
    held = hand.cards[seat]
    visible = shows_down_cards(hand, seat, viewer)
    ups = hand.config.variant.up_positions
    parts = [_HIDDEN if not hand.is_known(seat, position) else card_str(card) if position in ups or visible
             else _HIDDEN for position, card in enumerate(held)]
    down = " ".join(parts[: ups.start] + parts[ups.stop:])
    up = " ".join(parts[ups.start: ups.stop])
    status = "folded" if hand.folded[seat] else ("all-in" if hand.stacks[seat] == 0 and not hand.is_over else "")
    marker = ">" if hand.actor == seat else " "
    return (f"{marker} seat {seat}: [{down}] {up:<12} stack {hand.stacks[seat]:>6}  "
            f"in {hand.contributed[seat]:>5}  {status}").rstrip()


def contested(hand: HandState) -> bool:
    """More than one seat is still in the hand (a finished one went to a showdown)."""
    return sum(1 for f in hand.folded if not f) > 1


def render_hand(hand: HandState, viewer: int | None = None, last_actions: int = 8) -> str:
    """The table as text from ``viewer``'s seat (``None``: everything face up)."""
    from razz_env.engine.hand_value import describe

    variant = hand.config.variant
    lines = [f"{variant.title} - {STREET_NAMES[hand.street]} street - pot {hand.pot}"]
    if hand.community is not None:
        lines.append(f"community card: {card_str(hand.community)}")
    lines += [seat_line(hand, seat, viewer) for seat in range(hand.num_seats)]
    if hand.history:
        recent = hand.history[-last_actions:]
        lines.append("last actions: " + ", ".join(
            f"{STREET_NAMES[e.street]} s{e.seat} {e.action}" + (f" {e.amount}" if e.amount else "") for e in recent))
    if not hand.is_over:
        legal = ", ".join(str(a) for a in hand.legal_actions())
        lines.append(f"seat {hand.actor} to act ({legal}); to call {hand.to_call}")
        return "\n".join(lines)
    if contested(hand):
        for seat in range(hand.num_seats):
            if not hand.folded[seat]:
                cards = hand.showdown_cards(seat)
                names = "; ".join(f"{_HALF_NAMES[half]}: {describe(cards, half, variant.hand_size)}"
                                  for half in variant.showdown)
                lines.append(f"  seat {seat} shows {_show(cards)}  ({names})")
    for number, pot in enumerate(hand.pots):
        label = "main pot" if number == 0 else f"side pot {number}"
        won = ", ".join(f"seat {s} wins {chips}" for s, chips in sorted(pot.shares.items()))
        lines.append(f"  {label} {pot.amount}: {won}")
    lines.append("payoffs: " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(hand.payoffs or [])))
    return "\n".join(lines)

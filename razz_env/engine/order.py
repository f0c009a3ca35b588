"""Who brings in on 3rd street and who opens 4th to 7th: boards compared as ``rules.md`` says.

A board's strength is a tuple (greater = better board). Lowball variants read
boards with aces low and pairs bad, and on equal ranks the lower suits win
(003: 3♥2♦ opens before 3♠2♦); high variants read ordinary poker ranks with
aces high and the higher suits win. Suits are compared card by card with the
cards ordered by rank then suit, highest first. The bring-in is the weakest door
card, so the same key serves both questions.

>>> from razz_env.engine.cards import parse_cards
>>> weakest_seat([parse_cards("Kh"), parse_cards("Ks")], low=True)  # K♠ brings in over K♥
1
>>> strongest_seat([parse_cards("3s 2d"), parse_cards("3h 2d")], low=True)
1
"""

from __future__ import annotations

from collections.abc import Sequence


def board_strength(up_cards: Sequence[int], low: bool) -> tuple:
    """Comparable strength of a board of up to four up cards (greater opens first)."""
    if low:
        keyed = sorted(((c >> 2, c & 3) for c in up_cards), reverse=True)
    else:
        keyed = sorted((((c >> 2) - 1) % 13, c & 3) for c in up_cards)
        keyed.reverse()
    counts: dict[int, int] = {}
    for rank, _ in keyed:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    pattern = tuple(n for n, _ in groups)
    ranks = tuple(r for _, r in groups)
    suits = tuple(s for _, s in keyed)
    if low:
        return (tuple(-n for n in pattern), tuple(-r for r in ranks), tuple(-s for s in suits))
    return (pattern, ranks, suits)


def weakest_seat(boards: Sequence[Sequence[int] | None], low: bool) -> int:
    """Seat with the weakest board (the bring-in on 3rd street); ``None`` boards are skipped."""
    best_seat = -1
    best_key = None
    for seat, board in enumerate(boards):
        if board is None:
            continue
        key = board_strength(board, low)
        if best_key is None or key < best_key:
            best_seat, best_key = seat, key
    return best_seat


def strongest_seat(boards: Sequence[Sequence[int] | None], low: bool) -> int:
    """Seat with the strongest board (opens 4th to 7th street); ``None`` boards are skipped."""
    best_seat = -1
    best_key = None
    for seat, board in enumerate(boards):
        if board is None:
            continue
        key = board_strength(board, low)
        if best_key is None or key > best_key:
            best_seat, best_key = seat, key
    return best_seat

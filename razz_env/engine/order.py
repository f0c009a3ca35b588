"""Who brings in on the first street and who opens the later ones: boards compared as ``rules.md`` says.

A board's strength is a tuple (greater = better board). Lowball variants read
boards with aces low and pairs bad, and on equal ranks the lower suits win
(003: 3♥2♦ opens before 3♠2♦); high variants read ordinary poker ranks with
aces high and the higher suits win. Suits are compared card by card with the
cards ordered by rank then suit, highest first. The bring-in is the weakest door
card, so the same key serves both questions. With ``suits=False`` (``bring_in_tie_break="position"`` for
the door cards, ``later_street_tie_break="position"`` for later boards) suits are ignored and equal boards
go by position: the first seat from seat 0 (the dealer sits just before seat 0, so seat order is clockwise
from the dealer).

>>> from razz_env.engine.cards import parse_cards
>>> weakest_seat([parse_cards("Kh"), parse_cards("Ks")], low=True)  # K♠ brings in over K♥
1
>>> strongest_seat([parse_cards("3s 2d"), parse_cards("3h 2d")], low=True)
1
>>> weakest_seat([parse_cards("Kh"), parse_cards("Ks")], low=True, suits=False)  # position: seat 0
0
"""

from __future__ import annotations

from collections.abc import Sequence

_HIGH_ORDER = tuple((((c >> 2) - 1) % 13) * 4 + (c & 3) for c in range(52))
_SINGLETONS = tuple(sum(5**i for i in range(n)) for n in range(53))


def board_strength(up_cards: Sequence[int], low: bool, suits: bool = True) -> int:
    """Comparable strength of a board of up cards (greater opens first).

    Boards of the same size compare by count pattern (pairs, trips...), then ranks
    grouped by count, then suits card by card (``suits``; else boards of equal ranks are
    equal); all three packed into one int.
    """
    if low:
        keyed = sorted(up_cards, reverse=True)
    else:
        keyed = sorted([_HIGH_ORDER[c] for c in up_cards], reverse=True)
    size = len(keyed)
    ranks = [k >> 2 for k in keyed]
    suit_code = 0
    if suits:
        for k in keyed:
            suit_code = suit_code * 4 + (k & 3)
    rank_code = 0
    if len(set(ranks)) == size:
        pattern_code = _SINGLETONS[size]
        for r in ranks:
            rank_code = rank_code * 16 + r
    else:
        counts: dict[int, int] = {}
        for r in ranks:
            counts[r] = counts.get(r, 0) + 1
        pattern_code = 0
        for count, rank in sorted([(count, rank) for rank, count in counts.items()], reverse=True):
            pattern_code = pattern_code * 5 + count
            rank_code = rank_code * 16 + rank
        padding = size - len(counts)
        pattern_code *= 5**padding
        rank_code *= 16**padding
    key = (pattern_code * 16**size + rank_code) * 4**size + suit_code
    return -key if low else key


def bring_in_seat(doors: Sequence[int], low: bool, suits: bool = True) -> int:
    """Seat of the weakest door card: the highest card in lowball, the lowest in high games.

    For one card the board order is rank then suit, which card ints already follow
    (``rank * 4 + suit``, aces low); high games re-rank aces high. Without ``suits``,
    equal ranks go to the first such seat.
    """
    shift = 0 if suits else 2
    if low:
        keys = [c >> shift for c in doors]
        return keys.index(max(keys))
    keys = [_HIGH_ORDER[c] >> shift for c in doors]
    return keys.index(min(keys))


def _extreme_seat(boards: Sequence[Sequence[int] | None], low: bool, strongest: bool, suits: bool) -> int:
    best_seat = -1
    best_key: int | None = None
    for seat, board in enumerate(boards):
        if board is None:
            continue
        key = board_strength(board, low, suits)
        if best_key is None or (key > best_key if strongest else key < best_key):
            best_seat, best_key = seat, key
    return best_seat


def weakest_seat(boards: Sequence[Sequence[int] | None], low: bool, suits: bool = True) -> int:
    """Seat with the weakest board (the bring-in on the first street); ``None`` boards are skipped; equal boards
    (without ``suits``) go to the first seat."""
    return _extreme_seat(boards, low, False, suits)


def strongest_seat(boards: Sequence[Sequence[int] | None], low: bool, suits: bool = True) -> int:
    """Seat with the strongest board (opens every later street); ``None`` boards are skipped; equal boards
    (without ``suits``) go to the first seat."""
    return _extreme_seat(boards, low, True, suits)

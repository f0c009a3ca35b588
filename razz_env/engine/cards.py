"""Cards as small ints: ``card = rank_index * 4 + suit_index``.

Rank indices follow ``RANKS = "A23456789TJQK"`` (ace is index 0, king 12); suit
indices follow ``SUITS = "cdhs"`` (clubs lowest, spades highest, the order that
breaks bring-in and board ties). Ints keep the hot paths (dealing, evaluation,
observation encoding) free of object overhead.

>>> parse_card("As"), card_str(3), parse_cards("Kd 2c")
(3, 'As', [49, 4])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from razz_env.engine.errors import shown

RANKS = "A23456789TJQK"
SUITS = "cdhs"
DECK_SIZE = 52

CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_CARD_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


class CardError(ValueError):
    """A card string that is not a card, or a card dealt twice."""


def rank_of(card: int) -> int:
    """Rank index of ``card`` (ace 0 ... king 12)."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index of ``card`` (clubs 0 ... spades 3)."""
    return card & 3


def parse_card(text: str) -> int:
    """Parse ``"As"``-style text (rank ``A23456789TJQK``, suit ``cdhs``, any case) into a card int."""
    card = _CARD_BY_NAME.get(text) if isinstance(text, str) else None
    if card is None:
        card = _CARD_BY_NAME.get(text[:1].upper() + text[1:].lower()) if isinstance(text, str) else None
        if card is None:
            raise CardError(
                f"unknown card {shown(text)}: expected a rank from {RANKS} followed by a suit from {SUITS}, e.g. 'As'"
            )
    return card


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse a space-separated string or an iterable of card strings."""
    items = text.split() if isinstance(text, str) else text
    return [parse_card(item) for item in items]


def card_str(card: int) -> str:
    """The two-character name of ``card``, e.g. ``"Kd"``."""
    return CARD_NAMES[card]


def cards_str(cards: Sequence[int]) -> str:
    """Space-separated names of ``cards``."""
    return " ".join(CARD_NAMES[c] for c in cards)


def check_distinct(cards: Iterable[int], where: str = "cards", error: type[ValueError] = CardError) -> None:
    """Raise ``error`` (a :class:`CardError`, or say a ``ConfigError``) naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise error(f"{where}: card {CARD_NAMES[card]} is dealt twice")
        seen.add(card)

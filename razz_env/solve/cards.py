"""The solver's cards: tokens, private holdings, chance weights and the tie-break coins.

A *token* is what the solver deals. In the suited game it is a card of the variant's deck.
In the rank game (the default) it is a rank, dealt with the multiplicity of its suits: in
the razz family suits never decide a showdown (lows are read by rank) and matter only
through card removal and through the tie-break between equal up cards, so dealing ranks
with removal weights and keeping, per rank, just the suit order that a tie-break can read,
is the same game. :func:`coin_ranks` says when that order is dealt (as a fair public coin).

Why it is exact (two suits; one suit never ties). A tie-break between two boards of equal
ranks is read, as :mod:`razz_env.engine.order` does, on the suits of the highest rank of
the boards: one copy each, so one of the two is the lower suit. That rank is the highest
up card showing, so a rank can decide a tie (now or on a later street) only if, when its
first copy is turned up, it is the highest up card showing and its other copy can still
reach the other board. For such a rank the suited game shows everyone the suit of that
first copy, and with it who would win the tie; the rank game deals the same fact as a
coin at the same moment (each suit order is equally likely, whatever else was dealt,
since swapping the two suits of one rank maps deals to deals). Every other suit a player
sees (its down cards', up cards of a rank that can never decide a tie) changes no payoff,
no legal action and no later chance, so forgetting it changes no value and no best
response. ``tests/solve`` checks this against the suited game.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

from razz_env.engine.cards import CARD_NAMES, RANKS, SUITS
from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import Variant

Tokens = tuple[int, ...]


class CardModel:
    """How the solver deals one variant: rank tokens (``suited=False``) or card tokens.

    ``cards[t]`` is a card id standing for token ``t`` (the rank's lowest suit in the rank
    game), ``copies[t]`` how many cards the token stands for, ``labels[t]`` its text
    (``"A"`` or ``"Ac"``). ``private`` lists every holding of first-street down cards
    (a sorted tuple of tokens), the rows and columns of the chance-weight matrices.
    """

    def __init__(self, variant: Variant, suited: bool) -> None:
        self.variant = variant
        self.suited = suited
        self.suits = tuple(SUITS.index(s) for s in variant.suits)
        if not suited and len(self.suits) > 2:
            raise ConfigError(f"solve: the rank game of {variant.name} is exact for one or two suits, and "
                              f"{variant.name} has {len(self.suits)} ({variant.suits}); solve it with suited=True")
        self.low_suit, self.high_suit = min(self.suits), max(self.suits)
        if suited:
            self.cards: Tokens = tuple(variant.deck)
            self.copies: Tokens = (1,) * len(self.cards)
            self.labels = tuple(CARD_NAMES[c] for c in self.cards)
        else:
            ranks = sorted(RANKS.index(r) for r in variant.ranks)
            self.cards = tuple(rank * 4 + self.low_suit for rank in ranks)
            self.copies = (len(self.suits),) * len(ranks)
            self.labels = tuple(RANKS[rank] for rank in ranks)
        self._token_of = {}
        for token, card in enumerate(self.cards):
            if suited:
                self._token_of[card] = token
            else:
                for suit in self.suits:
                    self._token_of[card - self.low_suit + suit] = token
        self.deck_size = sum(self.copies)
        downs = variant.streets[0].down
        self.private: tuple[Tokens, ...] = tuple(
            held for held in combinations_with_replacement(range(len(self.cards)), downs)
            if all(held.count(t) <= self.copies[t] for t in set(held))
        )
        self.private_index = {held: i for i, held in enumerate(self.private)}

    def token(self, card: int) -> int:
        """The token dealing ``card``."""
        return self._token_of[card]

    def rank(self, token: int) -> int:
        """The rank index (ace 0) of ``token``."""
        return self.cards[token] >> 2

    def label(self, tokens: Sequence[int]) -> str:
        """Tokens as text: ``"A3"`` (ranks) or ``"Ac3d"`` (cards)."""
        return "".join(self.labels[t] for t in tokens)


@functools.cache
def card_model(variant: Variant, suited: bool) -> CardModel:
    """The (shared, read-only) :class:`CardModel` of ``variant``."""
    return CardModel(variant, suited)


def _arrangements(group: Sequence[int]) -> float:
    """Orders in which an unordered group of tokens can be dealt: len! / (count of each token)!."""
    ways = factorial(len(group))
    for token in set(group):
        ways //= factorial(group.count(token))
    return float(ways)


class DealWeights:
    """Chance weights of deals: the probability of each pair of holdings beside given public cards.

    The probability of dealing groups of cards one after the other (each group unordered) is
    the product over groups of its arrangements, times ``copies[t]! / (copies[t] - k[t])!`` per
    token dealt ``k[t]`` times in all, over ``N! / (N - n)!`` for ``n`` cards from ``N``.
    """

    def __init__(self, model: CardModel) -> None:
        self.model = model
        tokens = len(model.cards)
        self.holding_counts = np.zeros((len(model.private), tokens), dtype=np.int64)
        for i, held in enumerate(model.private):
            for t in held:
                self.holding_counts[i, t] += 1
        self.holding_ways = np.array([_arrangements(held) for held in model.private])
        most = max(model.copies)
        self.falling = np.zeros((most + 1, 2 * most + 2))
        for c in range(most + 1):
            for k in range(c + 1):
                self.falling[c, k] = factorial(c) / factorial(c - k)
        self.copies = np.array(model.copies, dtype=np.int64)

    def matrix(self, groups: Sequence[Sequence[int]], coins: int) -> np.ndarray:
        """``W[x, y]``: probability that seat 0 holds ``private[x]``, seat 1 ``private[y]`` and the public
        ``groups`` are dealt, times one half per tie-break coin."""
        model = self.model
        public = np.zeros(len(model.cards), dtype=np.int64)
        ways = 1.0
        for group in groups:
            ways *= _arrangements(group)
            for t in group:
                public[t] += 1
        held = self.holding_counts
        counts = public[None, None, :] + held[:, None, :] + held[None, :, :]
        counts = np.minimum(counts, self.falling.shape[1] - 1)
        removal = self.falling[self.copies[None, None, :], counts].prod(axis=2)
        dealt = int(public.sum()) + 2 * model.variant.streets[0].down
        total = float(np.prod(np.arange(model.deck_size - dealt + 1, model.deck_size + 1, dtype=np.float64)))
        return ways * self.holding_ways[:, None] * self.holding_ways[None, :] * removal / total * 0.5**coins


def coin_ranks(model: CardModel, boards: Sequence[Sequence[int]], new: Sequence[Sequence[int]],
               more_up_streets: bool) -> tuple[int, ...]:
    """Ranks (tokens) whose suit order is dealt as a coin now, in the rank game (module docstring).

    ``boards``: each seat's up tokens before this street, ``new``: those it deals,
    ``more_up_streets``: a later street deals up cards. At most one rank: the highest showing,
    when this street turns up its first copy. Empty in the suited game.
    """
    if model.suited:
        return ()
    after = [list(b) + list(n) for b, n in zip(boards, new)]
    showing = [t for board in after for t in board]
    if not showing:
        return ()
    top = max(showing, key=model.rank)
    if model.copies[top] < 2 or any(top in board for board in boards):
        return ()
    held = [board.count(top) for board in after]
    if all(held):
        return (top,)
    if max(held) >= 2:
        return ()
    return (top,) if more_up_streets else ()


def coin_outcome(model: CardModel, token: int, boards: Sequence[Sequence[int]]) -> int:
    """The coin of ``token`` read off concrete up cards: the seat holding (or that would hold) its low suit.

    ``boards``: each seat's up cards (card ids). The first copy found decides: held by seat
    ``s``, the coin is ``s`` when that copy is the low suit, else the other seat.
    """
    for seat, board in enumerate(boards):
        for card in board:
            if model.token(card) == token:
                low = (card & 3) == model.low_suit
                return seat if low else 1 - seat
    raise ValueError(f"no up card of {model.labels[token]} to read its coin from")


def concrete_boards(model: CardModel, boards: Sequence[Sequence[int]], coins: dict[int, int]) -> list[list[int]]:
    """Card ids for up tokens, with suits that agree with ``coins`` (token -> seat holding the low suit).

    Ranks without a coin get any suits (they never decide a tie); in the suited game tokens are cards.
    """
    if model.suited:
        return [[model.cards[t] for t in board] for board in boards]
    low, high = model.low_suit, model.high_suit
    used: dict[int, set[int]] = {}
    out = []
    for seat, board in enumerate(boards):
        cards = []
        for token in board:
            taken = used.setdefault(token, set())
            suit = low if coins.get(token, seat) == seat else high
            if suit in taken:
                suit = high if suit == low else low
            taken.add(suit)
            cards.append(model.cards[token] - low + suit)
        out.append(cards)
    return out

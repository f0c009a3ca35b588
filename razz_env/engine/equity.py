"""Pot equity in stud: each player's expected share of the pot if every hand listed goes to showdown.

Give the cards each player is known to hold (``x`` for a card that is there but unseen, such as an
opponent's down card) and any dead cards; each player is dealt from the unseen cards up to seven.
A player's equity is the share of the pot it can expect, ties split as the rules split them (stud8:
half to the best high and half to the best qualifying low, the whole pot to the high when no low
qualifies).

Three methods; :func:`equity` picks the first that fits:

* ``"ranks"`` (razz and Action Razz, whose hand values depend on ranks alone): the unseen cards are
  enumerated as rank multisets, each weighted by the number of card combinations that give it, so
  card removal is exact. A23 vs 678 with four cards to come each takes 1,820 × 1,820 rank draws for
  its 18,265,196,050 card deals.
* ``"cards"`` (every variant): every combination of the unseen cards, when there are at most
  ``max_outcomes`` of them.
* ``"monte_carlo"``: ``samples`` random deals, with each share's standard error.

>>> result = equity(["As 2s 3s", "6h 7h 8h"], "razz")
>>> [round(100 * share, 2) for share in result.shares], result.method, result.exact
([59.56, 40.44], 'ranks', True)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, permutations

import numpy as np

from razz_env.engine.cards import DECK_SIZE, RANKS, CardError, check_distinct, parse_card
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.evaluation import (
    action_razz_batch,
    eight_low_batch,
    rank_counts_batch,
    razz_low_batch,
    stud_high_batch,
)
from razz_env.engine.variants import get_variant

HAND_SIZE = 7
MAX_PLAYERS = 8
UNKNOWN = ("x", "X", "?")
METHODS = ("auto", "ranks", "cards", "monte_carlo")
RANK_ONLY_HALVES = frozenset({"razz", "action_razz"})
DEFAULT_MAX_OUTCOMES = 20_000_000
DEFAULT_SAMPLES = 200_000
_NUM_RANKS = len(RANKS)
_CHUNK_ELEMENTS = 4_000_000
_BATCH = {"razz": razz_low_batch, "action_razz": action_razz_batch, "eight": eight_low_batch,
          "high": stud_high_batch}
_CHOOSE = np.array([[math.comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)


@dataclass(frozen=True)
class Holding:
    """One player's cards: those known (card ids) and how many more it holds or will be dealt unseen."""

    known: tuple[int, ...]
    unseen: int


@dataclass(frozen=True)
class Equity:
    """Each player's expected share of the pot, and how it was found.

    ``scoops``: the chance of taking the whole pot alone. ``outcomes``: the card deals the result
    covers (all of them when exact, else the samples). ``evaluated``: the showdowns computed (rank
    draws for ``"ranks"``). ``std_errors``: one per share for ``"monte_carlo"``, else None.
    """

    shares: tuple[float, ...]
    scoops: tuple[float, ...]
    method: str
    outcomes: int
    evaluated: int
    std_errors: tuple[float, ...] | None = None

    @property
    def exact(self) -> bool:
        """True when every deal was counted (no sampling error)."""
        return self.std_errors is None


def parse_holding(text: str | Sequence[int | str | None], where: str = "hand") -> Holding:
    """A player's cards from ``"As 2d x"`` (``x`` unseen; stud's ``(As 2d) 3c`` parentheses are allowed)
    or a sequence of card ids, names and None for unseen cards.

    >>> parse_holding("(x x) 3c")
    Holding(known=(8,), unseen=6)
    """
    items = _items(text, where)
    if len(items) > HAND_SIZE:
        raise ConfigError(f"{where}: at most {HAND_SIZE} cards, got {len(items)}")
    known = _card_ids([item for item in items if item is not None and item not in UNKNOWN], where)
    return Holding(tuple(known), HAND_SIZE - len(known))


def _items(text: object, where: str) -> list:
    if isinstance(text, str):
        return text.replace("(", " ").replace(")", " ").split()
    if isinstance(text, Iterable):
        return list(text)
    raise ConfigError(f"{where}: expected a string of cards or a list, got {shown(text)}")


def _card_ids(items: Iterable[object], where: str) -> list[int]:
    ids = []
    for item in items:
        if isinstance(item, str):
            try:
                ids.append(parse_card(item))
            except CardError as err:
                raise ConfigError(f"{where}: {err}") from None
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool) and 0 <= item < DECK_SIZE:
            ids.append(int(item))
        else:
            raise ConfigError(f"{where}: {shown(item)} is not a card (a name like 'As', an id 0-51, or 'x')")
    return ids


def equity(
    hands: Sequence[str | Sequence[int | str | None]],
    variant: str = "razz",
    dead: str | Iterable[int | str] = (),
    *,
    method: str = "auto",
    max_outcomes: int = DEFAULT_MAX_OUTCOMES,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = 0,
) -> Equity:
    """Each player's pot share at showdown in ``variant``, exactly when at most ``max_outcomes`` showdowns
    need computing (``method="auto"``), else from ``samples`` random deals."""
    halves = get_variant(variant).showdown
    if isinstance(hands, str) or not isinstance(hands, Sequence) or not 2 <= len(hands) <= MAX_PLAYERS:
        raise ConfigError(f"hands: give 2 to {MAX_PLAYERS} players' cards, got {shown(hands)}")
    if method not in METHODS:
        raise ConfigError(f"method: unknown {shown(method)}; known: {', '.join(METHODS)}")
    holdings = [parse_holding(hand, f"hands[{i}]") for i, hand in enumerate(hands)]
    seen = [c for h in holdings for c in h.known] + _card_ids(_items(dead, "dead"), "dead")
    try:
        check_distinct(seen, "hands and dead")
    except CardError as err:
        raise ConfigError(str(err)) from None
    unseen = np.array(sorted(set(range(DECK_SIZE)) - set(seen)), dtype=np.int64)
    needed = sum(h.unseen for h in holdings)
    if needed > len(unseen):
        raise ConfigError(f"hands: {needed} unseen cards are needed but only {len(unseen)} are left")
    rank_only = set(halves) <= RANK_ONLY_HALVES
    if method == "auto":
        if rank_only and _rank_showdowns(holdings, seen) <= max_outcomes:
            method = "ranks"
        elif _card_showdowns(holdings, len(unseen)) <= max_outcomes:
            method = "cards"
        else:
            method = "monte_carlo"
    if method == "ranks":
        if not rank_only:
            raise ConfigError(f"method: 'ranks' needs a suit-free variant (razz, action_razz), not {variant}")
        return _by_ranks(holdings, seen, halves[0])
    if method == "cards":
        return _by_cards(holdings, unseen, halves)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ConfigError(f"samples: must be an int of at least 2, got {shown(samples)}")
    return _by_sampling(holdings, unseen, halves, samples, seed)


# --------------------------------------------------------------------------- showdowns


def _shares(values: list[np.ndarray], halves: Sequence[str]) -> np.ndarray:
    """Pot share of each player, shape (..., players), from each half's values (higher is better).

    Ties split a half evenly; a stud8 low half goes to the high when no hand qualifies (value 0).
    """
    shares = []
    for value in values:
        winners = value == value.max(axis=-1, keepdims=True)
        shares.append(winners / winners.sum(axis=-1, keepdims=True))
    if len(halves) == 1:
        return shares[0]
    high, low = shares
    qualified = values[1].max(axis=-1, keepdims=True) > 0
    return np.where(qualified, 0.5 * high + 0.5 * low, high)


# --------------------------------------------------------------------------- ranks


@functools.cache
def _multisets(size: int) -> np.ndarray:
    """Every multiset of ``size`` ranks as per-rank counts, shape (M, 13)."""
    rows = list(combinations_with_replacement(range(_NUM_RANKS), size)) if size else [()]
    counts = np.zeros((len(rows), _NUM_RANKS), dtype=np.int64)
    for i, row in enumerate(rows):
        for rank in row:
            counts[i, rank] += 1
    return counts


def _rank_counts(cards: Iterable[int]) -> np.ndarray:
    counts = np.zeros(_NUM_RANKS, dtype=np.int64)
    for card in cards:
        counts[card >> 2] += 1
    return counts


def _draws(holding: Holding, left: np.ndarray) -> np.ndarray:
    """The rank multisets ``holding`` can draw from ``left`` cards per rank."""
    counts = _multisets(holding.unseen)
    return counts[(counts <= left).all(axis=1)]


def _rank_showdowns(holdings: Sequence[Holding], seen: Sequence[int]) -> int:
    left = 4 - _rank_counts(seen)
    return math.prod(len(_draws(h, left)) for h in holdings)


def _by_ranks(holdings: Sequence[Holding], seen: Sequence[int], half: str) -> Equity:
    """Exact equity over rank draws, each weighted by its number of card combinations."""
    left = 4 - _rank_counts(seen)
    players = len(holdings)
    draws = [_draws(h, left) for h in holdings]
    values = [rank_counts_batch(d + _rank_counts(h.known), half) for d, h in zip(draws, holdings)]
    # Joint draws of every player but the last: used ranks, weight (card combinations) and values.
    used = np.zeros((1, _NUM_RANKS), dtype=np.int64)
    weight = np.ones(1, dtype=np.int64)
    joint_values = np.zeros((1, 0), dtype=np.int64)
    for draw, value in zip(draws[:-1], values[:-1]):
        used, weight, joint_values = _extend(used, weight, joint_values, draw, value, left)
    last, last_values = draws[-1], values[-1]
    share_sum = np.zeros(players)
    scoop_sum = np.zeros(players)
    chunk = max(1, _CHUNK_ELEMENTS // max(1, len(last) * players))
    # Per rank, C(room, drawn) for every room 0-4 and every last draw: a row gather per state.
    factor_rows = {int(r): _CHOOSE[:, last[:, r]].astype(np.float64) for r in np.flatnonzero(left)}
    for start in range(0, len(used), chunk):
        room = left - used[start:start + chunk]
        w = weight[start:start + chunk, None].astype(np.float64)
        for rank, rows in factor_rows.items():
            w = w * rows[room[:, rank]]
        if players == 2:
            first = joint_values[start:start + chunk, :1]
            wins = (first > last_values[None, :]) * w
            ties = (first == last_values[None, :]) * w
            loses = w.sum() - wins.sum() - ties.sum()
            share_sum += (wins.sum() + ties.sum() / 2, loses + ties.sum() / 2)
            scoop_sum += (wins.sum(), loses)
            continue
        value = np.empty((len(room), len(last), players), dtype=np.int64)
        value[..., :-1] = joint_values[start:start + chunk, None, :]
        value[..., -1] = last_values[None, :]
        share = _shares([value], [half])
        share_sum += np.einsum("bl,blp->p", w, share)
        scoop_sum += np.einsum("bl,blp->p", w, share == 1.0)
    total = _card_showdowns(holdings, int(left.sum()))
    return _result(share_sum / total, scoop_sum / total, "ranks", total, len(used) * len(last))


def _result(shares: np.ndarray, scoops: np.ndarray, method: str, outcomes: int, evaluated: int,
            errors: np.ndarray | None = None) -> Equity:
    return Equity(_floats(shares), _floats(scoops), method, outcomes, evaluated,
                  None if errors is None else _floats(errors))


def _floats(values: np.ndarray) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _extend(used: np.ndarray, weight: np.ndarray, joint_values: np.ndarray, draw: np.ndarray,
            value: np.ndarray, left: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joint draws extended by one more player's draws (those the remaining cards allow)."""
    room = left - used
    factors = _CHOOSE[room[:, None, :], draw[None, :, :]]
    w = weight[:, None] * factors.prod(axis=2)
    keep_state, keep_draw = np.nonzero(w)
    return (used[keep_state] + draw[keep_draw], w[keep_state, keep_draw],
            np.concatenate([joint_values[keep_state], value[keep_draw, None]], axis=1))


# --------------------------------------------------------------------------- cards


def _card_showdowns(holdings: Sequence[Holding], unseen: int) -> int:
    count = 1
    for holding in holdings:
        count *= math.comb(unseen, holding.unseen)
        unseen -= holding.unseen
    return count


def _hand_values(holdings: Sequence[Holding], dealt: np.ndarray, slots: Sequence[np.ndarray],
                 halves: Sequence[str]) -> list[np.ndarray]:
    """Per half, values of shape (N, players) for the deals in ``dealt`` (N, K), player i taking ``slots[i]``."""
    out = []
    for half in halves:
        evaluate = _BATCH[half]
        columns = []
        for holding, slot in zip(holdings, slots):
            known = np.broadcast_to(np.array(holding.known, dtype=np.int64), (len(dealt), len(holding.known)))
            columns.append(evaluate(np.concatenate([known, dealt[:, slot]], axis=1)))
        out.append(np.stack(columns, axis=1))
    return out


def _assignments(holdings: Sequence[Holding]) -> list[list[np.ndarray]]:
    """Every distinct way to hand K sorted unseen cards to the players (player i takes ``unseen`` of them)."""
    owners = [i for i, h in enumerate(holdings) for _ in range(h.unseen)]
    patterns = sorted(set(permutations(owners)))
    return [[np.flatnonzero(np.array(p, dtype=np.int64) == i) for i in range(len(holdings))] for p in patterns]


def _by_cards(holdings: Sequence[Holding], unseen: np.ndarray, halves: Sequence[str]) -> Equity:
    """Exact equity over every combination of the unseen cards."""
    players = len(holdings)
    needed = sum(h.unseen for h in holdings)
    patterns = _assignments(holdings)
    share_sum = np.zeros(players)
    scoop_sum = np.zeros(players)
    total = 0
    chunk = max(1, _CHUNK_ELEMENTS // max(1, len(patterns) * HAND_SIZE * players))
    combos = combinations(unseen.tolist(), needed)
    while True:
        block = np.array(list(_take(combos, chunk)), dtype=np.int64).reshape(-1, needed)
        if not len(block):
            break
        for slots in patterns:
            share = _shares(_hand_values(holdings, block, slots, halves), halves)
            share_sum += share.sum(axis=0)
            scoop_sum += (share == 1.0).sum(axis=0)
            total += len(block)
    return _result(share_sum / total, scoop_sum / total, "cards", total, total)


def _take(iterator: Iterable, count: int) -> Iterable:
    for i, item in enumerate(iterator):
        yield item
        if i + 1 == count:
            return


def _by_sampling(holdings: Sequence[Holding], unseen: np.ndarray, halves: Sequence[str], samples: int,
                 seed: int | None) -> Equity:
    """Equity from ``samples`` uniformly random deals of the unseen cards, with standard errors."""
    rng = np.random.default_rng(seed)
    needed = sum(h.unseen for h in holdings)
    bounds = np.cumsum([0] + [h.unseen for h in holdings])
    slots = [np.arange(bounds[i], bounds[i + 1]) for i in range(len(holdings))]
    players = len(holdings)
    share_sum = np.zeros(players)
    share_sq = np.zeros(players)
    scoop_sum = np.zeros(players)
    chunk = max(1, _CHUNK_ELEMENTS // max(1, len(unseen)))
    done = 0
    while done < samples:
        size = min(chunk, samples - done)
        order = np.argsort(rng.random((size, len(unseen))), axis=1)[:, :needed]
        share = _shares(_hand_values(holdings, unseen[order], slots, halves), halves)
        share_sum += share.sum(axis=0)
        share_sq += (share * share).sum(axis=0)
        scoop_sum += (share == 1.0).sum(axis=0)
        done += size
    mean = share_sum / samples
    variance = np.maximum(share_sq / samples - mean * mean, 0.0) * samples / (samples - 1)
    return _result(mean, scoop_sum / samples, "monte_carlo", samples, samples, np.sqrt(variance / samples))

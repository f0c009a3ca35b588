"""Pot equity in stud: each player's expected share of the pot if every hand listed goes to showdown.

Give the cards each player is known to hold (``x`` for a card that is there but unseen, such as an
opponent's down card) and any dead cards; each player is dealt from the unseen cards of the variant's
deck up to a full hand (seven in the seven-card games, three in MiniRazz), and plays its best
``variant.hand_size`` cards.
A player's equity is the share of the pot it can expect, ties split as the rules split them (stud8:
half to the best high and half to the best qualifying low, the whole pot to the high when no low
qualifies).

Three methods; :func:`equity` picks the first that fits:

* ``"ranks"`` (razz and Action Razz, whose hand values depend on ranks alone): the unseen cards are
  enumerated as rank multisets, each weighted by the number of card combinations that give it, so
  card removal is exact. A23 vs 678 with four cards to come each takes 1,820 × 1,820 rank draws for
  its 18,265,297,050 card deals.
* ``"cards"`` (every variant): every combination of the unseen cards, when there are at most
  ``max_outcomes`` of them. A rank draw costs a small fraction of a card showdown, so ``"ranks"`` runs up to
  :data:`RANK_DRAWS_PER_OUTCOME` times ``max_outcomes`` draws, about the same CPU time: razz with two unseen
  down cards a player (332,661,121 rank draws, 7.8 s of CPU here) is exact by default.
* ``"monte_carlo"``: ``samples`` random deals, with each share's standard error.

>>> result = equity(["As 2s 3s", "6h 7h 8h"], "razz")
>>> [round(100 * share, 2) for share in result.shares], result.method, result.exact
([59.56, 40.44], 'ranks', True)

:func:`range_equity` gives hero's equity heads-up against a weighted range of opponent down-card
holdings (what a best response needs), for the whole range and per holding, with the same three
methods applied to every holding at once.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, islice, permutations
from typing import NamedTuple

import numpy as np

from razz_env.engine.cards import DECK_SIZE, RANKS, CardError, card_str, cards_str, check_distinct, parse_card
from razz_env.engine.checks import as_int, limited
from razz_env.engine.dealing import deck_text
from razz_env.engine.errors import ConfigError, shown
from razz_env.engine.hand_value import evaluate_batch, rank_counts_batch
from razz_env.engine.variants import VARIANTS, Variant, get_variant

HAND_SIZE = 7
"""Cards a seven-card stud hand holds (a variant's own: ``variant.cards_per_seat``)."""
MAX_PLAYERS = 8
UNKNOWN = ("x", "X", "?")
METHODS = ("auto", "ranks", "cards", "monte_carlo")
RANK_ONLY_HALVES = frozenset({"razz", "action_razz"})
DEFAULT_MAX_OUTCOMES = 20_000_000
RANK_DRAWS_PER_OUTCOME = 17
"""Rank draws the exact ``"ranks"`` method may count per unit of ``max_outcomes``: measured on this project's
2-core CPU, a card showdown costs 366 ns (9,625,980 stud showdowns, 3.5 s) and a rank draw 23.5 ns
(332,661,121 razz draws, 7.8 s), about 16 to 1; 17 admits two unseen down cards a player."""
DEFAULT_SAMPLES = 200_000
MAX_SAMPLES = 1_000_000_000
_NUM_RANKS = len(RANKS)
_CHUNK_ELEMENTS = 4_000_000
_CHOOSE = np.array([[math.comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)


class _Game(NamedTuple):
    """What the equity code reads of a variant: its pot halves, the cards a hand holds (``cards``) and
    plays (``size``), its deck and how many cards of each rank the deck has."""

    name: str
    halves: tuple[str, ...]
    cards: int
    size: int
    deck: tuple[int, ...]
    per_rank: np.ndarray


def _game(variant: str | Variant) -> _Game:
    declared = variant if isinstance(variant, Variant) else get_variant(variant)
    return _Game(declared.name, declared.showdown, declared.cards_per_seat, declared.hand_size, declared.deck,
                 _rank_counts(declared.deck))


def _check_in_deck(cards: Iterable[int], where: str, game: _Game) -> None:
    if len(game.deck) < DECK_SIZE:
        outside = [card for card in cards if card not in game.deck]
        if outside:
            raise ConfigError(f"{where}: {card_str(outside[0])} is not in {deck_text(get_variant(game.name))}")


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


def parse_holding(text: str | Sequence[int | str | None], where: str = "hand", cards: int = HAND_SIZE) -> Holding:
    """A player's cards from ``"As 2d x"`` (``x`` unseen; stud's ``(As 2d) 3c`` parentheses are allowed)
    or a sequence of card ids, names and None for unseen cards, in a hand of ``cards`` cards.

    >>> parse_holding("(x x) 3c")
    Holding(known=(8,), unseen=6)
    """
    items = _items(text, where)
    if len(items) > cards:
        raise ConfigError(f"{where}: at most {cards} cards, got {len(items)}")
    known = _card_ids([item for item in items if item is not None and item not in UNKNOWN], where)
    return Holding(tuple(known), cards - len(known))


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
    need computing (``method="auto"``), else from ``samples`` random deals. An exact method asked for by name
    is refused up front when its count exceeds that limit, with the count."""
    game = _game(variant)
    _check_counts(max_outcomes, seed)
    check_range_samples(samples)
    halves = game.halves
    if isinstance(hands, str) or not isinstance(hands, Sequence) or not 2 <= len(hands) <= MAX_PLAYERS:
        raise ConfigError(f"hands: give 2 to {MAX_PLAYERS} players' cards, got {shown(hands)}")
    if method not in METHODS:
        raise ConfigError(f"method: unknown {shown(method)}; known: {', '.join(METHODS)}")
    holdings = [parse_holding(hand, f"hands[{i}]", game.cards) for i, hand in enumerate(hands)]
    dead_ids = _card_ids(_items(dead, "dead"), "dead")
    for i, holding in enumerate(holdings):
        _check_in_deck(holding.known, f"hands[{i}]", game)
    _check_in_deck(dead_ids, "dead", game)
    seen = [c for h in holdings for c in h.known] + dead_ids
    check_distinct(seen, "hands and dead", error=ConfigError)
    unseen = np.array(sorted(set(game.deck) - set(seen)), dtype=np.int64)
    needed = sum(h.unseen for h in holdings)
    if needed > len(unseen):
        raise ConfigError(f"hands: {needed} unseen cards are needed but only {len(unseen)} are left")
    rank_only = set(halves) <= RANK_ONLY_HALVES
    if method == "ranks" and not rank_only:
        raise ConfigError(f"method: 'ranks' needs a suit-free variant (razz, action_razz), not {variant}")
    limits = {"ranks": ("rank draws", max_outcomes * RANK_DRAWS_PER_OUTCOME,
                        lambda: _rank_showdowns(holdings, seen, game)),
              "cards": ("card showdowns", max_outcomes, lambda: _card_showdowns(holdings, len(unseen)))}
    if method == "auto":
        fits = [m for m in (("ranks",) if rank_only else ()) + ("cards",) if limits[m][2]() <= limits[m][1]]
        method = fits[0] if fits else "monte_carlo"
    elif method in limits and limits[method][2]() > limits[method][1]:
        what, limit, count = limits[method]
        raise ConfigError(f"method: {method!r} would count {count():,} {what}, more than the {limit:,} that "
                          f"max_outcomes ({max_outcomes:,}) allows; raise max_outcomes or use 'monte_carlo'")
    if method == "ranks":
        return _by_ranks(holdings, seen, game)
    if method == "cards":
        return _by_cards(holdings, unseen, game)
    return _by_sampling(holdings, unseen, game, samples, seed)


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
    return _counts_of(np.array(rows, dtype=np.int64).reshape(len(rows), size))


def _rank_counts(cards: Iterable[int]) -> np.ndarray:
    return np.bincount(np.fromiter((card >> 2 for card in cards), dtype=np.int64), minlength=_NUM_RANKS)


def _draws(holding: Holding, left: np.ndarray) -> np.ndarray:
    """The rank multisets ``holding`` can draw from ``left`` cards per rank."""
    counts = _multisets(holding.unseen)
    return counts[(counts <= left).all(axis=1)]


def _rank_showdowns(holdings: Sequence[Holding], seen: Sequence[int], game: _Game) -> int:
    left = game.per_rank - _rank_counts(seen)
    return math.prod(len(_draws(h, left)) for h in holdings)


def _by_ranks(holdings: Sequence[Holding], seen: Sequence[int], game: _Game) -> Equity:
    """Exact equity over rank draws, each weighted by its number of card combinations."""
    half = game.halves[0]
    left = game.per_rank - _rank_counts(seen)
    players = len(holdings)
    draws = [_draws(h, left) for h in holdings]
    values = [rank_counts_batch(d + _rank_counts(h.known), half, game.size) for d, h in zip(draws, holdings)]
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
                 game: _Game) -> list[np.ndarray]:
    """Per half, values of shape (N, players) for the deals in ``dealt`` (N, K), player i taking ``slots[i]``."""
    out = []
    for half in game.halves:
        columns = []
        for holding, slot in zip(holdings, slots):
            known = np.broadcast_to(np.array(holding.known, dtype=np.int64), (len(dealt), len(holding.known)))
            columns.append(evaluate_batch(np.concatenate([known, dealt[:, slot]], axis=1), half, game.size))
        out.append(np.stack(columns, axis=1))
    return out


def _assignments(holdings: Sequence[Holding]) -> list[list[np.ndarray]]:
    """Every distinct way to hand K sorted unseen cards to the players (player i takes ``unseen`` of them)."""
    owners = [i for i, h in enumerate(holdings) for _ in range(h.unseen)]
    patterns = sorted(set(permutations(owners)))
    return [[np.flatnonzero(np.array(p, dtype=np.int64) == i) for i in range(len(holdings))] for p in patterns]


def _by_cards(holdings: Sequence[Holding], unseen: np.ndarray, game: _Game) -> Equity:
    """Exact equity over every combination of the unseen cards."""
    halves = game.halves
    players = len(holdings)
    needed = sum(h.unseen for h in holdings)
    patterns = _assignments(holdings)
    share_sum = np.zeros(players)
    scoop_sum = np.zeros(players)
    total = 0
    chunk = max(1, _CHUNK_ELEMENTS // max(1, len(patterns) * game.cards * players))
    combos = combinations(unseen.tolist(), needed)
    while True:
        block = np.array(list(islice(combos, chunk)), dtype=np.int64).reshape(-1, needed)
        if not len(block):
            break
        for slots in patterns:
            share = _shares(_hand_values(holdings, block, slots, game), halves)
            share_sum += share.sum(axis=0)
            scoop_sum += (share == 1.0).sum(axis=0)
            total += len(block)
    return _result(share_sum / total, scoop_sum / total, "cards", total, total)


def _by_sampling(holdings: Sequence[Holding], unseen: np.ndarray, game: _Game, samples: int,
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
        share = _shares(_hand_values(holdings, unseen[order], slots, game), game.halves)
        share_sum += share.sum(axis=0)
        share_sq += (share * share).sum(axis=0)
        scoop_sum += (share == 1.0).sum(axis=0)
        done += size
    mean = share_sum / samples
    variance = np.maximum(share_sq / samples - mean * mean, 0.0) * samples / (samples - 1)
    return _result(mean, scoop_sum / samples, "monte_carlo", samples, samples, np.sqrt(variance / samples))


# --------------------------------------------------------------------------- ranges

DEFAULT_RANGE_MAX_OUTCOMES = 2_000_000
RANGE_SAMPLING_MAX_BYTES = 16 * 2**30
"""Most memory ``range_equity``'s sampling may hold at once (its runouts are not chunked); more is refused up front."""
DEFAULT_RANGE_SAMPLES = 2_000
_MAX_SAMPLING_ROUNDS = 50


@dataclass(frozen=True, eq=False)
class RangeEquity:
    """Hero's pot share against a weighted range of opponent holdings, heads-up, and how it was found.

    ``equity``: the weighted mean of ``per_holding`` (hero's share against each holding, shape (H,)).
    ``outcomes``: card deals of the unseen cards per holding (exact) or random runouts drawn
    (``"monte_carlo"``). ``evaluated``: showdown comparisons computed (rank-draw pairs for ``"ranks"``).
    ``std_error`` / ``std_errors``: the standard error of ``equity`` and of each ``per_holding`` entry
    (``"monte_carlo"`` only, else None).
    """

    equity: float
    per_holding: np.ndarray
    method: str
    outcomes: int
    evaluated: int
    std_error: float | None = None
    std_errors: np.ndarray | None = None

    @property
    def exact(self) -> bool:
        """True when every deal was counted (no sampling error)."""
        return self.std_error is None


def range_sampling_bytes(holdings: int, samples: int, unseen: int = 52) -> int:
    """About the bytes ``range_equity`` holds to sample ``samples`` runouts for ``holdings`` distinct holdings (a
    shuffle key per unseen card and runout, and about 128 bytes per holding and runout)."""
    return samples * (16 * unseen + 128 * holdings)


def _check_counts(max_outcomes: object, seed: object) -> None:
    as_int("max_outcomes", max_outcomes, 1)
    if seed is not None:
        as_int("seed", seed, 0, what="an integer or None")


def check_range_samples(samples: object, holdings: int | None = None, unseen: int = 52) -> int:
    """``samples`` if an int from 2 to :data:`MAX_SAMPLES` whose runouts for ``holdings`` (when given) fit
    :data:`RANGE_SAMPLING_MAX_BYTES`; else ``ConfigError`` with the estimated memory."""
    samples = as_int("samples", samples, 2, MAX_SAMPLES)
    if holdings is None:
        return samples
    need = range_sampling_bytes(holdings, samples, unseen)
    if need > RANGE_SAMPLING_MAX_BYTES:
        raise ConfigError(f"samples: {samples:,} runouts of {holdings:,} holdings would hold about "
                          f"{need / 2**30:,.0f} GiB at once, more than {RANGE_SAMPLING_MAX_BYTES // 2**30} GiB; "
                          "give fewer samples")
    return samples


def range_equity(
    hero: str | Sequence[int | str],
    opponent_up: str | Sequence[int | str],
    holdings: np.ndarray | Sequence[Sequence[int | str]],
    weights: np.ndarray | Sequence[float] | None = None,
    variant: str = "razz",
    dead: str | Iterable[int | str] = (),
    *,
    method: str = "auto",
    max_outcomes: int = DEFAULT_RANGE_MAX_OUTCOMES,
    samples: int = DEFAULT_RANGE_SAMPLES,
    seed: int | None = 0,
) -> RangeEquity:
    """Hero's pot share at a heads-up showdown against each opponent holding and against the weighted range.

    ``hero``: every card hero holds (down and up; it is dealt the rest up to a full hand: seven in the
    seven-card games). ``opponent_up``: the opponent's up cards. ``holdings``: an (H, k) array of the
    opponent's possible down cards (k = 2 before 7th street, 3 after), ``weights`` their (unnormalised)
    probabilities, uniform when None. Each holding is dealt the rest up to a full hand from the cards of
    the variant's deck that neither it, hero, the up cards nor ``dead`` hold.

    ``method="auto"`` picks the first exact method whose count of showdown comparisons is at most
    ``max_outcomes``: ``"ranks"`` (razz, Action Razz: holdings and draws as rank multisets with
    card-removal weights), then ``"cards"`` (every combination of the unseen cards, any variant);
    otherwise ``"monte_carlo"``: ``samples`` runouts of the unseen cards shared by all holdings, each
    holding averaging those that miss its cards, with standard errors (seeded by ``seed``). An exact
    method asked for by name is refused when its count exceeds ``max_outcomes``.

    >>> result = range_equity("As 2s 3s 8s 9s Kh Kd", "4h 5h Qh Th", [["Jc", "Qc", "Jd"], ["Ac", "2c", "3c"]])
    >>> result.per_holding.tolist(), result.equity, result.method
    ([1.0, 0.0], 0.5, 'ranks')
    """
    game = _game(variant)
    halves, cards = game.halves, game.cards
    if method not in METHODS:
        raise ConfigError(f"method: unknown {shown(method)}; known: {', '.join(METHODS)}")
    _check_counts(max_outcomes, seed)
    check_range_samples(samples)
    hero_ids = _card_ids(_items(hero, "hero"), "hero")
    up_ids = _card_ids(_items(opponent_up, "opponent_up"), "opponent_up")
    dead_ids = _card_ids(_items(dead, "dead"), "dead")
    if not 1 <= len(hero_ids) <= cards:
        raise ConfigError(f"hero: give 1 to {cards} cards, got {len(hero_ids)}")
    for where, ids in (("hero", hero_ids), ("opponent_up", up_ids), ("dead", dead_ids)):
        _check_in_deck(ids, where, game)
    seen = hero_ids + up_ids + dead_ids
    check_distinct(seen, "hero, opponent_up and dead", error=ConfigError)
    held = _holding_array(holdings, len(up_ids), set(seen), game)
    weight = _range_weights(weights, len(held))
    unseen = np.array(sorted(set(game.deck) - set(seen)), dtype=np.int64)
    hero_draw, opp_draw = cards - len(hero_ids), cards - len(up_ids) - held.shape[1]
    if hero_draw + opp_draw + held.shape[1] > len(unseen):
        raise ConfigError(f"hero and the opponent need {hero_draw + opp_draw + held.shape[1]} unseen cards but "
                          f"only {len(unseen)} are left")
    rank_only = set(halves) <= RANK_ONLY_HALVES
    if method == "ranks" and not rank_only:
        raise ConfigError(f"method: 'ranks' needs a suit-free variant (razz, action_razz), not {variant}")
    counts = {"ranks": lambda: _range_rank_showdowns(held, seen, hero_draw, opp_draw, game),
              "cards": lambda: len(held) * math.comb(len(unseen), hero_draw) * math.comb(len(unseen), opp_draw)}
    if method == "auto":
        fits = [m for m in (("ranks",) if rank_only else ()) + ("cards",) if counts[m]() <= max_outcomes]
        method = fits[0] if fits else "monte_carlo"
    elif method in counts and counts[method]() > max_outcomes:
        raise ConfigError(f"method: {method!r} would compare {counts[method]():,} showdowns, more than max_outcomes "
                          f"({max_outcomes:,}); raise max_outcomes or use 'monte_carlo'")
    if method == "ranks":
        per, outcomes, evaluated = _range_by_ranks(hero_ids, up_ids, held, seen, hero_draw, opp_draw, game)
    elif method == "cards":
        per, outcomes, evaluated = _range_by_cards(hero_ids, up_ids, held, unseen, hero_draw, opp_draw, game)
    else:
        check_range_samples(samples, len(_rank_keys(held)[1]) if rank_only else len(held), len(unseen))
        if not rank_only:
            return _range_by_sampling(hero_ids, up_ids, held, weight, unseen, (hero_draw, opp_draw), game,
                                      False, samples, seed)
        # Suit-free: holdings of the same ranks have the same equity (the ranks left to draw are the same).
        _, first, inverse = _rank_keys(held)
        by_ranks = _range_by_sampling(hero_ids, up_ids, held[first], np.bincount(inverse, weight, len(first)),
                                      unseen, (hero_draw, opp_draw), game, True, samples, seed)
        per, errors = by_ranks.per_holding[inverse], by_ranks.std_errors[inverse]
        per.setflags(write=False)
        errors.setflags(write=False)
        return dataclasses.replace(by_ranks, per_holding=per, std_errors=errors)
    per.setflags(write=False)
    return RangeEquity(_clipped(weight @ per), per, method, outcomes, evaluated)


def _clipped(share: float) -> float:
    """A share as a float in [0, 1] (a weighted mean of shares can stray past 1 by a rounding error)."""
    return min(1.0, max(0.0, float(share)))


def _holding_array(holdings: object, up: int, seen: set[int], game: _Game) -> np.ndarray:
    """``holdings`` as an (H, k) int64 array of card ids, checked: distinct in a row, none of them seen."""
    if isinstance(holdings, np.ndarray) and holdings.dtype.kind in "iu":
        held = holdings.astype(np.int64, copy=False)
    else:
        rows = [_card_ids(_items(row, f"holdings[{i}]"), f"holdings[{i}]")
                for i, row in enumerate(_items(holdings, "holdings"))]
        if len({len(row) for row in rows}) > 1:
            raise ConfigError(f"holdings: expected an (H, k) array of down cards, got rows of "
                              f"{sorted({len(row) for row in rows})} cards")
        held = np.array(rows, dtype=np.int64).reshape(len(rows), len(rows[0]) if rows else 0)
    if held.ndim != 2 or not len(held) or not 1 <= held.shape[1] <= game.cards - up:
        raise ConfigError(f"holdings: expected an (H, k) array of down cards, H >= 1 and 1 <= k <= "
                          f"{game.cards - up} beside {up} up cards, got shape {held.shape}")
    if held.min() < 0 or held.max() >= DECK_SIZE:
        raise ConfigError(f"holdings: card ids are 0-{DECK_SIZE - 1}, got {held.min()}..{held.max()}")
    outside = np.flatnonzero(~np.isin(held, game.deck).all(axis=1))
    if len(outside):
        _check_in_deck(held[outside[0]].tolist(), f"holdings[{outside[0]}]", game)
    ordered = np.sort(held, axis=1)
    repeated = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
    if len(repeated):
        raise ConfigError(f"holdings[{repeated[0]}]: a card appears twice in {cards_str(held[repeated[0]].tolist())}")
    clash = np.flatnonzero(np.isin(held, sorted(seen)).any(axis=1))
    if len(clash):
        raise ConfigError(f"holdings[{clash[0]}]: {cards_str(held[clash[0]].tolist())} holds a card of hero, the "
                          f"opponent's up cards or the dead cards")
    return held


def _range_weights(weights: object, count: int) -> np.ndarray:
    """Normalised weights of ``count`` holdings: finite, non-negative, not all zero; uniform when None."""
    if weights is None:
        return np.full(count, 1.0 / count)
    try:
        weight = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise ConfigError(f"weights: expected {count} numbers, got {shown(weights)}") from None
    if weight.shape != (count,):
        raise ConfigError(f"weights: expected one per holding ({count}), got shape {weight.shape}")
    if not np.isfinite(weight).all() or (weight < 0).any() or weight.sum() <= 0:
        raise ConfigError("weights: must be finite, non-negative and not all zero")
    return weight / weight.sum()


def _pair_shares(hero: Sequence[np.ndarray], opponent: Sequence[np.ndarray]) -> np.ndarray:
    """Hero's pot share for broadcastable per-half values (higher is better; stud8 low: 0 = no low)."""
    return _share_units(hero, opponent) / 4.0


def _share_units(hero: Sequence[np.ndarray], opponent: Sequence[np.ndarray]) -> np.ndarray:
    """Hero's pot share in units of a quarter pot (0 to 4) as int8, cheap to store and sum: a half won is two
    units, a half tied one, and a low half nobody qualifies for goes to the high."""
    high = (hero[0] > opponent[0]).astype(np.int8) * 2 + (hero[0] == opponent[0])
    if len(hero) == 1:
        return high * 2
    low = (hero[1] > opponent[1]).astype(np.int8) * 2 + (hero[1] == opponent[1])
    return np.where((hero[1] > 0) | (opponent[1] > 0), high + low, high * 2).astype(np.int8)


def _rank_slots(draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank multisets (D, 13) as up to four (rank, count) slots each (count 0 pads), for binomial products."""
    slots = max(1, int((draws > 0).sum(axis=1).max(initial=0)))
    ranks = np.zeros((len(draws), slots), dtype=np.int64)
    counts = np.zeros((len(draws), slots), dtype=np.int64)
    for i, row in enumerate(draws):
        present = np.flatnonzero(row)
        ranks[i, :len(present)] = present
        counts[i, :len(present)] = row[present]
    return ranks, counts


def _rank_keys(held: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rank multisets of the holdings as rank counts (R, 13), the first holding of each, and
    each holding's row among them."""
    ranks = np.sort(held >> 2, axis=1)
    codes = ranks @ (_NUM_RANKS ** np.arange(ranks.shape[1], dtype=np.int64))
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    return _counts_of(ranks[first]), first, inverse.ravel()


def _counts_of(ranks: np.ndarray) -> np.ndarray:
    """Per-rank counts (N, 13) of rows of ranks (N, k)."""
    rows = np.repeat(np.arange(len(ranks)), ranks.shape[1])
    return np.bincount(rows * _NUM_RANKS + ranks.ravel(), minlength=len(ranks) * _NUM_RANKS).reshape(
        len(ranks), _NUM_RANKS)


def _range_rank_showdowns(held: np.ndarray, seen: Sequence[int], hero_draw: int, opp_draw: int, game: _Game) -> int:
    left = tuple(game.per_rank - _rank_counts(seen))
    keys, _, _ = _rank_keys(held)
    return len(keys) * _draw_count(hero_draw, left) * _draw_count(opp_draw, left)


@functools.lru_cache(maxsize=4096)
def _draw_count(size: int, left: tuple[int, ...]) -> int:
    """How many rank multisets of ``size`` the ``left`` cards per rank allow."""
    return len(_draws(Holding((), size), np.array(left)))


def _range_by_ranks(hero: Sequence[int], up: Sequence[int], held: np.ndarray, seen: Sequence[int], hero_draw: int,
                    opp_draw: int, game: _Game) -> tuple[np.ndarray, int, int]:
    """Exact per-holding equity over rank draws: a holding's equity depends on its ranks only.

    For each rank multiset a holding can be, every hero draw and opponent draw is weighted by its number
    of card combinations among the cards left (the holding's removed), as in :func:`equity`.
    """
    half, size = game.halves[0], game.size
    left = game.per_rank - _rank_counts(seen)
    keys, _, inverse = _rank_keys(held)
    hero_draws = _draws(Holding((), hero_draw), left)
    opp_draws = _draws(Holding((), opp_draw), left)
    hero_values = rank_counts_batch(hero_draws + _rank_counts(hero), half, size)[None, :, None]
    hero_ranks, hero_counts = _rank_slots(hero_draws)
    opp_ranks, opp_counts = _rank_slots(opp_draws)
    up_counts = _rank_counts(up)
    per_key = np.empty(len(keys))
    chunk = max(1, _CHUNK_ELEMENTS // (len(hero_draws) * len(opp_draws)))
    choose = _CHOOSE.ravel().astype(np.int32)  # C(n, k) at n * 5 + k: small ints keep the big arrays light
    for start in range(0, len(keys), chunk):
        holding = keys[start:start + chunk]
        room = left[None, :] - holding
        weight = np.prod(_CHOOSE[np.maximum(room[:, hero_ranks], 0), hero_counts[None]], axis=2)[:, :, None]
        after = (np.maximum(room[:, None, :] - hero_draws[None], 0) * 5).astype(np.int8)
        for slot in range(opp_ranks.shape[1]):
            cells = after[:, :, opp_ranks[:, slot]] + opp_counts[None, None, :, slot].astype(np.int8)
            weight = weight * np.take(choose, cells)
        totals = (opp_draws[None] + (up_counts + holding)[:, None, :]).reshape(-1, _NUM_RANKS)
        opp_values = _rank_values(totals, half, size).reshape(len(holding), 1, len(opp_draws))
        doubled = (hero_values > opp_values).astype(np.int8) * 2 + (hero_values == opp_values)
        per_key[start:start + chunk] = (weight * doubled).sum(axis=(1, 2)) / (2 * weight.sum(axis=(1, 2)))
    unseen = int(left.sum()) - held.shape[1]
    outcomes = math.comb(unseen, hero_draw) * math.comb(unseen - hero_draw, opp_draw)
    return per_key[inverse], outcomes, len(keys) * len(hero_draws) * len(opp_draws)


def _bit_masks(cards: np.ndarray) -> np.ndarray:
    """One int64 bit mask per row of card ids (bit ``c`` set for card ``c``)."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), cards), axis=1) if cards.shape[1] else \
        np.zeros(len(cards), dtype=np.int64)


def _values(cards: np.ndarray, game: _Game, valid: np.ndarray | None = None) -> list[np.ndarray]:
    """Per half, the values of the rows of ``cards`` (N, a full hand); rows not ``valid`` (repeated cards) get 0."""
    if valid is None:
        return [evaluate_batch(cards, half, game.size) for half in game.halves]
    out = []
    for half in game.halves:
        values = np.zeros(len(cards), dtype=np.int32)
        values[valid] = evaluate_batch(cards[valid], half, game.size)
        out.append(values)
    return out


def _rank_values(counts: np.ndarray, half: str, size: int) -> np.ndarray:
    """Values of hands given as rank counts (N, 13); rows that are impossible (a rank above 4) get 0."""
    possible = (counts <= 4).all(axis=1)
    if possible.all():
        return rank_counts_batch(counts, half, size)
    values = np.zeros(len(counts), dtype=np.int32)
    values[possible] = rank_counts_batch(counts[possible], half, size)
    return values


def _combinations(cards: np.ndarray, size: int) -> np.ndarray:
    """Every ``size``-card combination of ``cards`` as rows, shape (C(n, size), size)."""
    rows = list(combinations(cards.tolist(), size))
    return np.array(rows, dtype=np.int64).reshape(len(rows), size)


def _range_by_cards(hero: Sequence[int], up: Sequence[int], held: np.ndarray, unseen: np.ndarray, hero_draw: int,
                    opp_draw: int, game: _Game) -> tuple[np.ndarray, int, int]:
    """Exact per-holding equity over every draw of hero's and the opponent's cards from the unseen ones."""
    hero_draws = _combinations(unseen, hero_draw)
    opp_draws = _combinations(unseen, opp_draw)
    hero_masks, opp_masks, held_masks = _bit_masks(hero_draws), _bit_masks(opp_draws), _bit_masks(held)
    hero_cards = np.concatenate([np.broadcast_to(np.array(hero, dtype=np.int64), (len(hero_draws), len(hero))),
                                 hero_draws], axis=1)
    hero_values = [v[None, :, None] for v in _values(hero_cards, game)]
    apart = ((hero_masks[:, None] & opp_masks[None, :]) == 0)[None]
    known = np.array(up, dtype=np.int64)
    per = np.empty(len(held))
    chunk = max(1, _CHUNK_ELEMENTS // max(1, len(hero_draws) * len(opp_draws)))
    for start in range(0, len(held), chunk):
        rows = held[start:start + chunk]
        cards = np.concatenate([np.broadcast_to(known, (len(rows), len(opp_draws), len(known))),
                                np.broadcast_to(rows[:, None, :], (len(rows), len(opp_draws), rows.shape[1])),
                                np.broadcast_to(opp_draws[None], (len(rows), len(opp_draws), opp_draw))], axis=2)
        masks = held_masks[start:start + chunk, None, None]
        fits = ((masks[:, :, 0] & opp_masks[None, :]) == 0).ravel()
        opp_values = [v.reshape(len(rows), 1, len(opp_draws))
                      for v in _values(cards.reshape(-1, game.cards), game, fits)]
        valid = apart & ((masks & hero_masks[None, :, None]) == 0) & ((masks & opp_masks[None, None, :]) == 0)
        share = _pair_shares(hero_values, opp_values)
        per[start:start + chunk] = (share * valid).sum(axis=(1, 2)) / valid.sum(axis=(1, 2))
    rest = len(unseen) - held.shape[1]
    outcomes = math.comb(rest, hero_draw) * math.comb(rest - hero_draw, opp_draw)
    return per, outcomes, len(held) * len(hero_draws) * len(opp_draws)


def _range_by_sampling(hero: Sequence[int], up: Sequence[int], held: np.ndarray, weight: np.ndarray,
                       unseen: np.ndarray, draws: tuple[int, int], game: _Game, rank_only: bool,
                       samples: int, seed: int | None) -> RangeEquity:
    """Per-holding equity from runouts shared by all holdings, each holding keeping those that miss its cards.

    ``rank_only``: the holdings are valued by their ranks (razz, Action Razz). A uniform runout of the
    unseen cards that misses a holding's cards is a uniform runout given that holding, so each holding's
    mean is unbiased. The overall standard error comes from each runout's influence on the weighted mean
    (the delta method), as the holdings share their runouts.
    """
    rng = np.random.default_rng(seed)
    hero_draw, opp_draw = draws
    kept, units = [], []
    counts = np.zeros(len(held), dtype=np.int64)
    for _ in range(_MAX_SAMPLING_ROUNDS):
        runouts = unseen[np.argsort(rng.random((samples, len(unseen))), axis=1)[:, :hero_draw + opp_draw]]
        quarters, ok = _sampled_shares(hero, up, held, runouts, hero_draw, game, rank_only)
        kept.append(ok)
        units.append(quarters * ok)
        counts += ok.sum(axis=1)
        if counts.min() >= 2:
            break
    else:
        raise ConfigError(f"samples: {samples} runouts per round left a holding with fewer than 2 runouts after "
                          f"{_MAX_SAMPLING_ROUNDS} rounds; give more samples")
    ok = np.concatenate(kept, axis=1).astype(np.float32)
    quarters = np.concatenate(units, axis=1).astype(np.float32)
    drawn = ok.shape[1]
    per = quarters.sum(axis=1, dtype=np.float64) / (4 * counts)
    squares = (quarters * quarters).sum(axis=1, dtype=np.float64) / 16
    per_errors = np.sqrt(np.maximum(squares - counts * per * per, 0.0) / (counts * (counts - 1)))
    scale = (weight / counts).astype(np.float32)
    influence = drawn * (scale @ quarters / 4 - (scale * per.astype(np.float32)) @ ok).astype(np.float64)
    error = math.sqrt(float(influence @ influence) / (drawn * (drawn - 1)))
    per.setflags(write=False)
    per_errors.setflags(write=False)
    return RangeEquity(_clipped(weight @ per), per, "monte_carlo", drawn, int(counts.sum()), error, per_errors)


def _sampled_shares(hero: Sequence[int], up: Sequence[int], held: np.ndarray, runouts: np.ndarray, hero_draw: int,
                    game: _Game, rank_only: bool) -> tuple[np.ndarray, np.ndarray]:
    """Hero's share (H, S) for each holding and runout, and which runouts miss each holding's cards."""
    samples = len(runouts)
    hero_cards = np.concatenate([np.broadcast_to(np.array(hero, dtype=np.int64), (samples, len(hero))),
                                 runouts[:, :hero_draw]], axis=1)
    hero_values = [v[None, :] for v in _values(hero_cards, game)]
    opp_runs = runouts[:, hero_draw:]
    ok = (_bit_masks(held)[:, None] & _bit_masks(runouts)[None, :]) == 0
    if rank_only:
        fixed = _counts_of(held >> 2) + _rank_counts(up)
        totals = (fixed[:, None, :] + _counts_of(opp_runs >> 2)[None]).reshape(-1, _NUM_RANKS)
        values = np.zeros(totals.shape[0], dtype=np.int32)
        values[ok.ravel()] = rank_counts_batch(totals[ok.ravel()], game.halves[0], game.size)
        opp_values = [values.reshape(len(held), samples)]
    else:
        known = np.array(up, dtype=np.int64)
        cards = np.concatenate([np.broadcast_to(known, (len(held), samples, len(known))),
                                np.broadcast_to(held[:, None, :], (len(held), samples, held.shape[1])),
                                np.broadcast_to(opp_runs[None], (len(held), samples, opp_runs.shape[1]))], axis=2)
        opp_values = [v.reshape(len(held), samples) for v in _values(cards.reshape(-1, game.cards), game, ok.ravel())]
    return _share_units(hero_values, opp_values), ok


# --------------------------------------------------------------------------- the ``razz equity`` command


@dataclass(frozen=True)
class Args:
    """``razz equity``'s settings (its arguments; :func:`run`)."""

    hands: tuple[str, ...] = field(metadata={"positional": True})
    """one player's cards, e.g. 'As 2s 3s' or '(x x) 8h'"""
    variant: str = limited("razz", choices=tuple(VARIANTS))
    """the game whose showdown decides"""
    dead: str = ""
    """cards out of play, e.g. 'Kc 9d'"""
    method: str = limited("auto", choices=METHODS)
    """exact rank draws (razz, Action Razz), exact card deals, or sampling; auto picks the exact one that fits
    --max-outcomes"""
    max_outcomes: int = 20_000_000
    """most card showdowns to enumerate (rank draws: 17 times as many) before auto samples; an exact --method past
    it is refused"""
    samples: int = 200_000
    """random deals when sampling"""
    seed: int = 0
    """seed of the sampling"""
    json: bool = False
    """print one JSON object"""


def run(args: Args) -> int:
    """``razz equity``: each player's equity and scoop chance as a table (or one JSON object), and how exact."""
    result = equity(args.hands, args.variant, args.dead, method=args.method, max_outcomes=args.max_outcomes,
                    samples=args.samples, seed=args.seed)
    if args.json:
        print(json.dumps({"variant": args.variant, "hands": list(args.hands), "dead": args.dead, **vars(result),
                          "exact": result.exact}))
        return 0
    width = max(len(h) for h in args.hands)
    print(f"{'player':<7} {'cards':<{width}} {'equity':>8} {'scoop':>8}" + ("   std err" if not result.exact else ""))
    errors = result.std_errors or (None,) * len(args.hands)
    for i, (hand, share, scoop, error) in enumerate(zip(args.hands, result.shares, result.scoops, errors)):
        line = f"{i:<7} {hand:<{width}} {100 * share:7.2f}% {100 * scoop:7.2f}%"
        print(line + (f"   {100 * error:.2f}%" if error is not None else ""))
    if result.exact:
        detail = f" ({result.evaluated:,} rank draws)" if result.method == "ranks" else ""
        print(f"exact ({result.method}): {result.outcomes:,} deals of the unseen cards{detail}")
    else:
        print(f"estimated (monte_carlo): {result.outcomes:,} random deals, seed {args.seed}")
    return 0

"""A Monte Carlo equity player: deal out the unseen cards many times, then act on pot odds.

At each decision the agent removes every card it can see from the deck (its own cards,
every up card, the dead cards, the community card), deals the live opponents their
missing down cards and everyone the rest of their cards to 7th street, and scores each
deal with the variant's showdown evaluators (the numpy batch versions, one call per pot half
for every seat and deal of many decisions). Its equity is its average share of the pot against the live
opponents: ties share fractionally, and in stud8 each half is half the pot (the high
half takes all when no low qualifies). Opponents' hidden cards are drawn uniformly: the
agent reads no betting, which keeps it simple and makes it a clean "showdown value" baseline.

Then, with ``n`` players live, ``pot`` chips in and ``to_call`` to call:

* bet, complete or raise when equity > 1/n + ``margin`` (clearly above a fair share);
* call when equity >= to_call / (pot + to_call), the pot odds, discounted by
  ``implied_odds`` before 7th street (later bets won when the draw comes in);
* otherwise check, or fold to a bet.

Each shuffle of the unseen cards is cut into as many disjoint deals as it holds (each
one a uniform deal, so the estimate stays unbiased) to save shuffling. The rollouts are
showdowns only (no betting after the decision), so the batched engine has nothing to play
for them; they are numpy array code, without numba (``docs/batch.md`` has the measurements).

**Many decisions at once.** ``act_batch`` (and :meth:`MonteCarloAgent.equities`) decides a whole
:class:`~razz_env.encoding.interface.ObservationBatch`: each row still draws its deals from its own
generator (below), and then the deals of every row are laid out, scored and averaged together as
arrays. ``act`` is ``act_batch`` of one observation: one code path, so a decision is the same alone
or in any batch. A row's bookkeeping (who plays, the pot odds) is plain Python, and what depends only on
its layout (where its seat sees cards, who has folded: the deal index of every card) is worked out once
and kept, so one decision alone costs no more than the earlier one-decision-at-a-time code did (1.03 to
1.2 times its decisions/s; about 95 µs heads-up razz, 450 µs six-handed stud8), and many at once cost
1.3 to 2.3 times less each (``benchmarks/bench_monte_carlo.py`` times both).

**Deterministic by design.** Each estimate draws its deals from a generator (Philox) keyed by
a stable hash (:meth:`MonteCarloAgent.deals_key`: BLAKE2b, the same in every process; the rollouts re-key
one Philox rather than build one each time, the same draws) of the agent's ``seed`` and the inputs of the
estimate as the seat sees them: variant, street, seats, its own cards, every up card, the dead
cards, the community card and who has folded. So the same observation always gets the same
equity and the same action, whatever was asked before and in whichever process, and
``action_probabilities`` is the one-hot of that action: the agent is a deterministic policy
(which best responses can query), and its sampling noise is a fixed part of that policy
rather than fresh at every call. Different views get independent deals. An agent built
without a ``seed`` draws one at random once, at construction.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, chain
from typing import NamedTuple

import numpy as np

from razz_env.agents.base import BaseAgent, Declaration, Observation
from razz_env.agents.registry import register
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD, NUM_ACTIONS
from razz_env.encoding.interface import ObservationBatch
from razz_env.engine import hand_value
from razz_env.engine.cards import DECK_SIZE
from razz_env.engine.checks import as_int, as_real
from razz_env.engine.seat_views import NO_CARD, SeatViews
from razz_env.engine.variants import SEVEN_CARD_GAMES, VARIANTS
from razz_env.engine.view import SeatView

HAND_SIZE = 7
MAX_SAMPLES = 1_000_000  # deals per decision: more would only take memory and time
CHUNK_HANDS = 1 << 15  # hands scored at once (whole rows): small enough for the caches, large enough to batch
CARD_BITS = 6  # a card id (0 to 51) fits in six bits
CARD_MASK = np.uint64((1 << CARD_BITS) - 1)
RAW_TO_KEY = 11  # ``random()`` is ``(raw >> 11) * 2**-53`` for a raw 64-bit draw: its 53-bit key
LAYOUTS = 4096  # row layouts kept (a kilobyte or so each)
INDEX_CACHE = 1 << 21  # entries of the deal indexes kept, in all: 16 MB
WORD = (1 << 64) - 1  # the low 64-bit word of a 128-bit Philox key
KEY_ENCODER = json.JSONEncoder(default=int)
"""``json.dumps`` (its defaults), but numpy integers as ints: what :meth:`MonteCarloAgent.deals_key` hashes."""

VALUE, PASSIVE, GIVE_UP = range(3)
PREFERENCES = (
    (BET_RAISE, CHECK_CALL, BRING_IN),  # bet, complete or raise for value
    (CHECK_CALL, BRING_IN),  # check or call
    (FOLD, CHECK_CALL, BRING_IN),  # fold to a bet, else check
)
"""Action ids in order of preference for each intent; the first legal one is played, else the lowest legal id."""
CHOICES = tuple(tuple(next((a for a in (*wanted, *range(NUM_ACTIONS)) if bits >> a & 1), -1)
                      for bits in range(1 << NUM_ACTIONS)) for wanted in PREFERENCES)
"""``CHOICES[intent][mask bits]``: the id played (as :meth:`BaseAgent.first_legal` picks it); -1: none legal."""
ROW = DECK_SIZE + 1  # a row of keys: a deck, then a column that no card takes (written where ``shown`` is -1)
CARDS = np.array([[*range(DECK_SIZE), (1 << 64) - 1]], dtype=np.uint64)
"""The key of each unseen card in a row of keys; the last column sorts last."""
SEEN_KEYS = np.uint64(1 << 59) | np.arange(1 << CARD_BITS, dtype=np.uint64) << np.uint64(CARD_BITS)
"""The key of the card seen at each code (:class:`_Layout`), but for the card in its low bits: above every drawn
key (53 bits, then the card's 6), so that the seen cards sort after the unseen ones, in the order of their codes."""


BATCH_EVALUATORS = {
    "razz": hand_value.razz_low_batch,
    "action_razz": hand_value.action_razz_batch,
    "high": hand_value.stud_high_batch,
    "eight": hand_value.eight_low_batch,
}


def _pot_share(scores: np.ndarray) -> np.ndarray:
    """Player 0's share of one pot half per row and sample, ties split; ``scores[r, i, j]``: player ``i`` of row
    ``r`` in sample ``j`` (``-1`` where no player sits)."""
    winners = scores == np.maximum.reduce(scores, axis=1, keepdims=True)
    return winners[:, 0] / np.add.reduce(winners, axis=1)


class _Rows(NamedTuple):
    """The decisions an estimate reads, one row each: the :class:`SeatViews` fields of the same names, as lists
    but ``shown`` (N, S * cards a seat + 1), the cards the row's seat sees by code (``cards``, then the community
    card); and ``seen(rows)``, what :meth:`MonteCarloAgent.deals_key` keys each of ``rows`` on."""

    variant: str
    num_seats: int
    seat: list[int]
    street: list[int]
    folded: list[list[bool]]
    pot: list[int]
    to_call: list[int]
    shown: np.ndarray
    seen: Callable[[list[int]], Sequence[SeatView | Seen]]

    @classmethod
    def of_views(cls, views: SeatViews) -> _Rows:
        """The rows of ``views``."""
        shown = np.concatenate([views.cards.reshape(len(views), -1), views.community[:, None]], axis=1)
        return cls(views.variant, views.num_seats, views.seat.tolist(), views.street.tolist(),
                   views.folded.tolist(), views.pot.tolist(), views.to_call.tolist(), shown,
                   functools.partial(_seen, views))

    @classmethod
    def of_view(cls, view: SeatView) -> _Rows:
        """One row: ``view`` read straight into the lists and arrays (``shown`` as :attr:`SeatViews.cards` lays
        them out)."""
        variant = VARIANTS[view.variant]
        up, size = variant.up_positions, variant.cards_per_seat
        shown = [NO_CARD] * (view.num_seats * size + 1)
        for seat, cards in enumerate(view.up_cards):
            shown[seat * size + up.start:seat * size + up.start + len(cards)] = cards
        own, down = view.seat * size, view.own_down
        shown[own:own + min(len(down), up.start)] = down[:up.start]
        shown[own + up.stop:own + up.stop + len(down[up.start:])] = down[up.start:]
        if view.community is not None:
            shown[-1] = view.community
        return cls(view.variant, view.num_seats, [view.seat], [view.street], [view.folded], [view.pot],
                   [view.to_call], np.array([shown]), lambda rows: [view for _ in rows])


@register("monte_carlo")
class MonteCarloAgent(BaseAgent):
    """Plays pot odds against a sampled equity; see the module docstring."""

    name = "monte_carlo"
    # it deals out seven cards from 52 and scores five-card showdowns
    declaration = Declaration(variants=SEVEN_CARD_GAMES, states_policy=True, acts_in_batch=True, deterministic=True)

    def __init__(
        self,
        samples: int = 200,
        margin: float = 0.1,
        implied_odds: float = 0.05,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(name)
        as_int("samples", samples, 1, MAX_SAMPLES)
        as_real("margin", margin, -1, 1)
        as_real("implied_odds", implied_odds, 0, 1)
        if seed is not None:
            as_int("seed", seed, 0, what="an integer or None")
        self.samples = int(samples)
        self.margin = float(margin)
        self.implied_odds = float(implied_odds)
        self.seed = int(seed) if seed is not None else secrets.randbits(128)

    def deals_key(self, view: SeatView | Seen) -> int:
        """The Philox key of one estimate's deals: a stable hash of ``seed`` and what the estimate reads of ``view``."""
        key = KEY_ENCODER.encode([
            self.seed, view.variant, view.street, view.seat, view.num_seats, view.own_down, view.own_up,
            view.up_cards, view.dead_cards, view.community, [bool(f) for f in view.folded],
        ])
        return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=16).digest(), "little")

    def deals_generator(self, view: SeatView | Seen) -> np.random.Generator:
        """The generator one estimate draws from: Philox keyed by :meth:`deals_key` (its raw draws are the deals')."""
        return np.random.Generator(np.random.Philox(key=self.deals_key(view)))

    def equity(self, view: SeatView) -> float:
        """Estimated share of the pot at showdown against the live opponents (0 to 1); the same for the same view.

        A seat that has folded has no share: 0. It is :meth:`equities` of this view alone.
        """
        return self._equities(_Rows.of_view(view))[0]

    def equities(self, views: SeatViews) -> np.ndarray:
        """:meth:`equity` of each row, float64: each row's deals come from its own :meth:`deals_generator`, and the
        showdowns of every row are scored together (in chunks of about :data:`CHUNK_HANDS` hands, whole rows)."""
        return np.array(self._equities(_Rows.of_views(views)), dtype=np.float64)

    def _equities(self, rows: _Rows) -> list[float]:
        """:meth:`equities` of ``rows``."""
        result, todo = [], []
        for row, (seat, folded) in enumerate(zip(rows.seat, rows.folded)):
            result.append(0.0 if folded[seat] else 1.0)
            if not folded[seat] and folded.count(False) > 1:
                todo.append(row)
        shown = rows.shown[todo]
        layouts = _layouts(rows, todo, shown)
        for start, stop in _chunks([layout.players * self.samples for layout in layouts], CHUNK_HANDS):
            equities = self._rollouts(rows, todo[start:stop], shown[start:stop], layouts[start:stop]).tolist()
            for row, equity in zip(todo[start:stop], equities):
                result[row] = equity
        return result

    def _rollouts(self, rows: _Rows, index: list[int], shown: np.ndarray, layouts: list[_Layout]) -> np.ndarray:
        """Equities of the rows ``index`` (``shown``: their ``rows.shown``; laid out as ``layouts``), whose seats
        play on against one live opponent at least (see :meth:`equities`).

        Each deck is the row's unseen cards in the order of the row's draws from its generator: the order
        ``np.argsort`` of its ``random()`` numbers gives. A ``random()`` number is the 53-bit key of a raw draw
        times 2**-53, so the keys, with the card in their low bits, are sorted as integers instead (several times
        faster than an argsort; equal keys, which never come in practice, put the lower card first). The cards the
        row's seat sees follow in every deck (:data:`SEEN_KEYS`), so one index into the decks picks every card of
        every hand.
        """
        count, samples = len(index), self.samples
        decks = [-(-samples // layout.per_deck) for layout in layouts]
        deck_start = list(accumulate(decks, initial=0))
        order = CARDS.repeat(count, axis=0)
        order[np.arange(count)[:, None], shown] = SEEN_KEYS[:shown.shape[1]] | shown.astype(np.uint64)
        order.sort(axis=1)  # the unseen cards first, in card order
        keys = order.repeat(decks, axis=0)
        for seen, start, stop, layout in zip(rows.seen(index), deck_start, deck_start[1:], layouts):
            keys[start:stop, :layout.unseen] |= _raw(self.deals_key(seen), (stop - start, layout.unseen)) >> (
                RAW_TO_KEY - CARD_BITS) & ~CARD_MASK
        keys[:, :max(layout.unseen for layout in layouts)].sort(axis=1)  # the seen cards are in order already
        keys &= CARD_MASK
        cards = keys.view(np.int64)
        pair_start = list(accumulate((layout.players for layout in layouts), initial=0))
        hands = np.empty((pair_start[-1], samples, HAND_SIZE), dtype=np.int64)
        for start, stop, first, last, layout in zip(deck_start, deck_start[1:], pair_start, pair_start[1:], layouts):
            cards[start:stop].take(_INDEXES.get(layout, samples), out=hands[first:last])  # its decks, flat
        hands = hands.reshape(-1, HAND_SIZE)
        scores = {}
        for half in VARIANTS[rows.variant].showdown:
            values = BATCH_EVALUATORS[half](hands).reshape(-1, samples)
            scores[half] = np.empty((count, max(layout.players for layout in layouts), samples), dtype=np.int32)
            scores[half].fill(-1)
            for row, first, last in zip(range(count), pair_start, pair_start[1:]):
                scores[half][row, :last - first] = values[first:last]
        if "eight" not in scores:
            (score,) = scores.values()
            return np.add.reduce(_pot_share(score), axis=1) / samples
        high, low = _pot_share(scores["high"]), _pot_share(scores["eight"])
        low_played = np.maximum.reduce(scores["eight"], axis=1) > 0
        return np.add.reduce(np.where(low_played, (high + low) / 2, high), axis=1) / samples

    def act(self, observation: Observation) -> int:
        """Bet for value above a fair share, call on (implied) pot odds, else check or fold: one row of act_batch."""
        return self._decide(_Rows.of_view(observation.view), observation.action_mask[None], [observation.seat])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """:meth:`act` at each observation, the equities estimated together (:meth:`equities`)."""
        observations = ObservationBatch.of(observations)
        if not len(observations):
            return []
        if observations.views is None:
            raise ValueError("monte_carlo reads the seat views: its observations must carry them")
        return self._decide(_Rows.of_views(observations.views), observations.masks, observations.seats)

    def _decide(self, rows: _Rows, masks: np.ndarray, seats: Sequence[int]) -> list[int]:
        """The action id of each row (``masks``: its legal ids; ``seats``: for the error when it has none)."""
        legal = [sum(1 << action for action, allowed in enumerate(row) if allowed) for row in masks.tolist()]
        if not all(legal):
            raise ValueError(f"seat {seats[legal.index(0)]} has no legal action: it is not its turn")
        chosen = []
        for equity, bits, seat, street, folded, pot, to_call in zip(
                self._equities(rows), legal, rows.seat, rows.street, rows.folded, rows.pot, rows.to_call):
            live = folded.count(False) - (not folded[seat])
            if equity > 1 / (1 + live) + self.margin:
                wanted = VALUE
            elif to_call == 0 or equity >= to_call / max(pot + to_call, 1) * (1 - self.implied_odds * (street < 7)):
                wanted = PASSIVE
            else:
                wanted = GIVE_UP
            chosen.append(CHOICES[wanted][bits])
        return chosen

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The one-hot of :meth:`act`, which is a function of the observation (see the module docstring)."""
        return np.eye(NUM_ACTIONS)[self.act(observation)]

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """The one-hot of :meth:`act_batch`, shape (N, 5)."""
        return np.eye(NUM_ACTIONS)[self.act_batch(observations)].reshape(-1, NUM_ACTIONS)


class Seen(NamedTuple):
    """What an estimate reads of one seat's view: the :class:`SeatView` fields of the same names."""

    variant: str
    street: int
    seat: int
    num_seats: int
    own_down: list[int]
    own_up: list[int]
    up_cards: list[list[int]]
    dead_cards: list[int]
    community: int | None
    folded: list[bool]


def _seen(views: SeatViews, rows: np.ndarray) -> list[Seen]:
    """What the estimate of each of ``rows`` reads: what :meth:`MonteCarloAgent.deals_key` keys on."""
    positions = views.up_positions
    own = views.cards[rows, views.seat[rows]]
    own_down = np.concatenate([own[:, :positions.start], own[:, positions.stop:]], axis=1)
    up_cards = [[[c for c in cards if c != NO_CARD] for cards in row] for row in views.up_cards[rows].tolist()]
    return [
        Seen(views.variant, street, seat, views.num_seats, [c for c in down if c != NO_CARD], up[seat], up,
             [c for f, cards in zip(folded, up) if f for c in cards], None if community == NO_CARD else community,
             folded)
        for street, seat, down, up, community, folded in zip(
            views.street[rows].tolist(), views.seat[rows].tolist(), own_down.tolist(), up_cards,
            views.community[rows].tolist(), views.folded[rows].tolist())
    ]


_PHILOX = np.random.Philox(key=0)
_PHILOX_LOCK = threading.Lock()
_PHILOX_STATE = {"bit_generator": "Philox", "buffer": [0] * 4, "buffer_pos": 4, "has_uint32": 0, "uinteger": 0,
                 "state": {"counter": [0] * 4, "key": [0, 0]}}
"""A fresh Philox's state, but for its key."""


def _raw(key: int, shape: tuple[int, int]) -> np.ndarray:
    """The first raw draws of :meth:`MonteCarloAgent.deals_generator` for ``key``: one Philox, re-keyed (much
    cheaper than building one)."""
    with _PHILOX_LOCK:
        _PHILOX_STATE["state"]["key"] = [key & WORD, key >> 64]
        _PHILOX.state = _PHILOX_STATE
        return _PHILOX.random_raw(shape)


def _chunks(sizes: list[int], limit: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of consecutive runs of ``sizes`` of at most ``limit`` in all (or of one item); none if empty."""
    start, filled = 0, 0
    for stop, size in enumerate(sizes):
        if filled and filled + size > limit:
            yield start, stop
            start, filled = stop, 0
        filled += size
    if sizes:
        yield start, len(sizes)


class _Layout(NamedTuple):
    """Who gets which card in each deal of a row, whatever its cards (a row's layout: :func:`_layout`).

    A row's players are its seat and its live opponents (player 0, then the opponents in seat order). Each holds
    its visible cards and is dealt the rest of its seven: its ``need`` cards from the deal's slots (the row's seat
    first, then the opponents) and the community card as seen or, when the deck would run out, dealt as the deal's
    last slot. A deal is ``total`` consecutive cards of a shuffled deck of the row's ``unseen`` cards, each deck cut
    into ``per_deck`` deals; after the unseen cards, a deck holds the cards the seat sees, in the order of their
    codes (``seat * cards a seat + position``, the community card last). ``column[player, position]``: the column
    of a deck that card is, a slot of the deal where ``drawn``. ``key``: what :func:`_layout` was given.
    """

    key: tuple
    players: int
    unseen: int
    per_deck: int
    total: int
    column: np.ndarray
    drawn: np.ndarray


def _layouts(rows: _Rows, index: list[int], shown: np.ndarray) -> list[_Layout]:
    """The layout of each of the rows ``index`` (``shown``: their ``rows.shown``): where its seat sees cards, and
    who has folded."""
    seen, width = (shown != NO_CARD).tobytes(), shown.shape[1]
    return [_layout(rows.variant, rows.num_seats, rows.seat[row], rows.street[row], tuple(rows.folded[row]),
                    seen[i * width:(i + 1) * width]) for i, row in enumerate(index)]


@functools.lru_cache(maxsize=LAYOUTS)
def _layout(variant: str, num_seats: int, seat: int, street: int, folded: tuple[bool, ...], seen: bytes) -> _Layout:
    """The layout of a row whose ``seat`` acts on ``street`` (``folded``: who has folded; ``seen``: whether it sees
    each card of ``shown``, one byte each)."""
    size, up = VARIANTS[variant].cards_per_seat, VARIANTS[variant].up_positions
    shown = [seen[s * size:(s + 1) * size] for s in range(num_seats)]
    community = seen[-1]
    players = [seat, *(s for s in range(num_seats) if s != seat and not folded[s])]
    known = [sum(cards) for cards in shown]
    future = sum(HAND_SIZE - known[s] - 2 * (s != seat) for s in players) if street < 7 else 0
    dealt = 2 * num_seats + sum(sum(cards[up.start:up.stop]) for cards in shown)
    shared = int(not community and future > DECK_SIZE - dealt)  # 7th street will be a community card
    need = [HAND_SIZE - community - shared - known[s] for s in players]
    total = sum(need) + shared
    unseen = DECK_SIZE - sum(seen)
    rank = list(accumulate(chain.from_iterable(shown)))  # 1 + the rank of each seen card's code
    columns, drawn, start = [], [], 0
    for s, n in zip(players, need):
        hidden = list(accumulate(not visible for visible in shown[s]))  # 1 + the rank of each hidden card
        columns.append([unseen + rank[s * size + position] - 1 if visible
                        else start + hidden[position] - 1 if hidden[position] <= n
                        else total - 1 if shared else DECK_SIZE - 1  # the community card: dealt, else seen
                        for position, visible in enumerate(shown[s])])
        drawn.append([not visible and (hidden[position] <= n or bool(shared))
                      for position, visible in enumerate(shown[s])])
        start += n
    return _Layout((variant, num_seats, seat, street, folded, seen), len(players), unseen, unseen // total, total,
                   np.array(columns), np.array(drawn))


class _IndexCache:
    """The deal index of each recent (layout, samples) pair, up to ``budget`` entries in all (the oldest go)."""

    def __init__(self, budget: int) -> None:
        self.budget, self.size = budget, 0
        self.indexes: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, layout: _Layout, samples: int) -> np.ndarray:
        """(players, samples, 7) read-only: the column of its row's decks (rows of :data:`ROW` keys) that each card
        of each deal is (:class:`_Layout`): ``deck * ROW + column``, plus ``deal * total`` where drawn."""
        key = (*layout.key, samples)
        with self.lock:
            found = self.indexes.get(key)
            if found is not None:
                self.indexes.move_to_end(key)
                return found
        deck, deal = np.divmod(np.arange(samples), layout.per_deck)
        index = deal[:, None] * layout.total * layout.drawn[:, None] + layout.column[:, None]
        index += deck[:, None] * ROW
        index.flags.writeable = False
        with self.lock:
            self.indexes[key] = index
            self.size += index.size
            while self.size > self.budget:
                self.size -= self.indexes.popitem(last=False)[1].size
        return index


_INDEXES = _IndexCache(INDEX_CACHE)
"""The deal indexes the rollouts take their hands with."""

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
or in any batch. That array set-up makes one decision alone slower than the earlier code made it (a
few hundred microseconds more): ask for many at once (``benchmarks/bench_monte_carlo.py`` times both).

**Deterministic by design.** Each estimate draws its deals from a generator (Philox) keyed by
a stable hash (BLAKE2b, the same in every process) of the agent's ``seed`` and the inputs of the
estimate as the seat sees them: variant, street, seats, its own cards, every up card, the dead
cards, the community card and who has folded. So the same observation always gets the same
equity and the same action, whatever was asked before and in whichever process, and
``action_probabilities`` is the one-hot of that action: the agent is a deterministic policy
(which best responses can query), and its sampling noise is a fixed part of that policy
rather than fresh at every call. Different views get independent deals. An agent built
without a ``seed`` draws one at random once, at construction.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from numbers import Real
from typing import NamedTuple

import numpy as np

from razz_env.agents.base import BaseAgent, Declaration, Observation
from razz_env.agents.registry import register
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD, NUM_ACTIONS
from razz_env.encoding.interface import ObservationBatch
from razz_env.engine import hand_value
from razz_env.engine.cards import DECK_SIZE
from razz_env.engine.seat_views import NO_CARD, SeatViews
from razz_env.engine.variants import SEVEN_CARD_GAMES, get_variant
from razz_env.engine.view import SeatView

HAND_SIZE = 7
MAX_SAMPLES = 1_000_000  # deals per decision: more would only take memory and time
CHUNK_HANDS = 1 << 15  # hands scored at once (whole rows): small enough for the caches, large enough to batch
CARD_BITS = 6  # a card id (0 to 51) fits in six bits
CARD_MASK = np.uint64((1 << CARD_BITS) - 1)
RAW_TO_KEY = 11  # ``random()`` is ``(raw >> 11) * 2**-53`` for a raw 64-bit draw: its 53-bit key

VALUE, PASSIVE, GIVE_UP = range(3)
PREFERENCES = (
    (BET_RAISE, CHECK_CALL, BRING_IN),  # bet, complete or raise for value
    (CHECK_CALL, BRING_IN),  # check or call
    (FOLD, CHECK_CALL, BRING_IN),  # fold to a bet, else check
)
"""Action ids in order of preference for each intent; the first legal one is played, else the lowest legal id."""
MASK_BITS = 1 << np.arange(NUM_ACTIONS)
CHOICES = np.array([[next((a for a in (*wanted, *range(NUM_ACTIONS)) if bits >> a & 1), -1)
                     for bits in range(1 << NUM_ACTIONS)] for wanted in PREFERENCES])
"""``CHOICES[intent, mask bits]``: the id played (as :meth:`BaseAgent.first_legal` picks it); -1: none legal."""


BATCH_EVALUATORS = {
    "razz": hand_value.razz_low_batch,
    "action_razz": hand_value.action_razz_batch,
    "high": hand_value.stud_high_batch,
    "eight": hand_value.eight_low_batch,
}


def _pot_share(scores: np.ndarray) -> np.ndarray:
    """Player 0's share of one pot half per row and sample, ties split; ``scores[r, i, j]``: player ``i`` of row
    ``r`` in sample ``j`` (``-1`` where no player sits)."""
    winners = scores == scores.max(axis=1, keepdims=True)
    return winners[:, 0] / winners.sum(axis=1)


@register("monte_carlo")
class MonteCarloAgent(BaseAgent):
    """Plays pot odds against a sampled equity; see the module docstring."""

    name = "monte_carlo"
    # it deals out seven cards from 52 and scores five-card showdowns
    declaration = Declaration(variants=SEVEN_CARD_GAMES, states_policy=True, acts_in_batch=True)

    def __init__(
        self,
        samples: int = 200,
        margin: float = 0.1,
        implied_odds: float = 0.05,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(name)
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be an integer from 1 to {MAX_SAMPLES:,}, got {samples!r}")
        for field, value, low in (("margin", margin, -1), ("implied_odds", implied_odds, 0)):
            if isinstance(value, bool) or not isinstance(value, Real) or not low <= value <= 1:
                raise ValueError(f"{field} must be a number from {low} to 1, got {value!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
        self.samples = int(samples)
        self.margin = float(margin)
        self.implied_odds = float(implied_odds)
        self.seed = int(seed) if seed is not None else secrets.randbits(128)

    def deals_generator(self, view: SeatView | Seen) -> np.random.Generator:
        """The generator one estimate draws from, keyed by a stable hash of ``seed`` and what it reads of ``view``."""
        key = json.dumps([
            self.seed, view.variant, view.street, view.seat, view.num_seats, [int(c) for c in view.own_down],
            [int(c) for c in view.own_up], [[int(c) for c in up] for up in view.up_cards],
            [int(c) for c in view.dead_cards], None if view.community is None else int(view.community),
            [bool(f) for f in view.folded],
        ])
        digest = hashlib.blake2b(key.encode(), digest_size=16).digest()
        return np.random.Generator(np.random.Philox(key=int.from_bytes(digest, "little")))

    def equity(self, view: SeatView) -> float:
        """Estimated share of the pot at showdown against the live opponents (0 to 1); the same for the same view.

        A seat that has folded has no share: 0. It is :meth:`equities` of this view alone.
        """
        return float(self.equities(SeatViews.from_views([view]))[0])

    def equities(self, views: SeatViews) -> np.ndarray:
        """:meth:`equity` of each row, float64: each row's deals come from its own :meth:`deals_generator`, and the
        showdowns of every row are scored together (in chunks of about :data:`CHUNK_HANDS` hands, whole rows)."""
        return self._equities(views, views.live_opponents)

    def _equities(self, views: SeatViews, live: np.ndarray) -> np.ndarray:
        """:meth:`equities`, given ``views.live_opponents``."""
        playing = ~views.folded[np.arange(len(views)), views.seat]
        result = playing.astype(np.float64)
        todo = np.flatnonzero(playing & live.any(axis=1))
        hands = (live.sum(axis=1)[todo] + 1) * self.samples
        cuts = (np.flatnonzero(np.diff((np.cumsum(hands) - hands) // CHUNK_HANDS)) + 1).tolist()
        for start, stop in zip([0, *cuts], [*cuts, len(todo)]) if len(todo) else ():
            rows = todo[start:stop]
            result[rows] = self._rollouts(views, rows, live[rows])
        return result

    def _rollouts(self, views: SeatViews, rows: np.ndarray, live: np.ndarray) -> np.ndarray:
        """Equities of ``rows``, whose seats play on against ``live`` opponents, one at least (see :meth:`equities`).

        Each deck is the row's unseen cards in the order of the row's draws from its generator: the order
        ``np.argsort`` of its ``random()`` numbers gives. A ``random()`` number is the 53-bit key of a raw draw
        times 2**-53, so the keys, with the card in their low bits, are sorted as integers instead (several times
        faster than an argsort; equal keys, which never come in practice, put the lower card first).
        """
        plan = _Plan(views, rows, live, self.samples)
        keys = np.full((plan.deck_start[-1] + plan.decks[-1], DECK_SIZE), 1 << 60, dtype=np.uint64)  # sorts last
        for seen, cards, start, count, unseen in zip(_seen(views, rows), plan.unseen, plan.deck_start.tolist(),
                                                     plan.decks.tolist(), plan.unseen_count.tolist()):
            raw = self.deals_generator(seen).bit_generator.random_raw((count, unseen))
            keys[start:start + count, :unseen] = raw >> RAW_TO_KEY << CARD_BITS | cards[:unseen]
        keys.sort(axis=1)
        keys &= CARD_MASK
        hands = plan.hands(keys.astype(np.int8))
        scores = {half: plan.scores(BATCH_EVALUATORS[half](hands)) for half in get_variant(views.variant).showdown}
        if "eight" not in scores:
            (score,) = scores.values()
            return _pot_share(score).mean(axis=1)
        high, low = _pot_share(scores["high"]), _pot_share(scores["eight"])
        low_played = scores["eight"].max(axis=1) > 0
        return np.where(low_played, (high + low) / 2, high).mean(axis=1)

    def act(self, observation: Observation) -> int:
        """Bet for value above a fair share, call on (implied) pot odds, else check or fold: one row of act_batch."""
        return self._decide(SeatViews.from_views([observation.view]), observation.action_mask[None],
                            [observation.seat])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """:meth:`act` at each observation, the equities estimated together (:meth:`equities`)."""
        observations = ObservationBatch.of(observations)
        if not len(observations):
            return []
        if observations.views is None:
            raise ValueError("monte_carlo reads the seat views: its observations must carry them")
        return self._decide(observations.views, observations.masks, observations.seats)

    def _decide(self, views: SeatViews, masks: np.ndarray, seats: Sequence[int]) -> list[int]:
        """The action id of each row (``masks``: its legal ids; ``seats``: for the error when it has none)."""
        bits = (masks != 0) @ MASK_BITS
        if not bits.all():
            raise ValueError(f"seat {seats[int(np.argmin(bits))]} has no legal action: it is not its turn")
        live = views.live_opponents
        equity = self._equities(views, live)
        to_call = views.to_call
        fair = 1 / (1 + live.sum(axis=1))
        pot_odds = to_call / np.maximum(views.pot + to_call, 1) * np.where(views.street < 7, 1 - self.implied_odds, 1.0)
        wanted = np.where(equity > fair + self.margin, VALUE,
                          np.where((to_call == 0) | (equity >= pot_odds), PASSIVE, GIVE_UP))
        return CHOICES[wanted, bits].tolist()

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
    """What the estimate of each of ``rows`` reads: what :meth:`MonteCarloAgent.deals_generator` keys on."""
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


class _Plan:
    """Who gets which card in each deal of each row, as arrays (what :meth:`MonteCarloAgent.equity` deals).

    A row's players are its seat and its live opponents. Each holds its visible cards and is dealt the rest of
    its seven: its ``need`` cards from the deal's slots (the row's seat first, then the opponents in seat order)
    and the community card as seen or, when the deck would run out, dealt as the deal's last slot. A deal is
    ``total`` consecutive cards of a shuffled deck of the row's unseen cards, each deck cut into ``per_deck``
    deals. A pair is one player of one row: ``pair_row`` (index into the plan's rows) and ``pair_player`` (0 for
    the row's seat, then its opponents in seat order).
    """

    def __init__(self, views: SeatViews, rows: np.ndarray, live: np.ndarray, samples: int) -> None:
        count, seats, up = len(rows), views.num_seats, views.up_positions
        self.samples = samples
        cards, community = views.cards[rows], views.community[rows]
        seen = np.zeros((count, DECK_SIZE + 1), dtype=bool)  # column -1: no card
        seen[np.arange(count)[:, None], np.concatenate([cards.reshape(count, -1), community[:, None]], axis=1)] = True
        self.unseen = np.argsort(seen[:, :DECK_SIZE], axis=1, kind="stable").astype(np.uint64)  # unseen first
        self.unseen_count = DECK_SIZE + seen[:, DECK_SIZE] - seen.sum(axis=1)
        hidden = cards == NO_CARD
        known = HAND_SIZE - hidden.sum(axis=2)
        player = ~views.folded[rows]  # the row's seat plays on
        future = ((HAND_SIZE - known - 2 * live) * player).sum(axis=1) * (views.street[rows] < 7)
        dealt = 2 * seats + (~hidden[:, :, up.start:up.stop]).sum(axis=(1, 2))
        shared = (community == NO_CARD) & (future > DECK_SIZE - dealt)
        need = ((HAND_SIZE - (community != NO_CARD) - shared)[:, None] - known) * player
        own_need = need.sum(axis=1) - (need * live).sum(axis=1)
        before = np.cumsum(need * live, axis=1) - need * live
        start = np.where(live, own_need[:, None] + before, 0)
        self.total = need.sum(axis=1) + shared
        self.per_deck = self.unseen_count // self.total
        self.decks = -(-samples // self.per_deck)
        self.deck_start = np.cumsum(self.decks) - self.decks
        self.players = 1 + live.sum(axis=1)
        nth = np.cumsum(hidden, axis=2) - 1
        to_player = nth < need[:, :, None]
        self.pair_row = np.nonzero(player)[0]
        self.pair_player = np.cumsum(live, axis=1)[player] * live[player]
        self.drawn = (hidden & (to_player | shared[:, None, None]))[player]
        self.slot = np.where(to_player, start[:, :, None] + nth, self.total[:, None, None] - 1)[player]
        self.fixed = np.where(hidden, community[:, None, None], cards)[player].astype(np.int8)

    def hands(self, decks: np.ndarray) -> np.ndarray:
        """(pairs * samples, 7) every player's cards in every deal of its row. A deal's slots are consecutive cards
        of a deck, so one index into the decks, or into the players' fixed cards placed after them, picks each."""
        deal = np.arange(self.samples)
        per_deck = self.per_deck[:, None]
        first = (self.deck_start[:, None] + deal // per_deck) * DECK_SIZE + deal % per_deck * self.total[:, None]
        pairs = len(self.pair_row)
        fixed = decks.size + np.arange(pairs * HAND_SIZE).reshape(pairs, HAND_SIZE)
        index = first[self.pair_row][:, :, None] * self.drawn[:, None]
        index += np.where(self.drawn, self.slot, fixed)[:, None]
        return np.concatenate([decks.ravel(), self.fixed.ravel()])[index.reshape(-1, HAND_SIZE)]

    def scores(self, values: np.ndarray) -> np.ndarray:
        """(rows, players, samples) the values of the pairs' hands (pairs * samples), ``-1`` past a row's players."""
        scores = np.full((len(self.total), self.players.max(), self.samples), -1, dtype=values.dtype)
        scores[self.pair_row, self.pair_player] = values.reshape(len(self.pair_row), self.samples)
        return scores

"""A Monte Carlo equity player: deal out the unseen cards many times, then act on pot odds.

At each decision the agent removes every card it can see from the deck (its own cards,
every up card, the dead cards, the community card), deals the live opponents their
missing down cards and everyone the rest of their cards to 7th street, and scores each
deal with the variant's showdown evaluators (the numpy batch versions, one call per pot half
for every seat and deal). Its equity is its average share of the pot against the live
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
from numbers import Real

import numpy as np

from razz_env.agents.base import BaseAgent, Declaration, Observation
from razz_env.agents.registry import register
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, FOLD
from razz_env.engine import hand_value
from razz_env.engine.cards import DECK_SIZE
from razz_env.engine.variants import SEVEN_CARD_GAMES, get_variant
from razz_env.engine.view import SeatView

HAND_SIZE = 7
MAX_SAMPLES = 1_000_000  # deals per decision: more would only take memory and time


BATCH_EVALUATORS = {
    "razz": hand_value.razz_low_batch,
    "action_razz": hand_value.action_razz_batch,
    "high": hand_value.stud_high_batch,
    "eight": hand_value.eight_low_batch,
}


def _pot_share(scores: np.ndarray) -> np.ndarray:
    """Seat 0's share of one pot half per sample, ties split; ``scores[i, j]``: seat ``i`` in sample ``j``."""
    winners = scores == scores.max(axis=0)
    return winners[0] / winners.sum(axis=0)


@register("monte_carlo")
class MonteCarloAgent(BaseAgent):
    """Plays pot odds against a sampled equity; see the module docstring."""

    name = "monte_carlo"
    # it deals out seven cards from 52 and scores five-card showdowns
    declaration = Declaration(variants=SEVEN_CARD_GAMES, states_policy=True)

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

    def deals_generator(self, view: SeatView) -> np.random.Generator:
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

        A seat that has folded has no share: 0.
        """
        if view.folded[view.seat]:
            return 0.0
        opponents = view.live_opponents
        if not opponents:
            return 1.0
        seen = set(view.own_cards).union(*view.up_cards, view.dead_cards)
        unseen = np.array([c for c in range(DECK_SIZE) if c not in seen], dtype=np.int64)
        known = [list(view.own_down + view.own_up)] + [list(view.up_cards[s]) for s in opponents]
        held = [len(view.own_down + view.own_up)] + [2 + len(view.up_cards[s]) for s in opponents]
        future = sum(HAND_SIZE - h for h in held) if view.street < 7 else 0
        dealt = sum(2 + len(up) for up in view.up_cards)
        shared = int(view.community is None and future > DECK_SIZE - dealt)  # 7th street will be a community card
        slots = HAND_SIZE - (view.community is not None) - shared
        needs = [slots - len(cards) for cards in known]
        total = sum(needs) + shared
        per_deck = len(unseen) // total  # several deals from each shuffled deck: a fraction of the shuffling
        decks = -(-self.samples // per_deck)
        order = np.argsort(self.deals_generator(view).random((decks, len(unseen))), axis=1)[:, :per_deck * total]
        drawn = unseen[order].reshape(decks * per_deck, total)[:self.samples]
        hands = np.empty((len(known), self.samples, HAND_SIZE), dtype=np.int64)
        if view.community is not None:
            hands[:, :, -1] = view.community
        elif shared:
            hands[:, :, -1] = drawn[:, -1]
        start = 0
        for seat_hand, cards, need in zip(hands, known, needs):
            seat_hand[:, :len(cards)] = cards
            seat_hand[:, len(cards):len(cards) + need] = drawn[:, start:start + need]
            start += need
        flat = hands.reshape(-1, HAND_SIZE)
        values = {
            half: BATCH_EVALUATORS[half](flat).reshape(len(known), self.samples)
            for half in get_variant(view.variant).showdown
        }
        if "eight" not in values:
            (scores,) = values.values()
            return float(_pot_share(scores).mean())
        high, low = _pot_share(values["high"]), _pot_share(values["eight"])
        low_played = values["eight"].max(axis=0) > 0
        return float(np.where(low_played, (high + low) / 2, high).mean())

    def act(self, observation: Observation) -> int:
        """Bet for value above a fair share, call on (implied) pot odds, else check or fold."""
        view = observation.view
        equity = self.equity(view)
        fair = 1 / (1 + len(view.live_opponents))
        if equity > fair + self.margin:
            return self.first_legal(observation, (BET_RAISE, CHECK_CALL, BRING_IN))
        to_call = view.to_call
        if to_call == 0:
            return self.first_legal(observation, (CHECK_CALL, BRING_IN))
        discount = 1 - self.implied_odds if view.street < 7 else 1.0
        if equity >= to_call / (view.pot + to_call) * discount:
            return self.first_legal(observation, (CHECK_CALL, BRING_IN))
        return self.first_legal(observation, (FOLD, CHECK_CALL, BRING_IN))

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The one-hot of :meth:`act`, which is a function of the observation (see the module docstring)."""
        return self.one_hot(observation, self.act(observation))

"""A hand-crafted seven-card stud high-low (eight or better) player: two-way starts, scoops, qualifiers.

It plays the way a solid limit stud/8 player describes the game: the low half needs five unpaired cards eight or
lower (the qualifier), so hands that can go both ways are worth the most and a high hand alone wants to shut
out the low draws.

* **3rd street**: rolled-up trips, three unpaired cards to a 5-low (or to a 6-low with an ace) and a pair of
  aces are premium: complete, and raise a completion. Three unpaired low cards to a 7 (to an 8 when the pot is
  not yet raised), a low pair with a low third card, a high pair bigger than every live door card, and three to
  a flush with two low cards play: complete when nobody has, else call one bet. A completion from a high door
  card (likely a steal) is defended with any three low cards or any pair. The rest folds to a bet.
* **4th to 7th**: my low is compared with each live opponent's board read as a low with good hole cards
  assumed (:data:`~razz_env.agents.handread.GOOD_HOLES`), my high with the best live board. A made low that
  leads every low-looking board, or a two-pair-or-better high hand that beats every board, bets and raises (up
  to the third bet), and so does a made low with the high lead (a scoop). A pair that beats every board, or a
  made low, bets when checked to and calls. With nothing made, a draw calls on 4th to 6th: four low cards with
  at least :attr:`Stud8Heuristic.DRAW_OUTS` live low cards, or four to a flush; on 4th any pair or three low
  cards call one bet. On 7th a high hand that beats every board calls, and so does a pair when the pot lays 8 to
  1. The rest folds to a bet and checks.

The plan is written once, as array code over the rows of an
:class:`~razz_env.encoding.interface.ObservationBatch` (``act`` decides its one observation as a batch of one),
so the batched and the scalar decisions are the same by construction. It is deterministic: its policy
(``action_probabilities``) is one-hot.

>>> from razz_env.evaluate.api import match
>>> match("stud8_heuristic", "calling_station", deals=40, seed=1, table={"variant": "stud8"}).bb_per_100 > 0
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from razz_env.agents.base import BaseAgent, Declaration, Observation, ObservationBatch
from razz_env.agents.handread import (
    GOOD_HOLES,
    LOW_LIMIT,
    NO_RANK,
    assumed_hole_ranks_batch,
    flush_draw_batch,
    high_key,
    high_strength_batch,
    live_low_cards_batch,
    low_key_batch,
    low_key_missing,
    low_ranks_batch,
)
from razz_env.agents.razz_heuristic import last_aggressor
from razz_env.agents.registry import register
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, NUM_ACTIONS
from razz_env.engine.seat_views import SeatViews

PAIR, TWO_PAIR, TRIPS = 1, 2, 3  # high_strength categories


def eight_or_better(ranks: np.ndarray) -> np.ndarray:
    """Low ``ranks`` (ace 1) with every card above eight set to ``NO_RANK``: what can count toward the low half.

    >>> eight_or_better(np.array([[1, 9, 8, 13]])).tolist()
    [[1, 0, 8, 0]]
    """
    return np.where(ranks <= LOW_LIMIT, ranks, NO_RANK)


def low_start(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's distinct ranks eight or lower: how many, and the highest of the lowest three (0 for none), which
    rates a three-card low start.

    >>> count, third = low_start(np.array([[1, 4, 3, 12], [2, 2, 9, 0]]))
    >>> count.tolist(), third.tolist()
    ([3, 1], [4, 2])
    """
    held = np.zeros((len(ranks), LOW_LIMIT + 1), dtype=bool)
    rows = np.repeat(np.arange(len(ranks)), ranks.shape[1])
    held[rows, eight_or_better(ranks).ravel()] = True
    held = held[:, 1:]
    lowest = held & (np.cumsum(held, axis=1) <= 3)
    return held.sum(axis=1), np.where(lowest.any(axis=1), LOW_LIMIT - np.argmax(lowest[:, ::-1], axis=1), 0)


@register("stud8_heuristic")
class Stud8Heuristic(BaseAgent):
    """Hand-crafted seven-card stud high-low player; see the module docstring for the plan."""

    name = "stud8_heuristic"
    declaration = Declaration(variants=("stud8",), states_policy=True, acts_in_batch=True)
    PREMIUM_LOW = 5  # three unpaired low cards to a 5 (to a 6 with an ace) are premium
    PLAYABLE_LOW = 7  # ... to a 7 play against a raise, to an 8 unraised
    DRAW_OUTS = 8  # live low cards to call with a four-card low draw
    LONG_ODDS = 8  # pot odds for a pair to call on 7th

    def act(self, observation: Observation) -> int:
        """The id this plan picks for the seat's turn (the plan's batch of one)."""
        return int(self._decide(ObservationBatch.of([observation]))[0])

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """One-hot on :meth:`act`'s id."""
        return self.one_hot(observation, self.act(observation))

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """:meth:`act` at every observation."""
        return self._decide(ObservationBatch.of(observations)).tolist()

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """:meth:`action_probabilities` at every observation, shape (N, 5)."""
        batch = ObservationBatch.of(observations)
        if not len(batch):
            return np.zeros((0, NUM_ACTIONS), dtype=np.float64)
        return self.one_hot_batch(batch.masks, self._decide(batch))

    def _decide(self, batch: ObservationBatch) -> np.ndarray:
        """Every row's id."""
        ids = np.zeros(len(batch), dtype=np.int64)
        if not len(batch):
            return ids
        views = batch.views
        if views is None:
            raise AttributeError("stud8_heuristic reads the view: this batch carries none")
        third = views.street == 3
        for rows, decide in ((np.flatnonzero(third), self._third), (np.flatnonzero(~third), self._later)):
            if len(rows):
                ids[rows] = decide(views.take(rows), batch.masks[rows])
        return ids

    def _third(self, views: SeatViews, masks: np.ndarray) -> np.ndarray:
        """3rd street: the start's class, the door cards behind it and how far the pot is raised."""
        rows = np.arange(len(views))
        aggress = self.first_legal_batch(masks, (BET_RAISE, CHECK_CALL, BRING_IN))
        passive, give_up = self.passive_batch(masks), self.give_up_batch(masks, views.to_call)
        cards = views.own_cards
        ranks = low_ranks_batch(cards)
        category, pair_rank = high_strength_batch(cards)
        low_count, third_low = low_start(ranks)
        has_ace = (ranks == 1).any(axis=1)
        three_low = low_count == 3
        premium = ((category == TRIPS) | (three_low & ((third_low <= self.PREMIUM_LOW)
                                                       | (has_ace & (third_low <= self.PREMIUM_LOW + 1))))
                   | ((category == PAIR) & (pair_rank == 14)))
        doors = views.up_cards[:, :, 0]
        door_high = np.where(doors >= 0, ((doors >> 2) - 1) % 13 + 2, 0)  # high ranks, deuce 2 ... ace 14
        live = views.live_opponents
        biggest_door = np.where(live, door_high, 0).max(axis=1)
        low_pair = (category == PAIR) & (pair_rank <= LOW_LIMIT) & (low_count >= 2)
        big_pair = (category == PAIR) & (pair_rank > LOW_LIMIT) & (pair_rank > biggest_door)
        flush_low = (flush_draw_batch(cards) == 3) & (low_count >= 2)
        raised = views.bet_count >= 2
        playable = (premium | (three_low & (third_low <= np.where(raised, self.PLAYABLE_LOW, LOW_LIMIT)))
                    | low_pair | big_pair | flush_low)
        doors_low = low_ranks_batch(doors)
        raiser = last_aggressor(views)
        stealing = (raiser >= 0) & (doors_low[rows, np.maximum(raiser, 0)] > LOW_LIMIT)
        defends = playable | (stealing & (three_low | (category == PAIR)))
        opening = np.where(playable, aggress, give_up)
        facing = np.select([premium & (views.bet_count < 3), defends], [aggress, passive], give_up)
        bring_in = np.where(premium, aggress, BRING_IN)
        return np.select([masks[:, BRING_IN] != 0, views.bet_count == 0], [bring_in, opening], facing)

    def _later(self, views: SeatViews, masks: np.ndarray) -> np.ndarray:
        """4th to 7th: my low against each live low-looking board, my high against the best live board."""
        aggress = self.first_legal_batch(masks, (BET_RAISE, CHECK_CALL, BRING_IN))
        passive, give_up = self.passive_batch(masks), self.give_up_batch(masks, views.to_call)
        cards = views.own_cards
        mine = eight_or_better(low_ranks_batch(cards))
        my_low = low_key_batch(mine)
        low_made = low_key_missing(my_low) == 0
        category, rank = high_strength_batch(cards)
        my_high = high_key(category, rank)
        final = views.street == 7
        hidden = np.where(final & (views.community < 0), 3, 2)
        seats = views.num_seats  # every seat's board at once: one row a (decision, seat)
        up = views.up_cards.reshape(len(views) * seats, -1)
        board = eight_or_better(low_ranks_batch(np.concatenate([up, np.repeat(views.community, seats)[:, None]],
                                                               axis=1)))
        assumed = assumed_hole_ranks_batch(board, np.repeat(hidden, seats), GOOD_HOLES)
        their_low = low_key_batch(np.concatenate([board, assumed], axis=1)).reshape(len(views), seats)
        their_high = high_key(*high_strength_batch(up)).reshape(len(views), seats)
        live = views.live_opponents
        low_ahead = low_made & (~live | (my_low[:, None] < their_low)).all(axis=1)
        high_ahead = (category >= PAIR) & (~live | (my_high[:, None] > their_high)).all(axis=1)
        seen = np.concatenate([views.own_down, views.up_cards.reshape(len(views), -1), views.community[:, None]],
                              axis=1)
        outs = live_low_cards_batch(mine, seen)
        low_draw = (low_key_missing(my_low) == 1) & (outs >= self.DRAW_OUTS) & ~final
        flush_draw = (flush_draw_batch(cards) == 4) & ~final
        strong = low_ahead | (high_ahead & (category >= TWO_PAIR)) | (low_made & high_ahead)
        made = low_made | high_ahead
        to_call = views.to_call
        pot_odds = np.divide(views.pot, to_call, out=np.zeros(len(views)), where=to_call > 0)
        fourth = views.street == 4
        calls = (made | low_draw | flush_draw | (fourth & ((category >= PAIR) | (low_key_missing(my_low) <= 2)))
                 | (final & (category >= PAIR) & (pot_odds >= self.LONG_ODDS)))
        checked_to = np.where(strong | made, aggress, passive)
        facing = np.select([strong & (views.bet_count < 3), calls], [aggress, passive], give_up)
        return np.where(to_call == 0, checked_to, facing)

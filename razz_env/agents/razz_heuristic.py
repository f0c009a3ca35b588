"""A hand-crafted razz player: starting-hand selection, board reading, live cards, street thresholds.

It plays the way a solid limit razz player describes the game:

* **3rd street**: rate the three cards (unpaired and low is everything: an 8-low start is
  playable, 7-low completes, 5-low re-raises), a little better when cards that pair mine
  show on other boards and a little worse when the low cards I need are already out;
  better still with the lowest door card (I will often act last) and heads-up (the antes
  are worth fighting for). A low door card with only higher door cards behind it
  completes to steal the antes; against a completion from a high door card (a likely
  steal) it defends wider.
* **4th to 7th**: read every live opponent as their board plus hole cards assumed good
  (:data:`~razz_env.agents.handread.GOOD_HOLES`) and, separately, assumed mediocre
  (:data:`~razz_env.agents.handread.WEAK_HOLES`). Ahead of every "good" read: bet and raise (up to
  the third bet). Not behind any "mediocre" read: bet, raise once, call. Behind a mediocre
  read: on 4th call only with a draw at most two cards short and enough live low cards;
  on the big-bet streets fold, unless the pot lays 3 to 1 and the opponent's board alone
  (hole cards bricks) does not beat me. With the best-looking board but no edge, and
  nothing to call, it bets anyway with probability ``bluff`` (one draw from its generator,
  seeded by ``seed``), else checks.
* **Action Razz**: one J, Q or K among my cards is set aside as the qualifier; a start
  without one is rated lower, a hand without one counts a card short, and on 7th any hand
  showing a face beats mine if I have none (:func:`~razz_env.agents.handread.low_key`).
* **Stud and stud8**: a simple fallback, not the point of this agent: play pairs, three
  to a flush (and, in stud8, three low cards); later bet when my hand beats every visible
  board, call with a pair or a four-card draw (a four-card eight-low in stud8), fold the rest
  to bets on the big-bet streets.

Its policy (``action_probabilities``) is therefore one-hot everywhere except at a bluff spot,
where it is ``bluff`` on the bet and ``1 - bluff`` on the check: exactly the distribution
``act`` draws from.

It also acts in batch (``act_batch``, ``action_probabilities_batch``): the same plan as array code over
the rows of an :class:`~razz_env.encoding.interface.ObservationBatch`, decision for decision equal to
``act``; its generator is drawn once per bluff spot in row order, as ``act`` on the rows in order would.
A plain list of observations is decided one at a time (stacking its views would cost more).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from razz_env.agents.base import BaseAgent, Declaration, Observation, ObservationBatch
from razz_env.agents.handread import (
    BRICK,
    FACE_RANKS,
    GOOD_HOLES,
    LOW_LIMIT,
    NO_RANK,
    WEAK_HOLES,
    assumed_hole_ranks,
    assumed_hole_ranks_batch,
    flush_draw,
    flush_draw_batch,
    high_key,
    high_strength,
    high_strength_batch,
    live_low_cards,
    live_low_cards_batch,
    low_key,
    low_key_batch,
    low_key_missing,
    low_rank,
    low_ranks,
    low_ranks_batch,
    rank_counts,
)
from razz_env.agents.registry import register
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, NUM_ACTIONS
from razz_env.engine.actions import AGGRESSIVE
from razz_env.engine.checks import as_real
from razz_env.engine.seat_views import SeatViews
from razz_env.engine.variants import SEVEN_CARD_GAMES
from razz_env.engine.view import SeatView

LOW_VARIANTS = ("razz", "action_razz")


class Bluff(NamedTuple):
    """A mixed decision: ``bet`` with the agent's ``bluff`` probability, else ``check``."""

    bet: int
    check: int


def starting_quality(ranks: list[int], others_up: list[int], action: bool = False) -> float:
    """Rating of a three-card razz start, ``10 - highest card``, adjusted (higher is better).

    A pair costs 4 points. Each up card elsewhere that pairs one of my low cards adds 0.2
    (fewer cards left to pair me); each one that is a low rank I still need costs 0.25.
    In Action Razz a face card is set aside as the qualifier (the other two are rated, 1.5
    off as only two low cards are held) and a start without one costs a point.

    >>> starting_quality([1, 2, 3], []), starting_quality([8, 8, 2], []), starting_quality([13, 2, 3], [], True)
    (7.0, -2.0, 5.5)
    """
    pool = list(ranks)
    quality = 0.0
    if action:
        faces = [r for r in pool if r in FACE_RANKS]
        if faces:
            pool.remove(max(faces))
            quality -= 1.5
        else:
            quality -= 1.0
    distinct = set(pool)
    quality += 10 - max(distinct)
    if len(distinct) < len(pool):
        quality -= 4
    for rank in others_up:
        if rank in distinct:
            quality += 0.2 if rank <= LOW_LIMIT else 0.0
        elif rank <= LOW_LIMIT:
            quality -= 0.25
    return quality


def starting_quality_batch(ranks: np.ndarray, others_up: np.ndarray, action: bool = False) -> np.ndarray:
    """:func:`starting_quality` of every row: ``ranks`` and ``others_up`` (N, K) low ranks, ``NO_RANK`` for none.

    The adjustments are added one up card at a time in column order, as the scalar rating adds them, so the
    float64 ratings are equal to the bit (thresholds see the same values).
    """
    counts = rank_counts(ranks)
    rows = np.arange(len(counts))
    quality = np.zeros(len(counts), dtype=np.float64)
    if action:
        faces = counts[:, min(FACE_RANKS):] > 0
        has_face = faces.any(axis=1)
        counts[rows[has_face], (13 - np.argmax(faces[:, ::-1], axis=1))[has_face]] -= 1
        quality = np.where(has_face, quality - 1.5, quality - 1.0)
    present = counts > 0
    quality = quality + (10 - (13 - np.argmax(present[:, :0:-1], axis=1)))
    quality = np.where(present.sum(axis=1) < counts.sum(axis=1), quality - 4, quality)
    for rank in np.asarray(others_up, dtype=np.int64).T:
        low = (rank != NO_RANK) & (rank <= LOW_LIMIT)
        mine = present[rows, rank]
        quality = np.where(low & mine, quality + 0.2, np.where(low & ~mine, quality - 0.25, quality))
    return quality


def others_up_ranks(views: SeatViews) -> np.ndarray:
    """(N, S * up cards) the low ranks of every up card but the row seat's, seat by seat (``NO_RANK`` for none)."""
    up = low_ranks_batch(views.up_cards)
    others = np.arange(views.num_seats)[None, :] != views.seat[:, None]
    return np.where(others[:, :, None], up, NO_RANK).reshape(len(views), -1)


def last_aggressor(views: SeatViews) -> np.ndarray:
    """(N,) the seat that made the last bet, completion or raise before the row seat's turn, other than the row
    seat (``-1`` if none)."""
    history = views.history
    if history.shape[1] == 0:
        return np.full(len(views), -1, dtype=np.int64)
    made = np.arange(history.shape[1])[None, :] < views.history_length[:, None]
    aggressive = made & np.isin(history[:, :, 2], [int(a) for a in AGGRESSIVE]) & (
        history[:, :, 1] != views.seat[:, None])
    last = history.shape[1] - 1 - np.argmax(aggressive[:, ::-1], axis=1)
    return np.where(aggressive.any(axis=1), history[np.arange(len(views)), last, 1], -1)


@register("razz_heuristic")
class RazzHeuristic(BaseAgent):
    """Hand-crafted razz (and Action Razz) player; see the module docstring for the plan."""

    name = "razz_heuristic"
    # its card reading is seven-card stud's (5-card lows, 3rd to 7th street)
    declaration = Declaration(variants=SEVEN_CARD_GAMES, states_policy=True, acts_in_batch=True)
    PLAY = 2.0  # enter the pot: an unpaired 8-low start
    COMPLETE = 3.0  # complete (or raise the bring-in): a 7-low start
    RERAISE = 5.0  # raise a completion: a 5-low start
    DEFEND = 2.5  # call a completion
    STEAL = 0.5  # complete from the lowest door with a 9-low start or better
    STEAL_DOOR = 6  # ... when my door card is at most a six
    DOOR_EDGE = 1.0  # my door card is the lowest of the live ones: I act last on 4th more often
    LONG_ODDS = 3  # pot odds to call down when behind a mediocre read but not beaten by the board alone
    DRAW_OUTS = 8  # live low cards to call a 4th-street bet with a draw (at most two cards short)
    HEADS_UP = 2.5  # one opponent: the antes are worth more, hands are worth more

    def __init__(self, seed: int | None = None, bluff: float = 0.1, name: str | None = None) -> None:
        super().__init__(name)
        as_real("bluff", bluff, 0, 1, what="a probability")
        self.rng = random.Random(seed)
        self.bluff = float(bluff)

    def act(self, observation: Observation) -> int:
        """The id this hand-reading policy picks for the seat's turn (a draw at a bluff spot)."""
        decision = self._decide(observation)
        if isinstance(decision, Bluff):
            return decision.bet if self.rng.random() < self.bluff else decision.check
        return decision

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The distribution :meth:`act` draws from: one-hot, or ``bluff`` / ``1 - bluff`` at a bluff spot."""
        decision = self._decide(observation)
        if not isinstance(decision, Bluff):
            return self.one_hot(observation, decision)
        probabilities = np.zeros(NUM_ACTIONS, dtype=np.float64)
        probabilities[decision.bet] += self.bluff
        probabilities[decision.check] += 1.0 - self.bluff
        return probabilities

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """:meth:`act` at every observation: array code, one draw per bluff spot in row order (as in order)."""
        if self.decides_one_at_a_time(observations):
            return [self.act(o) for o in observations]
        ids, bets, bluffs = self._decide_batch(ObservationBatch.of(observations))
        rows = np.flatnonzero(bluffs)
        draws = np.array([self.rng.random() for _ in rows], dtype=np.float64)
        ids[rows] = np.where(draws < self.bluff, bets[rows], ids[rows])
        return ids.tolist()

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """:meth:`action_probabilities` at every observation, shape (N, 5)."""
        if self.decides_one_at_a_time(observations):
            return np.array([self.action_probabilities(o) for o in observations]).reshape(-1, NUM_ACTIONS)
        batch = ObservationBatch.of(observations)
        ids, bets, bluffs = self._decide_batch(batch)
        probabilities = np.zeros((len(ids), NUM_ACTIONS), dtype=np.float64)
        probabilities[~bluffs] = self.one_hot_batch(batch.masks[~bluffs], ids[~bluffs])
        rows = np.flatnonzero(bluffs)
        probabilities[rows, bets[rows]] += self.bluff
        probabilities[rows, ids[rows]] += 1.0 - self.bluff
        return probabilities

    def _decide(self, observation: Observation) -> int | Bluff:
        view = observation.view
        if view.variant in LOW_VARIANTS:
            if view.street == 3:
                return self._razz_third(observation, view)
            return self._razz_later(observation, view)
        return self._stud(observation, view)

    def _decide_batch(self, batch: ObservationBatch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every row's id (the check at a bluff spot), the bet of each bluff spot and which rows are bluff spots."""
        ids = np.zeros(len(batch), dtype=np.int64)
        bets, bluffs = ids.copy(), np.zeros(len(batch), dtype=bool)
        if not len(batch):
            return ids, bets, bluffs
        views = batch.views
        if views is None:
            raise AttributeError("razz_heuristic reads the view: this batch carries none")
        if views.variant not in LOW_VARIANTS:
            return self._stud_batch(views, batch.masks), bets, bluffs
        third = views.street == 3
        for rows, decide in ((np.flatnonzero(third), self._razz_third_batch),
                             (np.flatnonzero(~third), self._razz_later_batch)):
            if len(rows):
                ids[rows], bets[rows], bluffs[rows] = decide(views.take(rows), batch.masks[rows])
        return ids, bets, bluffs

    # ------------------------------------------------------------------ intents

    def _aggress(self, observation: Observation) -> int:
        return self.first_legal(observation, (BET_RAISE, CHECK_CALL, BRING_IN))

    # ------------------------------------------------------------------ razz

    def _razz_third(self, observation: Observation, view: SeatView) -> int:
        action = view.variant == "action_razz"
        mine = low_ranks(view.own_cards)
        others_up = [low_rank(c) for s, up in enumerate(view.up_cards) if s != view.seat for c in up]
        quality = starting_quality(mine, others_up, action)
        if observation.action_mask[BRING_IN]:
            return self._aggress(observation) if quality >= self.COMPLETE else BRING_IN
        my_door = low_rank(view.own_up[0])
        opponents = view.live_opponents
        lowest_door = all(low_rank(view.up_cards[s][0]) > my_door for s in opponents)
        if lowest_door:
            quality += self.DOOR_EDGE
        if len(opponents) == 1:
            quality += self.HEADS_UP
        if view.bet_count == 0:
            steal = lowest_door and my_door <= self.STEAL_DOOR
            if quality >= self.COMPLETE or (steal and quality >= self.STEAL):
                return self._aggress(observation)
            if quality >= self.PLAY:
                return self.passive(observation)
            return self.give_up(observation, view.to_call)
        if quality >= self.RERAISE and view.bet_count < 3:
            return self._aggress(observation)
        need = self.DEFEND
        raiser = next((e.seat for e in reversed(view.history) if e.action in AGGRESSIVE and e.seat != view.seat), None)
        if raiser is not None and low_rank(view.up_cards[raiser][0]) > LOW_LIMIT:
            need -= 1.0  # a completion from a high door card is often a steal
        if view.bets[view.seat] > 0:
            need -= 0.5  # already have chips in (the bring-in)
        if quality >= need:
            return self.passive(observation)
        return self.give_up(observation, view.to_call)

    def _razz_later(self, observation: Observation, view: SeatView) -> int | Bluff:
        action = view.variant == "action_razz"
        final = view.street == 7
        mine = low_ranks(view.own_cards)
        mine_key = low_key(mine, action, final)
        community = [low_rank(view.community)] if view.community is not None else []
        hidden = 3 if final and not community else 2
        ahead, behind, clearly_behind, board_best = True, False, False, True
        my_board = low_key(low_ranks(view.own_up), action)
        for seat in view.live_opponents:
            board = low_ranks(view.up_cards[seat]) + community
            if not mine_key < low_key(board + assumed_hole_ranks(board, hidden, GOOD_HOLES), action, final):
                ahead = False
                if low_key(board + assumed_hole_ranks(board, hidden, WEAK_HOLES), action, final) < mine_key:
                    behind = True
                    clearly_behind = clearly_behind or low_key(board + [BRICK] * hidden, action, final) < mine_key
            if not my_board < low_key(low_ranks(view.up_cards[seat]), action):
                board_best = False
        if view.to_call == 0:
            if not behind:
                return self._aggress(observation)
            if board_best:
                return Bluff(self._aggress(observation), self.passive(observation))
            return self.passive(observation)
        if not behind:  # an edge raises up to the third bet, a slim one up to the second
            raises = view.bet_count < (3 if ahead else 2)
            return self._aggress(observation) if raises else self.passive(observation)
        missing = mine_key[1]
        seen = set(view.own_cards).union(*view.up_cards, view.dead_cards)
        outs = live_low_cards(mine, seen)
        if view.street == 4:
            calls = missing <= 2 and outs >= self.DRAW_OUTS
        else:
            calls = not clearly_behind and view.pot >= self.LONG_ODDS * view.to_call
        return self.passive(observation) if calls else self.give_up(observation, view.to_call)

    def _razz_third_batch(self, views: SeatViews, masks: np.ndarray) -> tuple[np.ndarray, ...]:
        """:meth:`_razz_third` of every row (no bluff spots on 3rd street)."""
        rows = np.arange(len(views))
        aggress = self.first_legal_batch(masks, (BET_RAISE, CHECK_CALL, BRING_IN))
        passive, give_up = self.passive_batch(masks), self.give_up_batch(masks, views.to_call)
        rated = starting_quality_batch(low_ranks_batch(views.own_cards), others_up_ranks(views),
                                       views.variant == "action_razz")
        doors = low_ranks_batch(views.up_cards[:, :, 0])
        my_door = doors[rows, views.seat]
        live = views.live_opponents
        lowest_door = (~live | (doors > my_door[:, None])).all(axis=1)
        quality = np.where(lowest_door, rated + self.DOOR_EDGE, rated)
        quality = np.where(live.sum(axis=1) == 1, quality + self.HEADS_UP, quality)
        steal = lowest_door & (my_door <= self.STEAL_DOOR)
        opening = np.select([(quality >= self.COMPLETE) | (steal & (quality >= self.STEAL)), quality >= self.PLAY],
                            [aggress, passive], give_up)
        raiser = last_aggressor(views)
        stealing = (raiser >= 0) & (doors[rows, raiser] > LOW_LIMIT)
        need = np.where(stealing, self.DEFEND - 1.0, self.DEFEND)
        need = np.where(views.bets[rows, views.seat] > 0, need - 0.5, need)
        facing = np.select([(quality >= self.RERAISE) & (views.bet_count < 3), quality >= need], [aggress, passive],
                           give_up)
        bring_in = np.where(rated >= self.COMPLETE, aggress, BRING_IN)
        ids = np.select([masks[:, BRING_IN] != 0, views.bet_count == 0], [bring_in, opening], facing)
        return ids, np.zeros_like(ids), np.zeros(len(ids), dtype=bool)

    def _razz_later_batch(self, views: SeatViews, masks: np.ndarray) -> tuple[np.ndarray, ...]:
        """:meth:`_razz_later` of every row: ids (the check at a bluff spot), the bluff bets and the bluff spots."""
        action = views.variant == "action_razz"
        final = views.street == 7
        aggress = self.first_legal_batch(masks, (BET_RAISE, CHECK_CALL, BRING_IN))
        passive, give_up = self.passive_batch(masks), self.give_up_batch(masks, views.to_call)
        own = views.own_cards
        mine = low_ranks_batch(own)
        mine_key = low_key_batch(mine, action, final)
        community = low_ranks_batch(views.community[:, None])
        hidden = np.where(final & (views.community < 0), 3, 2)
        bricks = np.where(np.arange(3) < hidden[:, None], BRICK, NO_RANK)
        my_board = low_key_batch(low_ranks_batch(views.own_up), action)
        up = low_ranks_batch(views.up_cards)
        live = views.live_opponents
        ahead, board_best = np.ones(len(views), dtype=bool), np.ones(len(views), dtype=bool)
        behind, clearly_behind = np.zeros(len(views), dtype=bool), np.zeros(len(views), dtype=bool)
        for seat in range(views.num_seats):
            board = np.concatenate([up[:, seat], community], axis=1)
            good = np.concatenate([board, assumed_hole_ranks_batch(board, hidden, GOOD_HOLES)], axis=1)
            not_ahead = live[:, seat] & ~(mine_key < low_key_batch(good, action, final))
            ahead &= ~not_ahead
            weak = np.concatenate([board, assumed_hole_ranks_batch(board, hidden, WEAK_HOLES)], axis=1)
            seat_behind = not_ahead & (low_key_batch(weak, action, final) < mine_key)
            behind |= seat_behind
            bricked = low_key_batch(np.concatenate([board, bricks], axis=1), action, final)
            clearly_behind |= seat_behind & (bricked < mine_key)
            board_best &= ~(live[:, seat] & ~(my_board < low_key_batch(up[:, seat], action)))
        to_call = views.to_call
        checked_to = np.where(behind, passive, aggress)
        raises = views.bet_count < np.where(ahead, 3, 2)
        seen = np.concatenate([views.own_down, views.up_cards.reshape(len(views), -1), views.community[:, None]],
                              axis=1)
        outs = live_low_cards_batch(mine, seen)
        calls = np.where(views.street == 4, (low_key_missing(mine_key) <= 2) & (outs >= self.DRAW_OUTS),
                         ~clearly_behind & (views.pot >= self.LONG_ODDS * to_call))
        ids = np.select([to_call == 0, ~behind, calls], [checked_to, np.where(raises, aggress, passive), passive],
                        give_up)
        return ids, aggress, (to_call == 0) & behind & board_best

    # ------------------------------------------------------------------ stud fallback

    def _stud_batch(self, views: SeatViews, masks: np.ndarray) -> np.ndarray:
        """:meth:`_stud` of every row."""
        aggress = self.first_legal_batch(masks, (BET_RAISE, CHECK_CALL, BRING_IN))
        passive, give_up = self.passive_batch(masks), self.give_up_batch(masks, views.to_call)
        cards = views.own_cards
        category, rank = high_strength_batch(cards)
        strength = high_key(category, rank)
        live = views.live_opponents
        best_board = np.full(len(views), -1, dtype=np.int64)
        for seat in range(views.num_seats):
            board = high_key(*high_strength_batch(views.up_cards[:, seat]))
            best_board = np.where(live[:, seat], np.maximum(best_board, board), best_board)
        lows = rank_counts(low_ranks_batch(cards))[:, 1:LOW_LIMIT + 1] > 0
        low_count = lows.sum(axis=1)
        highest_low = LOW_LIMIT - np.argmax(lows[:, ::-1], axis=1)
        eight = views.variant == "stud8"
        street, to_call, bet_count = views.street, views.to_call, views.bet_count
        low_made = eight & (low_count >= 5)
        low_draw = eight & (low_count >= np.minimum((cards >= 0).sum(axis=1), 4)) & (street < 7)
        flush = flush_draw_batch(cards)
        playable = (category >= 1) | (flush == 3) | (eight & (low_count == 3))
        strong = (strength >= high_key(1, 10)) | (eight & (low_count == 3) & (highest_low <= 5))
        third = np.select([masks[:, BRING_IN] != 0, strong & (bet_count < 2), playable],
                          [np.where(strong, aggress, BRING_IN), aggress, passive], give_up)
        ahead = (category >= 1) & (strength > best_board)
        drawing = (street < 7) & ((flush >= 4) | low_draw)
        pot_odds = np.divide(views.pot, to_call, out=np.zeros(len(views)), where=to_call > 0)
        calls = ahead | drawing | low_made | ((category >= 1) & ((street == 4) | (pot_odds >= 8)))
        later = np.select([to_call == 0, ahead & (category >= 2) & (bet_count < 3), calls],
                          [np.where(ahead | low_made, aggress, passive), aggress, passive], give_up)
        return np.where(street == 3, third, later)

    def _stud(self, observation: Observation, view: SeatView) -> int:
        cards = view.own_cards
        strength = high_strength(cards)
        best_board = max(high_strength(view.up_cards[s]) for s in view.live_opponents)
        lows = sorted({r for r in low_ranks(cards) if r <= LOW_LIMIT})
        eight = view.variant == "stud8"
        low_made = eight and len(lows) >= 5
        low_draw = eight and len(lows) >= min(len(cards), 4) and view.street < 7
        if view.street == 3:
            playable = strength[0] >= 1 or flush_draw(cards) == 3 or (eight and len(lows) == 3)
            strong = strength >= (1, 10) or (eight and len(lows) == 3 and lows[-1] <= 5)
            if observation.action_mask[BRING_IN]:
                return self._aggress(observation) if strong else BRING_IN
            if strong and view.bet_count < 2:
                return self._aggress(observation)
            if playable:
                return self.passive(observation)
            return self.give_up(observation, view.to_call)
        ahead = strength[0] >= 1 and strength > best_board
        drawing = view.street < 7 and (flush_draw(cards) >= 4 or low_draw)
        if view.to_call == 0:
            return self._aggress(observation) if ahead or low_made else self.passive(observation)
        if ahead and strength[0] >= 2 and view.bet_count < 3:
            return self._aggress(observation)
        pot_odds = view.pot / view.to_call
        if ahead or drawing or low_made or (strength[0] >= 1 and (view.street == 4 or pot_odds >= 8)):
            return self.passive(observation)
        return self.give_up(observation, view.to_call)

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
"""

from __future__ import annotations

import random
from numbers import Real
from typing import NamedTuple

import numpy as np

from razz_env.agents.base import BaseAgent, Declaration, Observation
from razz_env.agents.handread import (
    BRICK,
    FACE_RANKS,
    GOOD_HOLES,
    LOW_LIMIT,
    WEAK_HOLES,
    assumed_hole_ranks,
    flush_draw,
    high_strength,
    live_low_cards,
    low_key,
    low_rank,
    low_ranks,
)
from razz_env.agents.registry import register
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL, NUM_ACTIONS
from razz_env.engine.actions import AGGRESSIVE
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


@register("razz_heuristic")
class RazzHeuristic(BaseAgent):
    """Hand-crafted razz (and Action Razz) player; see the module docstring for the plan."""

    name = "razz_heuristic"
    # its card reading is seven-card stud's (5-card lows, 3rd to 7th street)
    declaration = Declaration(variants=SEVEN_CARD_GAMES, states_policy=True)
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
        if isinstance(bluff, bool) or not isinstance(bluff, Real) or not 0 <= bluff <= 1:
            raise ValueError(f"bluff: a probability from 0 to 1, got {bluff!r}")
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

    def _decide(self, observation: Observation) -> int | Bluff:
        view = observation.view
        if view.variant in LOW_VARIANTS:
            if view.street == 3:
                return self._razz_third(observation, view)
            return self._razz_later(observation, view)
        return self._stud(observation, view)

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

    # ------------------------------------------------------------------ stud fallback

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

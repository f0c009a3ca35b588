"""``razz_v0``: seven-card stud (razz, action razz, stud, stud8) as a PettingZoo AEC environment.

One episode is one hand. Agents are ``player_0`` .. ``player_{n-1}`` (``player_i``
sits in seat ``i``; seats are numbered clockwise). The rules engine
(:class:`razz_env.engine.state.HandState`) plays the game; this module only
translates actions, observations and rewards.

Actions
-------
``Discrete(5)``; at any decision each id names at most one engine action:

===  ==============  ==============================================================
id   name            engine action
===  ==============  ==============================================================
0    ``fold``        fold (masked when there is nothing to call, unless ``allow_open_fold``)
1    ``check_call``  check, or call (an all-in call for less when short)
2    ``bet_raise``   complete (3rd street), bet or raise: always the fixed-limit size
3    ``bring_in``    post the bring-in (3rd street, the forced seat only)
4    ``bet_big``     stud/stud8 with an open pair on 4th street: open for the big bet
===  ==============  ==============================================================

Observations
------------
``observe(agent)`` returns ``{"observation": float32 vector, "action_mask": int8 (5,)}``.
The mask is exact: it is 1 exactly for the ids legal now for that agent, all zero
for an agent that is not to act and for every agent once the hand is over.
``observation_space(agent)`` and ``action_space(agent)`` return the same cached
objects on every call. The vector holds only what the agent may see (its own down
cards, every up card, dead cards, chips and the public betting), never another
seat's down cards, not even after showdown. Seats are relative to the observer:
position 0 is the agent itself, then clockwise. ``N`` = ``max_players`` (default
``num_players``; extra positions stay zero, so one network can serve several
table sizes); ``S`` = ``history_slots`` (default ``N + cap * (N - 1)``, at most
16; a longer betting round keeps its last ``S`` decisions and sets
``history_overflow``). Chips are divided by the big bet (the 5th-street bet).
``env.unwrapped.describe_observation()`` returns every slice by name. The default
``encoding="flat"`` for the default 2-player table (N = 2, S = 6):

====================  =============  =======  ======================================================================
piece                 shape          slice    description
====================  =============  =======  ======================================================================
``own_down``          52             0:52     own down cards, one-hot by card id (rank * 4 + suit)
``own_up``            52             52:104   own up cards, one-hot by card id (rank * 4 + suit)
``up_cards``          (N, 52)        104:208  every seat's up cards by relative seat (0 = observer, then clockwise;
                                              positions beyond the table are zero), one-hot by card id (rank * 4 +
                                              suit)
``dead_cards``        52             208:260  up cards of folded seats, one-hot by card id (rank * 4 + suit)
``community``         52             260:312  the community 7th-street card once dealt, one-hot by card id (rank * 4
                                              + suit)
``stacks``            N              312:314  chips behind per relative seat / big bet
``round_bets``        N              314:316  chips put in this betting round per relative seat / big bet
``contributed``       N              316:318  chips put in this hand (antes included) per relative seat / big bet
``pot``               1              318:319  all chips put in so far / big bet
``to_call``           1              319:320  chips the observer must add to call (at most its stack; 0 once over) /
                                              big bet
``bet_size``          1              320:321  this street's fixed bet and raise size / big bet
``street``            5              321:326  street one-hot, 3rd to 7th
``bet_count``         6              326:332  bets and raises this round, one-hot 0-4; the last bin is 5+
``live``              N              332:334  seat has not folded, by relative seat
``all_in``            N              334:336  seat is live with no chips behind, by relative seat
``bring_in``          N              336:338  the seat that was forced to bring in, relative one-hot
``to_act``            N              338:340  the seat to act, relative one-hot (all zero once the hand is over)
``big_bet_open``      1              340:341  stud open pair on 4th street: the first bet may be the big bet
``history``           (5, S, N + 9)  341:671  every decision by street (3rd-7th) and order: relative seat one-hot
                                              (N), action one-hot (fold, check, call, bring_in, complete, bet,
                                              bet_big, raise), chips put in / big bet; a street longer than S keeps
                                              its last S
``history_overflow``  5              671:676  street had more than S decisions (oldest not shown)
====================  =============  =======  ======================================================================

``encoding="ranks"`` (razz and action razz only) has the same pieces with 13 rank
counts (A to K, 0-4) in place of each 52-card one-hot: suits never matter at a
razz showdown.

Rewards
-------
0 until the hand ends; then each agent's net chips (won minus put in) divided by
the big bet, summing to zero. ``last()`` returns the reward accumulated since the
agent last acted (PettingZoo's ``_cumulative_rewards``); after the hand every
agent is terminated and is stepped once with ``None``, in seat order, and its
``last()`` observation shows the final table (stacks after the pots are paid).
The reward reaches every agent whoever's action ended the hand.

Illegal actions
---------------
``step`` with an id that is not legal (masked) raises ``ValueError`` naming the
agent, the action and the legal ids, and changes nothing. To end the hand with a
penalty instead, as PettingZoo's board games do, wrap the raw environment::

    from pettingzoo.utils.wrappers import TerminateIllegalWrapper
    env = TerminateIllegalWrapper(raw_env(), illegal_reward=-1)

Wrappers
--------
``env()`` wraps ``raw_env()`` in PettingZoo's ``OrderEnforcingWrapper`` (a subclass,
:class:`LeanOrderEnforcingWrapper`, whose ``last()`` asks the raw environment in one
call instead of five trips through the wrapper's ``__getattr__``; same checks, same
results): it refuses ``step``/``observe``/``last`` before ``reset``. PettingZoo's
classic games also add ``AssertOutOfBoundsWrapper``; it is left out because
``raw_env`` already refuses every id outside the mask with a ``ValueError``, and
each wrapper layer taxes every attribute access (``benchmarks/bench_env.py``
measures both). Use ``raw_env()`` for the fastest loop.

Options (keyword arguments, kept across ``reset``)
--------------------------------------------------
``variant`` (``"razz"``, ``"action_razz"``, ``"stud"``, ``"stud8"``), ``num_players``
(2-8; default the length of ``starting_stacks`` or 2), ``ante`` (1), ``bring_in``
(2), ``small_bet`` (5), ``big_bet`` (10), ``street_bets`` (five sizes, 3rd to 7th
street, replacing small/big), ``starting_stacks`` (200, or one per seat; every
hand starts from them), ``raise_cap`` (4 bets and raises a round; ``None`` for no
cap), ``heads_up_uncapped`` (False), ``open_pair_big_bet`` (``None``: the variant's
default), ``allow_open_fold`` (False), ``encoding`` (``"flat"`` or ``"ranks"``),
``max_players``, ``history_slots``, ``render_mode`` (``"human"`` prints,
``"ansi"`` returns the table as text) and ``viewer`` (agent name or seat whose
down cards the render shows; default the agent to act).

``reset(seed=...)`` deals a new hand; the same seed deals the same cards, and
later unseeded resets continue that sequence (numpy integer seeds are accepted).
``reset(options=...)`` may give ``{"deck": [52 card ints]}`` or ``{"cards": [[7 card
ints] per seat]}`` to deal a chosen hand (cards from :func:`razz_env.engine.cards.parse_cards`).
Because the agents may play any line, explicit cards must list all seven cards of every
seat, in dealing order; at 8 seats, where who gets a 7th-street card depends on who
folds, give a deck. A short or long card list, a repeated card or a bad seed raise
``ConfigError`` naming the problem, and the environment is left as it was; other keys
are ignored with a warning (PettingZoo's API test passes one).

Example
-------
>>> import random
>>> import razz_env
>>> env = razz_env.env(variant="razz", num_players=3)
>>> env.reset(seed=42)
>>> chooser = random.Random(0)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = chooser.choice(observation["action_mask"].nonzero()[0].tolist())
...     env.step(action)
>>> env.agents
[]
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from razz_env.encoding import DEFAULT_ENCODING, make_encoder
from razz_env.encoding.actions import NUM_ACTIONS, ActionTable
from razz_env.engine.state import HandState
from razz_env.env.common import deal_options, reset_seed, table_config
from razz_env.text import render_hand

__all__ = ["env", "raw_env"]

NO_VIEWER = -1  # render_hand's viewer for a finished hand: only hands shown down are face up


def env(**kwargs: Any) -> AECEnv:
    """``raw_env(**kwargs)`` in PettingZoo's order enforcing wrapper (see "Wrappers" in the module docs)."""
    return LeanOrderEnforcingWrapper(raw_env(**kwargs))


class LeanOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with ``last()`` answered by the wrapped env in one call.

    The inherited ``last()`` reads five attributes through the wrapper's ``__getattr__``; the checks and
    the results are the same (before ``reset`` it raises the ``AttributeError`` the original raises).
    """

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, termination, truncation, info)`` of ``agent_selection``."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


class raw_env(AECEnv):
    """One hand of stud per episode; see the module docstring for spaces, rewards and options."""

    metadata = {"render_modes": ["human", "ansi"], "name": "razz_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        *,
        allow_open_fold: bool = False,
        encoding: str = DEFAULT_ENCODING,
        max_players: int | None = None,
        history_slots: int | None = None,
        render_mode: str | None = None,
        viewer: str | int | None = None,
        **table_options: Any,
    ) -> None:
        super().__init__()
        self.config = table_config(**table_options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self.encoder = make_encoder(encoding, self.config, max_players=max_players, history_slots=history_slots)
        self.actions = ActionTable(allow_open_fold)
        n = self.config.num_seats
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        if viewer is not None and viewer not in self._seats and viewer not in range(n):
            raise ValueError(f"viewer: expected None, an agent name or a seat 0-{n - 1}, got {viewer!r}")
        self.viewer = viewer
        self._big_bet = self.config.stakes.big_bet_size
        mask_space = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self._observation_spaces = {
            agent: spaces.Dict({"observation": self.encoder.observation_space, "action_mask": mask_space})
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self._rng = random.Random()
        self.hand: HandState | None = None

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        """The (cached) ``Dict(observation=Box float32, action_mask=Box int8 (5,))`` of ``agent``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The (cached) ``Discrete(5)`` of ``agent``."""
        return self._action_spaces[agent]

    def describe_observation(self) -> dict[str, tuple[slice, str]]:
        """Every named slice of ``observation["observation"]`` with its description."""
        return self.encoder.describe_observation()

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (``seed`` repeats a deal; ``options`` may fix the cards, see the module docs).

        Bad ``seed`` or ``options`` raise ``ConfigError`` naming them before anything changes.
        """
        seed = reset_seed(seed)
        deal = deal_options(options, self.config.num_seats)
        if seed is not None:
            self._rng = random.Random(seed)
        self.hand = HandState(self.config, **deal) if deal else HandState(self.config, rng=self._rng)
        agents = self.possible_agents[:]
        self.agents = agents
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {agent: {} for agent in agents}
        self.agent_selection = agents[self.hand.actor]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` for ``agent`` (fresh arrays; the mask is zero off-turn)."""
        hand = self.hand
        seat = self._seats[agent]
        if hand.actor == seat:
            mask = self.actions.mask(hand.legal_actions())
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self.encoder.encode(hand, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply ``action`` for ``agent_selection``; ``ValueError`` (state unchanged) if it is not legal."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        hand.act(self.actions.to_engine(agent, action, hand.legal_actions()))
        self._cumulative_rewards[agent] = 0.0
        if hand.is_over:
            rewards = self.rewards
            big_bet = self._big_bet
            for name, payoff in zip(self.possible_agents, hand.payoffs):
                rewards[name] = payoff / big_bet
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[hand.actor]
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ display

    def render(self) -> str | None:
        """The table as text (``"ansi"`` returns it, ``"human"`` prints it); only the viewer's down cards."""
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.hand is None:
            raise RuntimeError("render() before reset(): there is no hand to show")
        text = self._render_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _render_text(self) -> str:
        hand = self.hand
        viewer = self.viewer
        seat = hand.actor if viewer is None else self._seats.get(viewer, viewer)
        if seat is None:
            seat = NO_VIEWER
        names = ", ".join(f"seat {i} = {agent}" for i, agent in enumerate(self.possible_agents))
        watching = f"viewing as {self.possible_agents[seat]}" if seat >= 0 else "hand over"
        return f"{self.metadata['name']} ({names}; {watching})\n{render_hand(hand, viewer=seat)}"

    def close(self) -> None:
        """Nothing to release (text rendering only)."""

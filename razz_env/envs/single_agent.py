"""A Gymnasium view of one seat: the learner plays it, agents play every other seat.

``SingleAgentEnv(opponents=None, seat="random", **options)`` takes the same table
options as :mod:`razz_env.envs.razz_v0`; ``gymnasium.make("razz_env/Razz-v0", **options)``
builds it too (ids per variant: :mod:`razz_env.envs.registration`). Each episode is one hand. A step
applies the learner's action, then lets the opponents act (each called with a
:class:`razz_env.encoding.interface.Observation`) until the learner is to act again or the
hand ends. The reward is 0 until the hand ends and then the learner's net chips
divided by the big bet, however the hand ends: on the learner's action or on an
opponent's (a fold, or the call that closes the river).

* Observation: the encoder's float32 vector (``Box``), the same as the AEC
  environment's ``observation["observation"]``; ``info["action_mask"]`` and
  :meth:`SingleAgentEnv.action_masks` (for sb3-contrib ``MaskablePPO``) give the
  int8 mask, all zero once the hand is over; ``info["seat"]`` is the learner's seat.
* Action: ``Discrete(5)`` (see :mod:`razz_env.encoding.actions`); an illegal id
  raises ``ValueError`` naming the legal ids and changes nothing. For algorithms that
  cannot mask, ``illegal_action="check_fold"`` plays the passive action instead (check,
  else fold, else the bring-in; rlcard's convention) and reports the id it replaced in
  ``info["illegal_action"]``.
* ``action_space.sample()`` without a mask draws a legal id of the decision pending, so
  random-action checkers play real hands. It returns a :class:`~razz_env.envs.spaces.SampledAction`,
  an ``np.int64`` that remembers the decision it was drawn for (none once the hand is over or
  before the first ``reset``). Such an id stepped into a later decision, where it may be illegal
  (Gymnasium's ``check_env`` samples, resets, then steps), was drawn for no decision of this hand:
  if it is illegal now the passive action is played and ``info["illegal_action"]`` says so. Every
  other illegal id is the caller's and follows ``illegal_action``: the mask stays exact, and
  nothing illegal is ever played as itself.
* ``opponents``: one agent (it plays every other seat and its ``reset`` is called once per seat it takes) or a list,
  one per other seat, in clockwise order from the learner; an agent is an instance or anything ``make_agent`` takes
  (``"razz_heuristic"``, a ``{"type": ...}`` mapping, ``"module:Class"``, a model file), as in ``match`` and every
  config. By default (``None``) every other seat plays uniformly at random from the environment's seeded generator
  (:class:`SeededRandomOpponent`), so ``reset(seed=...)`` repeats whole hands, as Gymnasium's checks require.
  ``set_opponents(...)`` swaps them from the next hand on; ``opponent_sampler`` (a callable returning an agent or a
  list) is asked for new opponents before every hand, for self-play leagues (return built agents: a name is built
  anew each hand). An opponent whose declaration
  (:class:`~razz_env.encoding.interface.Declaration`) says it cannot play the table is refused.
* A failing opponent (its ``act`` or ``reset`` raises, or it answers with an id the
  mask forbids) aborts the hand: the error names it (``ValueError`` for an illegal id,
  ``RuntimeError`` chained to the agent's own exception otherwise), the hand stays as
  it was, and ``step`` refuses until ``reset()``: the learner never acts in its seat.
* ``seat``: the learner's seat, or ``"random"`` (drawn each hand from the
  environment's seeded generator among seats that can act).
* ``reset()`` always returns a state where the learner is to act. A hand that ends
  before the learner's first decision (only possible with short stacks or a table
  where the learner cannot act) is skipped and another is dealt; the count is in
  ``info["skipped_hands"]``. ``reset(seed=...)`` repeats the deal and seats (and so
  whole hands, when the opponents are deterministic: their own randomness is theirs);
  seeds are non-negative ints (numpy ints too). ``reset(options={"deck": [...]})`` or
  ``{"cards": [...]}`` fixes the deal as in the AEC environment (never skipped).
* The environment pickles (fresh, reset or mid-hand, with its opponents and generators):
  an unpickled copy continues exactly as the original would, its action space still
  sampling legal ids. A pickled or copied action space alone samples as a plain ``Discrete``.

>>> class Caller:
...     name, declaration = "caller", Declaration(observes=())
...     def reset(self, seat, num_seats, variant): pass
...     def act(self, observation): return int(observation.action_mask[1:].argmax()) + 1
>>> env = SingleAgentEnv(Caller(), seat=0)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].tolist()
((676,), [0, 0, 1, 1, 0])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from razz_env.encoding import DEFAULT_ENCODING, make_encoder
from razz_env.encoding.actions import NUM_ACTIONS, ActionTable
from razz_env.encoding.agent_specs import is_agent_spec, make_agent_from_spec
from razz_env.encoding.interface import Agent, Declaration, Observation, Observer, seating_problem
from razz_env.engine.actions import Action
from razz_env.engine.checks import as_index
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.engine.table import Table
from razz_env.engine.text import render_hand
from razz_env.envs.common import deal_options, env_table, reset_seed
from razz_env.envs.registration import register_envs
from razz_env.envs.spaces import LegalDiscrete, SampledAction

__all__ = ["SeededRandomOpponent", "SingleAgentEnv"]

MAX_SKIPPED_HANDS = 1000
MAX_CACHED_OBSERVERS = 64
ILLEGAL_ACTION_MODES = ("raise", "check_fold")
PASSIVE_ORDER = (Action.CHECK, Action.FOLD, Action.BRING_IN)
OpponentSpec = Agent | str | Mapping[str, Any] | Sequence[Agent | str | Mapping[str, Any]]

register_envs()  # the Gymnasium ids, in whatever order gymnasium and razz_env were imported


class SeededRandomOpponent:
    """The default opponent: uniform over the legal ids, drawn from the environment's own seeded generator.

    Sharing the generator that deals the cards makes ``reset(seed=...)`` repeat whole hands (a zoo
    ``random`` agent keeps a generator of its own, which the environment's seed does not reach).
    """

    name = "random"
    declaration = Declaration(observes=())

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Stateless."""

    def act(self, observation: Observation) -> int:
        """A uniformly random legal id."""
        return self.rng.choice(np.flatnonzero(observation.action_mask).tolist())



def opponents_per_seat(opponents: OpponentSpec, config: HandConfig) -> list[Agent]:
    """One agent per other seat of ``config``'s table, each an agent that accepts the table; ``ValueError`` naming
    the first that is not.

    ``opponents`` is one agent for every other seat or a list of one per other seat, each agent as
    :func:`~razz_env.agents.registry.make_agent` takes it (an instance, a name, a ``{"type": ...}`` mapping,
    ``"module:Class"``, a model file); one spec builds one agent that plays every other seat, and an agent built
    from a spec is seeded with its position in the list (0 for one spec), so a table of specs plays the same from
    one run to the next.
    """
    others = config.num_seats - 1
    if isinstance(opponents, Sequence) and not is_agent_spec(opponents):
        listed = list(opponents)
        if len(listed) != others:
            raise ValueError(f"opponents: expected one agent or a list of {others} (one per other seat), "
                             f"got a list of {len(listed)}")
    else:
        listed = [opponents]
    agents = []
    for position, spec in enumerate(listed):
        try:
            agent = make_agent_from_spec(spec, seed=position)
        except (ValueError, TypeError) as err:
            raise ValueError(f"opponents: {err}") from None
        if not callable(getattr(agent, "act", None)) or not callable(getattr(agent, "reset", None)):
            raise ValueError(f"opponents: {agent!r} is not an agent (an instance with act(observation) and "
                             "reset(...)), an agent's name, a {'type': name, ...} mapping, 'module:Class' or a "
                             "model file's path")
        problem = seating_problem(agent, config.variant.name, config.num_seats)
        if problem:
            raise ValueError(f"opponents: {problem}")
        agents.append(agent)
    return agents * others if len(listed) == 1 else agents


class SingleAgentEnv(gymnasium.Env):
    """One seat of a stud table as a Gymnasium environment; see the module docstring."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        opponents: OpponentSpec | None = None,
        seat: int | str = "random",
        *,
        opponent_sampler: Callable[[], OpponentSpec] | None = None,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        allow_open_fold: bool = False,
        encoding: str = DEFAULT_ENCODING,
        max_players: int | None = None,
        history_slots: int | None = None,
        table: Table | None = None,
        **table_options: Any,
    ) -> None:
        self.table = env_table(table, **table_options)
        self.config = self.table.hand_config()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action: expected one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        n = self.config.num_seats
        self._can_act = [s for s in range(n) if self.config.stacks[s] > self.config.stakes.ante]
        if seat != "random":
            number = -1 if isinstance(seat, (bool, str)) else as_index(seat)
            if not 0 <= number < n:
                raise ValueError(f"seat: expected 'random' or a seat from 0 to {n - 1}, got {seat!r}")
            seat = number
            if seat not in self._can_act:
                raise ValueError(f"seat: seat {seat} has no chips behind the ante, so it can never act")
        self.seat_option = seat
        self.encoder = make_encoder(encoding, self.config, max_players=max_players, history_slots=history_slots)
        self.actions = ActionTable(allow_open_fold)
        self.observation_space = self.encoder.observation_space
        self.action_space = LegalDiscrete(NUM_ACTIONS, self._pending_decision)
        self._big_bet = self.config.big_bet
        self._rng = random.Random()
        self.opponent_sampler = opponent_sampler
        self._opponents: list[Agent] = []
        if opponents is not None:
            self.set_opponents(opponents)
        elif opponent_sampler is None:
            self.set_opponents(SeededRandomOpponent(self._rng))
        self.hand: HandState | None = None
        self._decision = 0
        self.seat = 0
        self._seat_agents: list[Agent | None] = [None] * n
        self._seat_names = [""] * n
        self._seat_observers: list[Observer | None] = [None] * n
        self._observers: dict[int, tuple[Agent, Observer]] = {}
        self._aborted: str | None = None

    # ------------------------------------------------------------------ opponents

    def set_opponents(self, opponents: OpponentSpec) -> None:
        """Use ``opponents`` (one agent for every other seat, or one per seat) from the next hand on."""
        self._opponents = opponents_per_seat(opponents, self.config)

    # ------------------------------------------------------------------ episode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Deal until the learner is to act; return its observation and ``{"action_mask", "seat", ...}``.

        ``options`` may fix the deal as in the AEC environment (``{"deck": [...]}`` or ``{"cards": [...]}``);
        such a hand is never skipped: if it ends before the learner acts, ``reset`` raises. A bad ``seed`` or
        ``options`` raise ``ConfigError`` before anything changes.
        """
        seed = reset_seed(seed, 0)
        deal = deal_options(options, self.config)
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)  # in place: the default opponent draws from this generator too
        self._aborted = "reset() did not finish"  # until it does: step() must not continue the previous hand
        if self.opponent_sampler is not None:
            self._opponents = opponents_per_seat(self.opponent_sampler(), self.config)
        skipped = 0
        while True:
            self._deal(deal)
            self._run_opponents()
            if not self.hand.is_over:
                break
            if deal:
                raise RuntimeError(f"the chosen deal ended before seat {self.seat} could act; "
                                   "check the stacks and the cards")
            skipped += 1
            if skipped >= MAX_SKIPPED_HANDS:
                raise RuntimeError(f"{skipped} hands in a row ended before seat {self.seat} could act; "
                                   "check the stacks and the opponents")
        self._aborted = None
        self._decision += 1
        if self.render_mode == "human":
            self.render()
        info = {"action_mask": self.action_masks(), "seat": self.seat, "skipped_hands": skipped}
        return self.encoder.encode(self.hand, self.seat), info

    def _deal(self, deal: dict[str, Any]) -> None:
        """A new hand (``deal``: chosen cards, else from the seeded generator) with every other seat given its agent."""
        config = self.config
        n = config.num_seats
        option = self.seat_option
        seat = self._rng.choice(self._can_act) if option == "random" else option
        self.seat = seat
        self.hand = HandState(config, **deal) if deal else HandState(config, rng=self._rng)
        agents: list[Agent | None] = [None] * n
        names = [""] * n
        observers: list[Observer | None] = [None] * n
        for k, agent in enumerate(self._opponents, start=1):
            other = (seat + k) % n
            agents[other] = agent
            observers[other] = self._observer_for(agent)
            names[other] = f"opponent {agent.name!s} in seat {other}"
            try:
                agent.reset(other, n, config.variant.name)
            except Exception as err:
                self._aborted = f"{names[other]} failed in reset()"
                raise RuntimeError(f"{names[other]} raised {type(err).__name__} in reset(): {err}; "
                                   "the hand is aborted: call reset() to deal a new one") from err
        self._seat_agents = agents
        self._seat_names = names
        self._seat_observers = observers

    def _observer_for(self, agent: Agent) -> Observer:
        """The agent's observer (cached per agent object): only the parts of an observation it reads."""
        cached = self._observers.get(id(agent))
        if cached is None or cached[0] is not agent:
            if len(self._observers) >= MAX_CACHED_OBSERVERS:
                self._observers.clear()
            cached = (agent, Observer(agent, self.config, self.actions.allow_open_fold, self.encoder))
            self._observers[id(agent)] = cached
        return cached[1]

    def _play_opponents(self) -> None:
        """Let the opponents act until the learner is to act or the hand is over."""
        hand = self.hand
        learner = self.seat
        agents = self._seat_agents
        names = self._seat_names
        observers = self._seat_observers
        translate = self.actions.to_engine
        while not hand.is_over and hand.actor != learner:
            seat = hand.actor
            choice = agents[seat].act(observers[seat](hand, seat))
            hand.act(translate(names[seat], choice, hand.legal_actions()))

    def _run_opponents(self) -> None:
        """:meth:`_play_opponents`, aborting the hand if an opponent fails: ``step`` then refuses until ``reset``.

        An opponent that raises, or answers with an action the mask forbids, is named in the error; the
        hand stays where it was (the failed opponent to act), so the learner can never act in its seat.
        """
        try:
            self._play_opponents()
        except Exception as err:
            who = self._seat_names[self.hand.actor] if self.hand.actor is not None else "an opponent"
            self._aborted = f"{who} failed"
            if isinstance(err, ValueError) and str(err).startswith(f"{who}: "):
                raise ValueError(f"{err}; the hand is aborted: call reset() to deal a new one") from None
            raise RuntimeError(f"{who} raised {type(err).__name__}: {err}; "
                               "the hand is aborted: call reset() to deal a new one") from err
        except BaseException:
            self._aborted = "interrupted while the opponents were acting"
            raise

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Apply the learner's action, let the opponents answer; reward the net chips / big bet at the end."""
        hand = self.hand
        if self._aborted is not None:
            raise RuntimeError(f"step() after the hand was aborted ({self._aborted}): call reset() first")
        if hand is None or hand.is_over:
            raise RuntimeError("step() on a finished hand: call reset() first")
        played, replaced = self._learner_action(action, hand.legal_actions())
        hand.act(played)
        self._run_opponents()
        if self.render_mode == "human":
            self.render()
        observation = self.encoder.encode(hand, self.seat)
        if hand.is_over:
            reward = hand.payoffs[self.seat] / self._big_bet
            info = {"action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8), "seat": self.seat,
                    "payoffs": list(hand.payoffs)}
        else:
            self._decision += 1
            reward = 0.0
            info = {"action_mask": self.actions.mask(hand.legal_actions()), "seat": self.seat}
        if replaced:
            info["illegal_action"] = action
        return observation, reward, hand.is_over, False, info

    def _learner_action(self, action: object, legal: tuple[Action, ...]) -> tuple[Action, bool]:
        """The engine action for the learner's id, and whether the passive action replaced an illegal one.

        An illegal id raises, unless ``illegal_action="check_fold"`` or it is a :class:`SampledAction` drawn
        for another decision (see the module docs): then the passive action is played.
        """
        try:
            return self.actions.to_engine(f"learner in seat {self.seat}", action, legal), False
        except ValueError:
            stale = isinstance(action, SampledAction) and action.decision != self._decision
            if self.illegal_action == "raise" and not stale:
                raise
        return next(a for a in PASSIVE_ORDER if a in legal), True

    def _pending_decision(self) -> tuple[np.ndarray | None, int | None]:
        """The learner's mask and the number of its decision now, or ``(None, None)`` when none is pending."""
        hand = self.hand
        if hand is None or self._aborted is not None or hand.is_over or hand.actor != self.seat:
            return None, None
        return self.actions.mask(hand.legal_actions()), self._decision

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled: the action space samples for this copy's decisions again."""
        self.__dict__.update(state)
        self.action_space.attach(self._pending_decision)

    def action_masks(self) -> np.ndarray:
        """int8 mask over the five ids for the learner now (all zero once the hand is over)."""
        hand = self.hand
        if hand is None or hand.actor != self.seat:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return self.actions.mask(hand.legal_actions())

    def render(self) -> str | np.ndarray | None:
        """The table from the learner's seat: ``"ansi"`` returns the text, ``"human"`` prints it, ``"rgb_array"``
        returns a picture (:mod:`razz_env.envs.render`, an (H, W, 3) uint8 array)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.hand is None:
            raise RuntimeError("render() before reset(): there is no hand to show")
        if self.render_mode == "rgb_array":
            from razz_env.envs.render import render_rgb

            names = [agent.name if agent is not None else "learner"
                     for agent in self._seat_agents]
            return render_rgb(self.hand, self.seat, names)
        text = render_hand(self.hand, viewer=self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

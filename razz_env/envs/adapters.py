"""Any agent in another framework's loop: it acts on a PettingZoo observation dict or a Gymnasium observation.

Agents act on a :class:`razz_env.encoding.interface.Observation` (the seat, the mask, and the ``view`` and/or
``vector`` they read). :class:`AgentAdapter` builds one from what a framework hands out:

* **Given the environment it plays in** (``razz_env.env()``, ``raw_env()``, ``razz_v0``, wrapped or
  not, or the single-agent view, made by ``gymnasium.make`` or not), the adapter reads the seat's
  observation from the live hand with the agent's own :class:`~razz_env.encoding.interface.Observer`: every agent
  plays, those that read the table ``view`` (``razz_heuristic``, ``monte_carlo``) included, each
  vector in the agent's own encoding, and the agent's ``reset`` is called before each of its hands.
  The observation passed to :meth:`AgentAdapter.act` must be the seat's current one (its mask is
  compared).
* **Without it** (an observation that crossed a process boundary, as in Tianshou's or RLlib's
  workers) only the vector and the mask exist: ``Observation(seat, action_mask, view=None,
  vector=...)``. An agent that reads the view cannot act on that and is refused when the adapter is
  built (pass the environment instead). The table must be named (``variant``, ``num_seats``): the
  variants and seat counts of the agent's declaration are checked against it, and every vector's length
  against its declared encoding there. The adapter cannot see hands begin: it calls the agent's ``reset``
  when a seat first acts and again after :meth:`AgentAdapter.new_hand`.

Either way :meth:`AgentAdapter.act` returns a plain ``int`` and refuses (``ValueError`` naming the
agent) an id the mask forbids: nothing illegal reaches the environment.

>>> import razz_env
>>> from razz_env.encoding.interface import Declaration
>>> class Caller:
...     name, declaration = "caller", Declaration(observes=())  # reads only the mask
...     def reset(self, seat, num_seats, variant): pass
...     def act(self, observation): return 1 if observation.action_mask[1] else 3
>>> env = razz_env.env()
>>> env.reset(seed=0)
>>> player = AgentAdapter(Caller(), env)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     env.step(None if termination or truncation else player.act(observation, agent))
>>> bare = AgentAdapter(Caller(), variant="razz", num_seats=2)
>>> env.reset(seed=0)
>>> to_act = env.agent_selection
>>> to_act, bare.act(env.observe(to_act), to_act)  # the bring-in
('player_0', 3)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from razz_env.encoding import DEFAULT_ENCODING, make_encoder
from razz_env.encoding.actions import ACTION_NAMES, NUM_ACTIONS
from razz_env.encoding.interface import Observation, Observer, act_batch, declaration_of, seating_problem
from razz_env.engine.checks import as_int
from razz_env.engine.table import Table

__all__ = ["AgentAdapter"]

AGENT_NAME = re.compile(r"player_(\d+)")


class AgentAdapter:
    """Lets ``agent`` act on PettingZoo or Gymnasium observations; see the module docstring.

    ``env``: the environment the agent plays in (any wrapping), or ``None`` for bare observations,
    which then need ``variant`` and ``num_seats`` naming the table.
    """

    def __init__(self, agent: Any, env: Any = None, *, variant: str | None = None,
                 num_seats: int | None = None) -> None:
        if not callable(getattr(agent, "act", None)) or not callable(getattr(agent, "reset", None)):
            raise TypeError(f"agent: {agent!r} is not an Agent (needs act(observation) and reset(...))")
        declared = declaration_of(agent)
        self.agent = agent
        self.name = agent.name
        self.env = env
        self._base = None
        if env is not None:
            if variant is not None or num_seats is not None:
                raise ValueError("variant/num_seats: the environment sets the table; give one or the other")
            self._base = _razz_env_of(env)
            config = self._base.config
            self._observer = Observer(agent, config, self._base.actions.allow_open_fold, self._base.encoder)
        else:
            if variant is None or num_seats is None:
                raise ValueError("variant and num_seats: without the environment, name the table the "
                                 "observations come from (e.g. variant='razz', num_seats=2)")
            config = Table(variant, num_seats=num_seats).hand_config()
            if "view" in declared.observes:
                raise ValueError(f"agent {self.name!r} reads the table view (its observes: "
                                 f"{declared.observes}), which a bare observation vector does not carry; "
                                 "pass the environment it plays in (AgentAdapter(agent, env)) or use an agent "
                                 "that reads only the vector")
            encoding = declared.encoding or DEFAULT_ENCODING
            self._vector_size = make_encoder(encoding, config).observation_space.shape[0]
            self._encoding = encoding
        problem = seating_problem(agent, config.variant.name, config.num_seats)
        if problem is not None:
            raise ValueError(problem)
        self.variant = config.variant.name
        self.num_seats = config.num_seats
        self._hands: dict[int, object] = {}

    # ------------------------------------------------------------------ acting

    def act(self, observation: Any, seat: int | str | None = None, info: Mapping[str, Any] | None = None) -> int:
        """The agent's action id for ``observation``.

        ``observation``: a PettingZoo dict (``{"observation": vector, "action_mask": mask}``) or a Gymnasium
        vector, whose mask comes from ``info["action_mask"]`` (or, given the environment, from it).
        ``seat``: an agent name (``"player_2"``) or a seat; by default ``info["seat"]``, else, given the
        environment, the seat to act.
        """
        if self._base is not None:
            return self._act_in_env(observation, seat, info)
        built = self._bare_observation(observation, seat, info)
        return self._checked(built, self.agent.act(built))

    def act_batch(self, observations: Sequence[Any], seats: Sequence[int | str],
                  infos: Sequence[Mapping[str, Any] | None] | None = None) -> list[int]:
        """Bare observations only: many decisions at once (one network pass for agents with ``act_batch``)."""
        if self._base is not None:
            raise ValueError("act_batch: an adapter given the environment acts on its one current decision; "
                             "use act()")
        infos = infos if infos is not None else [None] * len(observations)
        built = [self._bare_observation(o, s, i) for o, s, i in zip(observations, seats, infos, strict=True)]
        return [self._checked(o, a) for o, a in zip(built, act_batch(self.agent, built))]

    def new_hand(self) -> None:
        """Bare observations: a new hand begins, so the agent's ``reset`` is called again at each seat's next act."""
        self._hands.clear()

    # ------------------------------------------------------------------ internals

    def _act_in_env(self, observation: Any, seat: int | str | None, info: Mapping[str, Any] | None) -> int:
        base = self._base
        hand = base.hand
        if hand is None:
            raise RuntimeError("act() before the environment's reset(): there is no hand")
        number = self._seat(seat, info, default=self._seat_to_act(base))
        if hand.actor != number:
            raise ValueError(f"seat {number} is not to act now (the hand is over or another seat is to act)")
        built = self._observer(hand, number)
        given = _mask_of(observation, info)
        if given is None and hasattr(base, "action_masks"):
            given = base.action_masks()
        if given is not None and not np.array_equal(given, built.action_mask):
            raise ValueError(f"observation: its action mask {given.tolist()} is not seat {number}'s now "
                             f"{built.action_mask.tolist()}; pass the current observation")
        if self._hands.get(number) is not hand:
            self.agent.reset(number, self.num_seats, self.variant)
            self._hands[number] = hand
        return self._checked(built, self.agent.act(built))

    def _bare_observation(self, observation: Any, seat: int | str | None,
                          info: Mapping[str, Any] | None) -> Observation:
        if isinstance(observation, Mapping):
            if "observation" not in observation:
                raise ValueError(f"observation: a dict needs 'observation' and 'action_mask' (PettingZoo's), "
                                 f"got keys {sorted(map(str, observation))}")
            vector = observation["observation"]
        else:
            vector = observation
        mask = _mask_of(observation, info)
        if mask is None:
            raise ValueError("observation: no action mask; give the PettingZoo dict or info with 'action_mask'")
        if not mask.any():
            raise ValueError("action_mask: no id is legal (not this seat's turn, or the hand is over)")
        vector = _numbers(vector, "observation")
        if vector.shape != (self._vector_size,):
            raise ValueError(f"observation: agent {self.name!r} reads {self._encoding!r} vectors of "
                             f"{self._vector_size} numbers for {self.variant} at {self.num_seats} seats, got shape "
                             f"{vector.shape}: the environment's table or encoding differs")
        with np.errstate(over="ignore"):
            vector = vector.astype(np.float32)
        if not np.isfinite(vector).all():
            raise ValueError("observation: the vector holds numbers that are not finite float32 values")
        number = self._seat(seat, info, default=None)
        if number not in self._hands:
            self.agent.reset(number, self.num_seats, self.variant)
            self._hands[number] = None
        return Observation(number, mask, None, vector)

    def _seat(self, seat: int | str | None, info: Mapping[str, Any] | None, default: int | None) -> int:
        if seat is None and info is not None and "seat" in info:
            seat = info["seat"]
        if seat is None:
            seat = default
        if seat is None:
            raise ValueError("seat: give the seat (an agent name such as 'player_1', or an int), or info with 'seat'")
        if isinstance(seat, str):
            match = AGENT_NAME.fullmatch(seat)
            if match is None:
                raise ValueError(f"seat: expected an agent name 'player_<seat>' or an int, got {seat!r}")
            seat = int(match.group(1))
        return as_int("seat", seat, 0, self.num_seats - 1, what="a seat number")

    @staticmethod
    def _seat_to_act(base: Any) -> int | None:
        if hasattr(base, "agent_selection"):
            return base.possible_agents.index(base.agent_selection)
        return getattr(base, "seat", None)

    def _checked(self, observation: Observation, action: Any) -> int:
        try:
            chosen = int(action)
        except (TypeError, ValueError):
            chosen = -1
        if not 0 <= chosen < NUM_ACTIONS or not observation.action_mask[chosen]:
            legal = ", ".join(f"{i} ({ACTION_NAMES[i]})" for i in np.flatnonzero(observation.action_mask))
            raise ValueError(f"agent {self.name!r} in seat {observation.seat} chose {action!r}, which the mask "
                             f"forbids; legal ids: {legal or 'none'}")
        return chosen


def _mask_of(observation: Any, info: Mapping[str, Any] | None) -> np.ndarray | None:
    """The int8 action mask from a PettingZoo dict or an info dict (read-only copy), or None if neither has one."""
    if isinstance(observation, Mapping) and "action_mask" in observation:
        raw = observation["action_mask"]
    elif info is not None and "action_mask" in info:
        raw = info["action_mask"]
    else:
        return None
    values = _numbers(raw, "action_mask")
    if values.shape != (NUM_ACTIONS,) or not np.isin(values, (0, 1)).all():
        raise ValueError(f"action_mask: expected {NUM_ACTIONS} zeros and ones, got {values.tolist()!r}")
    mask = values.astype(np.int8)
    mask.setflags(write=False)
    return mask


def _numbers(raw: Any, what: str) -> np.ndarray:
    """``raw`` as a numeric array (bool, int or float), or ``ValueError`` naming ``what``."""
    try:
        values = np.asarray(raw)
    except (ValueError, TypeError):
        values = None
    if values is None or values.dtype.kind not in "biuf":
        raise ValueError(f"{what}: expected an array of numbers, got {type(raw).__name__} {_short(raw)}")
    return values


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _razz_env_of(env: Any) -> Any:
    """The razz-env environment under any wrappers (``unwrapped``), or ``TypeError`` saying what was given."""
    base = getattr(env, "unwrapped", env)
    if not all(hasattr(base, name) for name in ("hand", "config", "encoder", "actions")):
        raise TypeError(f"env: expected a razz-env environment (razz_env.env(), raw_env(), SingleAgentEnv, or "
                        f"gymnasium.make('razz_env/...')), got {type(env).__name__}")
    return base

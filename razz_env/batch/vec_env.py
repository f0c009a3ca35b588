"""The single-agent view of N tables at once, on the batched engine: a Gymnasium vector env and an SB3 VecEnv.

:class:`BatchSingleAgentVecEnv` is ``num_envs`` copies of :class:`razz_env.envs.single_agent.SingleAgentEnv`
played in lockstep by :class:`razz_env.batch.BatchEngine`: the same observation vectors, ``Discrete(5)``
actions, rewards (the learner's net chips / big bet when its hand ends), learner seat (fixed or drawn per
hand among the seats that can act) and illegal-action modes. The opponents act in batch: each step, every
table where an opponent is to act is answered by one ``act_batch`` call per distinct opponent (one network
pass for a learned one), repeated until the learner is to act everywhere.

* Autoreset: Gymnasium's ``SAME_STEP`` mode. A table whose hand ends returns ``terminated=True``, its reward,
  and already the first observation of its next hand; ``infos["final_obs"]`` / ``infos["final_info"]``
  (with ``"_final_obs"``) mark it. The final observation is a zero vector: the batched engine deals the
  next hand at once and keeps no finished hand to encode (the scalar env shows the end state there).
  Algorithms that bootstrap only on truncation (SB3, never truncated here) do not read it.
* ``infos["action_mask"]`` (T, 5) and :meth:`action_masks` give the learner's masks; ``infos["seat"]`` its seats.
* ``opponents``: ``None`` (uniform random legal ids from the env's seeded generator), one agent for every
  other seat, or a list, one per other seat clockwise from the learner. Opponents get an
  :class:`~razz_env.encoding.interface.ObservationBatch` with the parts they read: the masks, the seat views
  as arrays (kept when ``views`` is true: by default when a listed opponent reads them; pass ``views=True``
  for an ``opponent_sampler`` that draws such agents) and the env's vectors; an agent that reads another
  encoding than the env's (one that names none reads ``"flat"``) is refused. Each
  opponent's ``reset`` is called once per seat it takes when it is seated, not every hand, so it must not
  keep per-hand state.
* Hands that end before the learner's first decision (short stacks) are skipped, as in the scalar env.

:class:`razz_env.batch.sb3_vec_env.BatchSB3VecEnv` wraps it as a Stable-Baselines3 ``VecEnv``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from razz_env.encoding import DEFAULT_ENCODING, make_encoder
from razz_env.encoding.actions import BRING_IN, CHECK_CALL, FOLD, NUM_ACTIONS
from razz_env.encoding.interface import ObservationBatch, act_batch, declaration_of
from razz_env.engine.checks import as_index
from razz_env.engine.table import Table
from razz_env.envs.common import env_table, reset_seed
from razz_env.envs.single_agent import ILLEGAL_ACTION_MODES, MAX_SKIPPED_HANDS, opponents_per_seat

__all__ = ["BatchSingleAgentVecEnv"]


def _batch_engine() -> Any:
    """The batched engine class (numba, the ``batch`` extra), imported on first use."""
    from razz_env.batch import BatchEngine

    return BatchEngine


def _subset_stepper() -> Any:
    """A compiled step over some tables only (the opponents' turns; the learner's tables wait)."""
    from numba import njit

    from razz_env.batch import kernels as k

    @njit(cache=False)
    def step_some(index, actions, rules, tables, work, encoding, out):
        for i in range(index.shape[0]):
            k.step_table(index[i], actions[i], rules, tables, work, False, encoding, out)

    return step_some


_STEPPER: list[Any] = []


def _step_tables(engine: Any, tables: np.ndarray, actions: np.ndarray) -> None:
    """Apply ``actions`` (legal ids) at ``tables`` only; the engine's ``finished`` and ``payoffs`` report them."""
    if not _STEPPER:
        _STEPPER.append(_subset_stepper())
    engine._tables.finished[:] = 0
    _STEPPER[0](tables, actions, engine._rules, engine._tables, engine._work, engine._encoding, engine._no_vectors)
    engine.make_history_room()


class BatchSingleAgentVecEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` single-agent tables on the batched engine; see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, opponents: Any = None, seat: int | str = "random", *,
                 opponent_sampler: Callable[[], Any] | None = None, illegal_action: str = "raise",
                 allow_open_fold: bool = False, encoding: str = DEFAULT_ENCODING,
                 max_players: int | None = None, history_slots: int | None = None, seed: int | None = None,
                 views: bool | None = None, table: Table | None = None, **table_options: Any) -> None:
        self.table = env_table(table, **table_options)
        self.config = config = self.table.hand_config()
        self.num_envs = as_index(num_envs)
        if self.num_envs < 1:
            raise ValueError(f"num_envs: expected at least 1 table, got {num_envs!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action: expected one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        n = config.num_seats
        self._can_act = np.array([s for s in range(n) if config.stacks[s] > config.stakes.ante], dtype=np.int64)
        if seat != "random":
            number = -1 if isinstance(seat, (bool, str)) else as_index(seat)
            if not 0 <= number < n:
                raise ValueError(f"seat: expected 'random' or a seat from 0 to {n - 1}, got {seat!r}")
            if number not in self._can_act:
                raise ValueError(f"seat: seat {number} has no chips behind the ante, so it can never act")
            seat = number
        self.seat_option = seat
        self.encoder = make_encoder(encoding, config, max_players=max_players, history_slots=history_slots)
        self.allow_open_fold = allow_open_fold
        self.single_observation_space = self.encoder.observation_space
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._big_bet = config.big_bet
        self._seed = seed
        self._opponents: list[Any] | None = None
        if opponents is not None:
            opponents = opponents_per_seat(opponents, self.config)  # specs built once, here
        self.views = bool(views)
        if views is None and opponents is not None:
            self.views = any("view" in declaration_of(agent).observes for agent in opponents)
        self.set_opponents(opponents)
        self.opponent_sampler = opponent_sampler
        self._sampled: list[Any] = []
        self._sampled_index: dict[int, int] = {}
        self._table_agent = np.zeros(self.num_envs, dtype=np.int64)
        self.engine: Any = None
        self.seats = np.zeros(self.num_envs, dtype=np.int64)
        self._rng = np.random.default_rng(seed)

    # ------------------------------------------------------------------ opponents

    def set_opponents(self, opponents: Any) -> None:
        """Seat ``opponents`` (``None``: seeded random; one agent; or one per other seat) from the next step on."""
        if opponents is None:
            self._opponents = None
            return
        listed = opponents_per_seat(opponents, self.config)
        for agent in listed:
            self._check_batched(agent)
        for k, agent in enumerate(listed, start=1):
            agent.reset(k % self.config.num_seats, self.config.num_seats, self.config.variant.name)
        self._opponents = listed

    def check_opponent(self, agent: Any) -> None:
        """``ValueError`` naming why ``agent`` cannot play here: not an agent, the table refused, the view read
        (the batched engine builds vectors only) or another encoding than the env's."""
        opponents_per_seat([agent] * (self.config.num_seats - 1), self.config)
        self._check_batched(agent)

    def _check_batched(self, agent: Any) -> None:
        """``ValueError`` if ``agent`` (an agent that accepts the table) reads what this env does not build: the
        view when it keeps none, or another encoding than the env's."""
        declared = declaration_of(agent)
        if "view" in declared.observes and not self.views:
            raise ValueError(f"opponents: {agent.name!r} reads the view; this env keeps no seat views "
                             "(pass views=True)")
        wanted = declared.encoding
        if wanted is not None and wanted != self.encoder.name:
            raise ValueError(f"opponents: {agent.name!r} reads the {wanted!r} encoding; this env encodes "
                             f"{self.encoder.name!r} (pass encoding={wanted!r})")

    def _sample_opponents(self, tables: np.ndarray) -> None:
        """Ask ``opponent_sampler`` for the agent of each new hand at ``tables`` (it plays every other seat)."""
        if self.opponent_sampler is None:
            return
        for t in tables.tolist():
            agent = self.opponent_sampler()
            index = self._sampled_index.get(id(agent))
            if index is None or self._sampled[index] is not agent:
                self.check_opponent(agent)
                for seat in range(self.config.num_seats):
                    agent.reset(seat, self.config.num_seats, self.config.variant.name)
                index = len(self._sampled)
                self._sampled.append(agent)
                self._sampled_index[id(agent)] = index
            self._table_agent[t] = index

    def _opponent_actions(self, tables: np.ndarray) -> np.ndarray:
        """One legal id for the acting opponent at each of ``tables``: one batched call per distinct agent."""
        engine = self.engine
        masks = engine.masks[tables]
        if self._opponents is None and self.opponent_sampler is None:
            return np.where(masks > 0, self._rng.random(masks.shape), -1.0).argmax(axis=1)
        actors = engine.actor[tables]
        if self.opponent_sampler is None:
            agents = self._opponents
            which = (actors - self.seats[tables] - 1) % self.config.num_seats
        else:
            agents = self._sampled
            which = self._table_agent[tables]
        vectors = views = None
        chosen = np.empty(len(tables), dtype=np.int64)
        groups: dict[int, tuple[Any, list[int]]] = {}
        for i, k in enumerate(which.tolist()):
            agent = agents[k]
            groups.setdefault(id(agent), (agent, []))[1].append(i)
        for agent, rows in groups.values():
            observes = declaration_of(agent).observes
            # each part built once a pass for every table, only when an opponent reads it
            if "vector" in observes and vectors is None:
                vectors = engine.observe()[tables]
            if "view" in observes and views is None:
                views = engine.seat_views(tables)
            observations = ObservationBatch(actors[rows], masks[rows],
                                            views.take(rows) if "view" in observes else None,
                                            vectors[rows] if "vector" in observes else None)
            answers = np.asarray(act_batch(agent, observations))
            if answers.shape != (len(rows),) or answers.dtype.kind not in "iu":
                raise ValueError(f"opponent {agent.name!r}: expected {len(rows)} integer ids, "
                                 f"got {answers!r}")
            chosen[rows] = answers
        bad = np.flatnonzero((chosen < 0) | (chosen >= NUM_ACTIONS)
                             | (masks[np.arange(len(tables)), np.clip(chosen, 0, NUM_ACTIONS - 1)] == 0))
        if len(bad):
            i = int(bad[0])
            agent = agents[int(which[i])]
            raise ValueError(f"opponent {agent.name!r} in seat {int(actors[i])} at table "
                             f"{int(tables[i])}: id {int(chosen[i])} is not legal; legal ids: "
                             f"{np.flatnonzero(masks[i]).tolist()}")
        return chosen

    # ------------------------------------------------------------------ play

    def _draw_seats(self, tables: np.ndarray) -> None:
        """The learner's seat (and the sampled opponent) of each new hand at ``tables``."""
        self._sample_opponents(tables)
        if self.seat_option == "random":
            self.seats[tables] = self._rng.choice(self._can_act, size=len(tables))
        else:
            self.seats[tables] = self.seat_option

    def _play_opponents(self, rewards: np.ndarray, open_episode: np.ndarray) -> np.ndarray:
        """Opponents act until the learner is to act at every table. A hand ending at a table whose episode
        is open rewards the learner and closes it; a later hand ending there first is skipped. Returns
        the skipped hands per table."""
        engine = self.engine
        skipped = np.zeros(self.num_envs, dtype=np.int64)
        while True:
            tables = np.flatnonzero(engine.actor != self.seats)
            if not len(tables):
                return skipped
            _step_tables(engine, tables, self._opponent_actions(tables))
            self._hands_ended(tables[engine._tables.finished[tables] > 0], rewards, open_episode, skipped)

    def _hands_ended(self, ended: np.ndarray, rewards: np.ndarray, open_episode: np.ndarray,
                     skipped: np.ndarray) -> None:
        if not len(ended):
            return
        scored = ended[open_episode[ended]]
        rewards[scored] = self.engine._tables.payoffs[scored, self.seats[scored]] / self._big_bet
        open_episode[scored] = False
        late = ended[~np.isin(ended, scored)]
        skipped[late] += 1
        if len(late) and skipped.max() >= MAX_SKIPPED_HANDS:
            raise RuntimeError(f"{int(skipped.max())} hands in a row ended before the learner could act; "
                               "check the stacks")
        self._draw_seats(ended)

    def _infos(self, skipped: np.ndarray) -> dict[str, Any]:
        return {"action_mask": self.engine.masks.copy(), "seat": self.seats.copy(), "skipped_hands": skipped}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Deal a hand at every table and play the opponents until the learner is to act everywhere."""
        seed = reset_seed(seed, 0)
        if options:
            raise ValueError(f"options: the batched env takes no reset options, got {sorted(options)}")
        if seed is not None:
            self._seed = seed
            self._rng = np.random.default_rng(seed)
        elif self.engine is not None:
            self._seed = int(self._rng.integers(2**63))
        self.engine = _batch_engine()(self.config, self.num_envs, seed=self._seed, encoder=self.encoder,
                                      allow_open_fold=self.allow_open_fold, views=self.views)
        self._draw_seats(np.arange(self.num_envs))
        rewards = np.zeros(self.num_envs)
        skipped = self._play_opponents(rewards, np.zeros(self.num_envs, dtype=bool))
        return self.engine.observe(), self._infos(skipped)

    def _learner_ids(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """The ids to play and which tables had an illegal id replaced by the passive action."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise ValueError(f"actions: expected one integer id per table, shape ({self.num_envs},), "
                             f"got {array.dtype} of shape {array.shape}")
        masks = self.engine.masks
        rows = np.arange(self.num_envs)
        illegal = (array < 0) | (array >= NUM_ACTIONS)
        illegal |= masks[rows, np.clip(array, 0, NUM_ACTIONS - 1)] == 0
        if not illegal.any():
            return array.astype(np.int64), illegal
        if self.illegal_action == "raise":
            t = int(np.flatnonzero(illegal)[0])
            raise ValueError(f"actions[{t}]: id {int(array[t])} is not legal for the learner in seat "
                             f"{int(self.seats[t])}; legal ids: {np.flatnonzero(masks[t]).tolist()}")
        engine = self.engine
        facing = engine.level > engine.bets[rows, engine.actor]
        passive = np.where((masks[:, CHECK_CALL] > 0) & ~facing, CHECK_CALL,
                           np.where(masks[:, FOLD] > 0, FOLD, BRING_IN))
        return np.where(illegal, passive, array).astype(np.int64), illegal

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """One learner action per table, the opponents' answers; finished tables deal their next hand."""
        if self.engine is None:
            raise RuntimeError("step() before reset(): call reset() first")
        played, replaced = self._learner_ids(actions)
        rewards = np.zeros(self.num_envs)
        open_episode = np.ones(self.num_envs, dtype=bool)
        engine = self.engine
        everyone = np.arange(self.num_envs, dtype=np.int64)
        _step_tables(engine, everyone, played)
        skipped = np.zeros(self.num_envs, dtype=np.int64)
        self._hands_ended(everyone[engine._tables.finished > 0], rewards, open_episode, skipped)
        skipped += self._play_opponents(rewards, open_episode)
        terminated = ~open_episode
        infos = self._infos(skipped)
        if replaced.any():
            infos["illegal_action"] = np.where(replaced, np.asarray(actions), -1)
            infos["_illegal_action"] = replaced
        if terminated.any():
            final = np.zeros((self.num_envs, self.encoder.size), dtype=np.float32)
            infos["final_obs"] = final
            infos["_final_obs"] = terminated.copy()
            infos["final_info"] = {"reward": np.where(terminated, rewards, 0.0), "_reward": terminated.copy()}
            infos["_final_info"] = terminated.copy()
        return engine.observe(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """(T, 5) int8: the learner's legal ids at every table (it is always to act between steps)."""
        if self.engine is None:
            return np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.int8)
        return self.engine.masks.copy()

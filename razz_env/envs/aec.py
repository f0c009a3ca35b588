"""The PettingZoo AEC environment behind :mod:`razz_env.envs.razz_v0`, whose docstring documents it.

:class:`raw_env` plays one hand of stud per episode through the rules engine;
:func:`env` wraps it in :class:`LeanOrderEnforcingWrapper`. Import them from the
versioned module (``from razz_env import razz_v0``).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from razz_env.encoding import DEFAULT_ENCODING, make_encoder
from razz_env.encoding.actions import NUM_ACTIONS, ActionTable
from razz_env.engine.state import HandState
from razz_env.engine.table import Table
from razz_env.engine.text import render_hand
from razz_env.envs.common import deal_options, env_table, reset_seed
from razz_env.envs.spaces import LegalDiscrete

__all__ = ["env", "raw_env"]

NO_VIEWER = -1  # render_hand's viewer for a finished hand: only hands shown down are face up


def env(**kwargs: Any) -> AECEnv:
    """``raw_env(**kwargs)`` in PettingZoo's order enforcing wrapper ("Wrappers" in :mod:`razz_env.envs.razz_v0`)."""
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
    """One hand of stud per episode; see :mod:`razz_env.envs.razz_v0` for spaces, rewards and options."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "razz_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(
        self,
        *,
        allow_open_fold: bool = False,
        encoding: str = DEFAULT_ENCODING,
        max_players: int | None = None,
        history_slots: int | None = None,
        render_mode: str | None = None,
        viewer: str | int | None = None,
        table: Table | None = None,
        **table_options: Any,
    ) -> None:
        super().__init__()
        self.table = env_table(table, **table_options)
        self.config = self.table.hand_config()
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
        self._big_bet = self.config.big_bet
        mask_space = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self._observation_spaces = {
            agent: spaces.Dict({"observation": self.encoder.observation_space, "action_mask": mask_space})
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: LegalDiscrete(NUM_ACTIONS, partial(self._pending_decision, agent))
                               for agent in self.possible_agents}
        self._rng = random.Random()
        self.hand: HandState | None = None

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        """The (cached) ``Dict(observation=Box float32, action_mask=Box int8 (5,))`` of ``agent``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The (cached) ``Discrete(5)`` of ``agent``; its ``sample()`` draws a legal id when ``agent`` is to act."""
        return self._action_spaces[agent]

    def _pending_decision(self, agent: str) -> tuple[np.ndarray | None, int | None]:
        """``agent``'s mask and the decision's number in the hand when it is to act, else ``(None, None)``."""
        hand = self.hand
        if hand is None or hand.actor != self._seats[agent]:
            return None, None
        return self.actions.mask(hand.legal_actions()), len(hand.history)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled or copied: the action spaces sample for this copy's decisions again."""
        self.__dict__.update(state)
        for agent, space in self._action_spaces.items():
            space.attach(partial(self._pending_decision, agent))

    def describe_observation(self) -> dict[str, tuple[slice, str]]:
        """Every named slice of ``observation["observation"]`` with its description."""
        return self.encoder.describe_observation()

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (``seed`` repeats a deal; ``options`` may fix the cards, see :mod:`razz_env.envs.razz_v0`).

        Bad ``seed`` or ``options`` raise ``ConfigError`` naming them before anything changes.
        """
        seed = reset_seed(seed)
        deal = deal_options(options, self.config)
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

    def _dealt(self, method: str) -> HandState:
        """The hand, or a ``RuntimeError`` naming ``method`` when ``reset()`` has not dealt one yet."""
        if self.hand is None:
            raise RuntimeError(f"{method}() before reset(): call env.reset() first to deal a hand")
        return self.hand

    def last(self, observe: bool = True) -> tuple:
        """PettingZoo's ``last()``: the current agent's observation, reward, termination, truncation and info."""
        self._dealt("last")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` for ``agent`` (fresh arrays; the mask is zero off-turn)."""
        hand = self._dealt("observe")
        seat = self._seats[agent]
        if hand.actor == seat:
            mask = self.actions.mask(hand.legal_actions())
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self.encoder.encode(hand, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply ``action`` for ``agent_selection``; ``ValueError`` (state unchanged) if it is not legal."""
        self._dealt("step")
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

    def render(self) -> str | np.ndarray | None:
        """The table from the viewer's seat: ``"ansi"`` returns text, ``"human"`` prints it, ``"rgb_array"``
        returns a picture (:mod:`razz_env.envs.render`, an (H, W, 3) uint8 array); only the viewer's down cards."""
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        self._dealt("render")
        if self.render_mode == "rgb_array":
            from razz_env.envs.render import render_rgb

            return render_rgb(self.hand, self._render_seat(), self.possible_agents)
        text = self._render_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _render_seat(self) -> int:
        """The seat whose down cards the render shows: the viewer's, else the actor's (:data:`NO_VIEWER` at the end)."""
        viewer = self.viewer
        seat = self.hand.actor if viewer is None else self._seats.get(viewer, viewer)
        return NO_VIEWER if seat is None else seat

    def _render_text(self) -> str:
        hand = self.hand
        seat = self._render_seat()
        names = ", ".join(f"seat {i} = {agent}" for i, agent in enumerate(self.possible_agents))
        watching = f"viewing as {self.possible_agents[seat]}" if seat >= 0 else "hand over"
        return f"{self.metadata['name']} ({names}; {watching})\n{render_hand(hand, viewer=seat)}"

    def close(self) -> None:
        """Nothing to release (each picture is drawn afresh; no window is opened)."""

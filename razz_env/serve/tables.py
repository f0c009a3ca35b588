"""The tables of ``razz serve``: a person (or nobody, to watch) and agents, hand after hand.

A :class:`Session` deals hands from its seed at a table of its :class:`Setup`, lets its agents act in a thread of
their own (so a slow agent keeps no request waiting), and records every step as its viewer sees it: the person's
seat when a person plays, every card face up when agents are only watched. Everything a session hands out is built
from that view (:func:`razz_env.envs.render.table_state`) and from public facts, so no card the seat may not see
before the showdown ever leaves it, nor an opponent's stated policy while a person plays (it would tell what the
opponent holds). Stacks carry over from hand to hand (a busted seat buys in again) unless an agent was trained at
one table (its declaration): then every hand starts at that table's stacks.

>>> session = Session(Setup(agents=("calling_station",), seed=1), {"calling_station": "calling_station"})
>>> session.wait() and session.view()["your_turn"]
True
>>> session.act(session.view()["legal"][-1]["name"])  # the last legal action: bring in, complete, raise ...
>>> session.close()
"""

from __future__ import annotations

import contextlib
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from razz_env.agents.registry import AgentSpecError, make_agent
from razz_env.encoding.actions import ENGINE_TO_ID, to_engine
from razz_env.encoding.interface import (
    Agent,
    Observer,
    action_probabilities,
    declaration_of,
    hand_outcome,
    hand_over_hook,
    seating_problem,
)
from razz_env.engine.actions import Action
from razz_env.engine.checks import fits_type
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.presets import PRESETS
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState
from razz_env.engine.text import shows_down_cards
from razz_env.engine.variants import VARIANTS
from razz_env.envs.render import layout, table_state
from razz_env.evaluate.aivat import aivat
from razz_env.evaluate.blocks import states_varying_policy
from razz_env.evaluate.stats import win_rate
from razz_env.play import KEYS, action_label

UNKNOWN = "??"
"""A card the viewer did not see, in the hand records a session hands out (docs/hand-records.md)."""


@dataclass(frozen=True)
class Setup:
    """A table to open: the game, its rule preset, the seats, the person's seat (``None``: agents only, watched),
    the agents (labels of the server's offered agents) for the other seats in seat order (every seat when watched),
    the chips each seat starts with, and the seed of the deals and the agents' randomness (``None``: random)."""

    variant: str = "razz"
    rules: str = "house"
    seat: int | None = 0
    agents: tuple[str, ...] = ("razz_heuristic",)
    stack: int = 1000
    seed: int | None = None

    @property
    def seats(self) -> int:
        return len(self.agents) + (self.seat is not None)

    @classmethod
    def from_request(cls, data: Any, offered: Mapping[str, Any]) -> Setup:
        """The setup a browser asked for (JSON: the fields above), every field checked; :class:`ConfigError` names
        the first that is wrong and what is allowed."""
        if not isinstance(data, dict):
            raise ConfigError("expected a JSON object with variant, rules, seat, agents, stack and seed")
        unknown = sorted(set(data) - {"variant", "rules", "seat", "agents", "stack", "seed"})
        if unknown:
            raise ConfigError(f"unknown field(s) {unknown}; known: variant, rules, seat, agents, stack, seed")
        variant = _choice(data, "variant", "razz", tuple(VARIANTS))
        rules = _choice(data, "rules", "house", tuple(PRESETS))
        agents = data.get("agents", ["razz_heuristic"])
        if not isinstance(agents, list) or not agents or not all(isinstance(a, str) for a in agents):
            raise ConfigError("agents: expected a list of agent names, one per agent seat")
        missing = [a for a in agents if a not in offered]
        if missing:
            raise ConfigError(f"agents: {missing[0]!r} is not offered here; offered: {', '.join(offered)}")
        seat = data.get("seat", 0)
        seats = len(agents) + (seat is not None)
        if seat is not None and (not fits_type(seat, int) or not 0 <= seat < seats):
            raise ConfigError(f"seat: expected your seat, 0 to {seats - 1} with {len(agents)} agent(s), or null to "
                              f"watch, got {seat!r}")
        stack, seed = data.get("stack", 1000), data.get("seed")
        if not fits_type(stack, int) or not 1 <= stack <= 10**9:
            raise ConfigError(f"stack: expected a whole number of chips from 1 to 10^9, got {stack!r}")
        if seed is not None and (not fits_type(seed, int) or not 0 <= seed < 2**63):
            raise ConfigError(f"seed: expected a whole number from 0 to 2^63 - 1, or null for a random one, "
                              f"got {seed!r}")
        return cls(variant, rules, seat, tuple(agents), stack, seed)


def _choice(data: Mapping[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
    value = data.get(key, default)
    if value not in allowed:
        raise ConfigError(f"{key}: expected one of {', '.join(allowed)}, got {value!r}")
    return value


class Running:
    """Per seat: hands, chips and big bets won, raw and AIVAT-corrected, as sums that give win rates with CIs."""

    def __init__(self, seats: int) -> None:
        self.hands = 0
        self.chips = [0] * seats
        self.sums = {kind: np.zeros((seats, 2)) for kind in ("raw", "aivat")}

    def add(self, payoffs: list[int], corrected: np.ndarray, big_bet: int) -> None:
        self.hands += 1
        self.chips = [total + chips for total, chips in zip(self.chips, payoffs)]
        for kind, values in (("raw", np.asarray(payoffs, dtype=np.float64)), ("aivat", corrected)):
            bets = values / big_bet
            self.sums[kind] += np.stack([bets, bets * bets], axis=1)

    def seat(self, seat: int) -> dict[str, Any]:
        """The seat's running result: chips, and bb/100 (big bets per 100 hands) with its 95% CI, raw and AIVAT."""
        out: dict[str, Any] = {"chips": self.chips[seat]}
        for kind, (total, squares) in ((k, s[seat]) for k, s in self.sums.items()):
            rate = win_rate(self.hands, float(total), float(squares))
            half = rate.half_width if self.hands > 1 else None
            out[kind] = {"bb100": round(rate.mean_bb100, 2), "ci95": None if half is None else round(half, 2)}
        return out


class Session:
    """One open table (see the module's docstring). Its methods are safe to call from several threads."""

    def __init__(self, setup: Setup, offered: Mapping[str, Any]) -> None:
        self.id = secrets.token_urlsafe(12)
        self.setup = setup
        self.person = setup.seat
        agent_seats = [s for s in range(setup.seats) if s != self.person]
        self.rng = random.Random(setup.seed if setup.seed is not None else secrets.randbits(63))
        self.names = ["you" if s == self.person else "" for s in range(setup.seats)]
        self.agents: dict[int, Agent] = {}
        try:
            for seat, label in zip(agent_seats, setup.agents):
                self.agents[seat] = make_agent(offered[label], seed=self.rng.randrange(2**31))
                self.names[seat] = label
                problem = seating_problem(self.agents[seat], setup.variant, setup.seats)
                if problem:
                    raise ConfigError(problem)
            self.base = HandConfig.create(setup.variant, num_seats=setup.seats, stacks=setup.stack, rules=setup.rules)
            for agent in self.agents.values():
                Observer(agent, self.base)  # an agent trained at another table is refused here, by name
        except (AgentSpecError, ValueError, TypeError) as err:
            self.close()
            raise ConfigError(str(err)) from None
        self.carry = not any(declaration_of(agent).table is not None for agent in self.agents.values())
        # The seats whose stated policy AIVAT needs (one that varies); a watched table shows every stated one.
        self.varying = {seat for seat, agent in self.agents.items() if states_varying_policy(agent)}
        self.asked = self.varying | ({seat for seat, agent in self.agents.items()
                                      if declaration_of(agent).states_policy} if self.person is None else set())
        self.stacks = list(self.base.stacks)
        self.running = Running(setup.seats)
        self.records: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.error: str | None = None
        self.touched = time.monotonic()
        self._lock = threading.RLock()
        self._worker: threading.Thread | None = None
        self.number = 0
        self._deal()

    # ------------------------------------------------------------------ what the browser reads

    def view(self, since: int = 0) -> dict[str, Any]:
        """The table now as the viewer sees it: the steps of this hand from ``since`` on, whose turn, the person's
        legal actions when it is theirs, the running results, and anything that went wrong."""
        with self._lock:
            self.touched = time.monotonic()
            busy = self.busy
            your_turn = (not busy and self.error is None and self.person is not None and not self.hand.is_over
                         and self.hand.actor == self.person)
            legal = [{"name": str(a), "label": action_label(self.hand, a), "key": KEYS[a]}
                     for a in self.hand.legal_actions()] if your_turn else []
            results = {"hands": self.running.hands, "big_bet": self.config.big_bet,
                       "seats": [self.running.seat(s) for s in range(self.setup.seats)]}
            return {"id": self.id, "hand": self.number, "step_count": len(self.steps),
                    "steps": self.steps[max(0, since):], "over": self.hand.is_over, "busy": busy,
                    "your_turn": your_turn, "legal": legal, "results": results, "names": self.names,
                    "seat": self.person, "carry": self.carry, "notes": self.notes[-5:], "error": self.error}

    @property
    def busy(self) -> bool:
        """Whether agents are acting now (a thread of the session's own)."""
        return self._worker is not None and self._worker.is_alive()

    def layouts(self) -> dict[str, Any]:
        """The picture's layout for this table (the shared drawing script reads it)."""
        return {f"{self.setup.seats}/{self.base.variant.cards_per_seat}":
                layout(self.setup.seats, self.base.variant.cards_per_seat)}

    def records_jsonl(self) -> str:
        """The finished hands as hand records (JSON lines), every card the viewer did not see written ``??``."""
        import json

        with self._lock:
            return "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in self.records)

    # ------------------------------------------------------------------ what the browser does

    def act(self, name: str) -> None:
        """The person's action (its name, e.g. ``"call"``); then the agents act up to the person's next turn."""
        with self._lock:
            self._check_usable()
            if self.person is None:
                raise ConfigError("nobody plays at this table: it is watched (use step)")
            if self.hand.is_over or self.hand.actor != self.person:
                raise ConfigError("it is not your turn")
            legal = self.hand.legal_actions()
            chosen = next((a for a in legal if str(a) == name), None)
            if chosen is None:
                raise ConfigError(f"action {name!r} is not legal now; legal: {', '.join(map(str, legal))}")
            self._apply(chosen, None)
            self._start(lambda: self._play_agents(None))

    def step(self, decisions: int | None = 1) -> None:
        """At a watched table: the agents' next ``decisions`` decisions (``None``: to the end of the hand)."""
        with self._lock:
            self._check_usable()
            if self.person is not None:
                raise ConfigError("step is for watched tables; at yours the agents act by themselves")
            if decisions is not None and (not fits_type(decisions, int) or decisions < 1):
                raise ConfigError(f"decisions: expected a positive whole number or null, got {decisions!r}")
            if self.hand.is_over:
                raise ConfigError("the hand is over: deal the next one")
            self._start(lambda: self._play_agents(decisions))

    def next_hand(self) -> None:
        """Deal the next hand (the one in play must be over)."""
        with self._lock:
            self._check_usable()
            if not self.hand.is_over:
                raise ConfigError("the hand is not over yet")
            self._deal()

    def wait(self, seconds: float = 60.0) -> bool:
        """Wait for the agents to finish acting (tests and the doctest); whether they did."""
        worker = self._worker
        if worker is not None:
            worker.join(seconds)
        return not self.busy

    def close(self) -> None:
        """Free the table: every agent's ``close`` (a bot's process ends)."""
        for agent in getattr(self, "agents", {}).values():
            closing = getattr(agent, "close", None)
            if callable(closing):
                with contextlib.suppress(Exception):  # a table being freed must not fail on one agent
                    closing()

    # ------------------------------------------------------------------ inside

    def _check_usable(self) -> None:
        self.touched = time.monotonic()
        if self.error is not None:
            raise ConfigError(f"this table stopped: {self.error}; open a new one")
        if self.busy:
            raise ConfigError("the agents are still acting; wait for them")

    def _deal(self) -> None:
        """A new hand at the stacks the last one left (or the table's), its first step, then the agents' turns."""
        starting = self.setup.stack
        if self.carry:
            for seat, chips in enumerate(self.stacks):
                if chips == 0:
                    self.stacks[seat] = starting
                    self.notes.append(f"hand {self.number + 1}: {self._who(seat)} buys in again for {starting}")
        else:
            self.stacks = list(self.base.stacks)
        self.config = HandConfig.create(self.setup.variant, num_seats=self.setup.seats, stacks=self.stacks,
                                        rules=self.setup.rules)
        self.hand = HandState(self.config, seed=self.rng.randrange(2**63))
        self.number += 1
        self.observers = {seat: Observer(agent, self.config) for seat, agent in self.agents.items()}
        for seat, agent in self.agents.items():
            agent.reset(seat, self.setup.seats, self.setup.variant)
        self.policies: list[np.ndarray | None] = []
        self.steps: list[dict[str, Any]] = [self._step(None, "the deal", None)]
        if self.person is not None:
            self._start(lambda: self._play_agents(None))

    def _who(self, seat: int) -> str:
        return "you" if seat == self.person else f"seat {seat} ({self.names[seat]})"

    def _step(self, seat: int | None, said: str, policy: dict[str, float] | None) -> dict[str, Any]:
        return {"state": table_state(self.hand, self.person, self.names).to_dict(), "seat": seat, "action": said,
                "policy": policy}

    def _start(self, work: Callable[[], None]) -> None:
        """Run ``work`` in a thread of the session's own; an agent that fails stops the table, named."""

        def guarded() -> None:
            try:
                work()
            except Exception as err:  # noqa: BLE001 - an agent's bug is reported on the page, not raised
                with self._lock:
                    self.error = f"{type(err).__name__}: {err}"

        self._worker = threading.Thread(target=guarded, name=f"table-{self.id}", daemon=True)
        self._worker.start()

    def _play_agents(self, decisions: int | None) -> None:
        """Agents act until the person's turn, the hand's end, or ``decisions`` decisions."""
        done = 0
        while not self.hand.is_over and self.hand.actor != self.person and (decisions is None or done < decisions):
            seat = self.hand.actor
            agent = self.agents[seat]
            observation = self.observers[seat](self.hand, seat)
            stated = action_probabilities(agent, [observation])[0] if seat in self.asked else None
            legal = self.hand.legal_actions()
            try:
                action = to_engine(agent.act(observation), legal, who=f"{self._who(seat)}")
            except ValueError as err:
                raise RuntimeError(str(err)) from None
            shown = None
            if stated is not None and self.person is None:
                shown = {str(a): round(float(p), 4) for a in legal if (p := stated[ENGINE_TO_ID[a]]) > 0}
            with self._lock:
                self._apply(action, stated if seat in self.varying else None, shown)
            done += 1

    def _apply(self, action: Action, policy: np.ndarray | None, shown: dict[str, float] | None = None) -> None:
        seat = self.hand.actor
        said = f"{self._who(seat)}: {action_label(self.hand, action)}"
        self.hand.act(action)
        self.policies.append(policy)
        self.steps.append(self._step(seat, said, shown))
        if self.hand.is_over:
            self._finish()

    def _finish(self) -> None:
        """The hand's result into the running figures and the records; the stacks it leaves."""
        hand = self.hand
        corrected = aivat(hand, self.policies).corrected
        self.running.add(list(hand.payoffs), corrected, self.config.big_bet)
        self.stacks = list(hand.stacks)
        self.records.append(self._record())
        for seat, agent in self.agents.items():  # an agent with the hook is told how the hand ended, as its seat saw it
            hook = hand_over_hook(agent)
            if hook is not None:
                hook(hand_outcome(hand, seat, self.number - 1))
        if self.person is None:
            self.steps[-1]["aivat"] = [round(float(c), 2) for c in corrected]

    def _record(self) -> dict[str, Any]:
        """The hand's record as the viewer saw it: the down cards it never saw written ``??``."""
        record = to_record(self.hand, self.names)
        up = self.config.variant.up_positions
        record["cards"] = [[card if position in up or shows_down_cards(self.hand, seat, self.person) else UNKNOWN
                            for position, card in enumerate(cards)] for seat, cards in enumerate(record["cards"])]
        return record


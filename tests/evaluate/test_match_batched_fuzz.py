"""Fuzz the tournament's batched path against the scalar one with hypothesis.

Random games (variant, seats, stakes, stacks down to the ante, duplicate or plain, deal offsets) and random
lineups of seeded random, vector-reading and calling agents must give identical per-deal payoffs and identical
calls to every agent on both paths, or be refused by ``play_deals_batched`` exactly when ``batch_problem``
names a reason (the scalar path then plays them). Agents answering garbage (ids out of range, text, None,
floats, numpy scalars, too few or too many ids) must fail with the same ``AgentFailure`` on both paths, or
play the same hands. ``RAZZ_FUZZ_EXAMPLES`` sets the examples per category (default 25);
``--hypothesis-show-statistics`` prints how many gave each outcome.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from razz_env.encoding.interface import Declaration

pytest.importorskip("numba", reason="the batched path needs the batch extra (numba)")

from razz_env.agents.simple import CallingStation, RandomAgent
from razz_env.engine.config import HandConfig, max_seats
from razz_env.engine.errors import ConfigError
from razz_env.engine.variants import get_variant
from razz_env.evaluate.blocks import batch_problem, play_deals, play_deals_batched
from razz_env.evaluate.containment import AgentFailure

FUZZ = settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "25")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
VARIANTS = ["razz", "action_razz", "stud", "stud8", "minirazz", "minirazz_tiny", "minirazz_small", "minirazz_large"]


class Logged(RandomAgent):
    """A seeded random agent that logs what it is shown; ``parts``: what it reads."""

    def __init__(self, seed: int, parts: tuple[str, ...]) -> None:
        super().__init__(seed)
        self.declaration = Declaration(observes=parts, acts_in_batch=True)
        self.log: list[tuple] = []

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.log.append((seat, num_seats, variant))

    def act_batch(self, observations) -> list[int]:
        self.log.append([(o.seat, o.action_mask.tolist(), None if "vector" not in self.declaration.observes else
                          o.vector.tobytes()) for o in observations])
        return [self.act(o) for o in observations]


class Garbage(RandomAgent):
    """Legal random ids, except that batch number ``when`` is answered with ``answer`` (drawn by hypothesis) in
    place of its first ids (a type applied to the legal id), and ``shift`` ids more or fewer than asked."""

    declaration = Declaration(observes=(), acts_in_batch=True)

    def __init__(self, seed: int, when: int, answer: list, shift: int) -> None:
        super().__init__(seed)
        self.when, self.answer, self.shift, self.calls = when, answer, shift, 0

    def act_batch(self, observations) -> list:
        self.calls += 1
        ids = [self.act(o) for o in observations]
        if self.calls != self.when:
            return ids
        ids = [a(i) if isinstance(a, type) else a for a, i in zip(self.answer, ids)] + ids[len(self.answer):]
        return ids + [1] if self.shift > 0 else ids[:len(ids) + self.shift]


@st.composite
def games(draw: st.DrawFn) -> HandConfig:
    variant = draw(st.sampled_from(VARIANTS))
    seats = draw(st.integers(2, max_seats(get_variant(variant))))
    ante = draw(st.integers(0, 3))
    try:
        return HandConfig.create(variant, num_seats=seats, ante=ante, stacks=draw(st.integers(1, 80)),
                                 raise_cap=draw(st.sampled_from([None, 1, 2, 4])))
    except ConfigError:
        event("config refused by HandConfig")
        return HandConfig.create(variant, num_seats=2)


def _outcome(play, players, config, deals, seed, duplicate, first_deal):
    try:
        tables = play(players, config, deals, seed, duplicate, 60.0, first_deal)
    except AgentFailure as failure:
        return ("failure", failure.position, failure.kind, failure.message)
    return [(t.deal, tuple(t.positions), tuple(t.payoffs)) for t in tables]


@FUZZ
@given(config=games(), deals=st.integers(1, 5), seed=st.text(max_size=6), duplicate=st.booleans(),
       first_deal=st.integers(0, 50), kinds=st.lists(st.sampled_from(["random", "vector", "station", "mask"]),
                                                    min_size=8, max_size=8), agent_seed=st.integers(0, 2**31))
def test_random_games_play_alike_or_are_refused(config, deals, seed, duplicate, first_deal, kinds, agent_seed):
    def lineup() -> list:
        made = {"random": lambda i: RandomAgent(agent_seed + i), "station": lambda i: CallingStation(),
                "vector": lambda i: Logged(agent_seed + i, ("vector",)), "mask": lambda i: Logged(agent_seed + i, ())}
        return [made[kind](i) for i, kind in enumerate(kinds[:config.num_seats])]

    scalar_players, batch_players = lineup(), lineup()
    scalar = _outcome(play_deals, scalar_players, config, deals, seed, duplicate, first_deal)
    problem = batch_problem(batch_players, config)
    if problem is not None:
        assert "ante" in problem
        with pytest.raises(ValueError, match="play_deals_batched: stacks"):
            play_deals_batched(batch_players, config, deals, seed, duplicate, 60.0, first_deal)
        event("refused by the batched path (stacks at the ante), played by the scalar one")
        return
    assert _outcome(play_deals_batched, batch_players, config, deals, seed, duplicate, first_deal) == scalar
    for ours, theirs in zip(batch_players, scalar_players):
        assert getattr(ours, "log", None) == getattr(theirs, "log", None)
    event("same payoffs and calls")


answers = st.lists(st.one_of(st.integers(-3, 8), st.sampled_from([None, "1", "call", 1.0, 2.7, math.inf, math.nan,
                                                                  True, b"\x01", [1], 2**70]),
                             st.sampled_from([np.int8, np.uint8, np.float32, np.bool_, float, str])),
                   min_size=1, max_size=6)


@FUZZ
@given(config=games(), when=st.integers(1, 4), answer=answers, shift=st.sampled_from([0, 0, 0, 1, -1]),
       seat=st.integers(0, 1))
def test_garbage_answers_fail_or_play_alike(config, when, answer, shift, seat):
    if batch_problem([RandomAgent()] * config.num_seats, config) is not None:
        config = HandConfig.create(config.variant.name, num_seats=config.num_seats)

    def lineup() -> list:
        players = [RandomAgent(seed=5 + i) for i in range(config.num_seats)]
        players[seat] = Garbage(9, when, answer, shift)
        return players

    scalar = _outcome(play_deals, lineup(), config, 3, "g", True, 0)
    assert _outcome(play_deals_batched, lineup(), config, 3, "g", True, 0) == scalar
    event("clean AgentFailure, same on both paths" if scalar[0] == "failure" else "valid: same payoffs")

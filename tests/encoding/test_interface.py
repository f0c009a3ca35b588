"""Fair play: an agent's observation holds only what its seat may see, and nothing that can change the game."""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest

from razz_env.agents.registry import make_agent
from razz_env.encoding import make_encoder
from razz_env.encoding.interface import (
    Observation,
    Observer,
    action_probabilities,
    observation_parts,
    observe,
    seating_problem,
)
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState
from razz_env.evaluate.blocks import play_deals


def reachable(root: object, limit: int = 100_000) -> list[object]:
    """Every object reachable from ``root`` through instance references (types, modules and code excluded)."""
    seen: set[int] = set()
    found: list[object] = []
    stack = [root]
    skip = (type, type(gc), type(reachable), type(reachable.__code__), type(len))
    while stack and len(found) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        found.append(obj)
        stack.extend(gc.get_referents(obj))
        if hasattr(obj, "__slots__"):
            stack.extend(getattr(obj, name) for name in _slot_names(type(obj)) if hasattr(obj, name))
    return found


def _slot_names(cls: type) -> list[str]:
    return [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())]


class MaskRandom:
    """An honest agent: a seeded random legal id."""

    name = "mask_random"
    encoding = "flat"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Nothing to clear."""

    def act(self, observation: Observation) -> int:
        return int(self.rng.choice(np.flatnonzero(observation.action_mask)))


class Snoop(MaskRandom):
    """A cheating agent: hunts for the hand through every observation and tries to change what it was given."""

    name = "snoop"

    def __init__(self) -> None:
        super().__init__()
        self.findings: list[str] = []
        self.decisions = 0

    def act(self, observation: Observation) -> int:
        self.decisions += 1
        if any(isinstance(obj, HandState) for obj in reachable(observation)):
            self.findings.append("reached the HandState")
        attempts = {
            "seat": lambda: setattr(observation, "seat", 1 - observation.seat),
            "mask": lambda: observation.action_mask.__setitem__(slice(None), 1),
            "vector": lambda: observation.vector.__setitem__(slice(None), 0.0),
            "view": lambda: setattr(observation.view, "stacks", (0, 0)),
        }
        for what, attempt in attempts.items():
            try:
                attempt()
            except (AttributeError, TypeError, ValueError):
                continue
            self.findings.append(f"changed the {what}")
        return super().act(observation)


def test_an_observation_has_no_hand_and_cannot_be_changed() -> None:
    config = HandConfig.create("razz", num_seats=3)
    hand = HandState(config, seed=7)
    observation = observe(hand, hand.actor, encoder=make_encoder("flat", config))
    assert not hasattr(observation, "hand")
    assert not any(isinstance(obj, HandState) for obj in reachable(observation))
    with pytest.raises(AttributeError):
        observation.seat = 0
    with pytest.raises(ValueError):
        observation.vector[0] = 1.0
    with pytest.raises(ValueError):
        observation.action_mask[0] = 1


def test_the_view_holds_no_other_seat_down_cards() -> None:
    config = HandConfig.create("stud", num_seats=4)
    hand = HandState(config, seed=3)
    seat = hand.actor
    view = observe(hand, seat).view
    hidden = {c for s in range(4) if s != seat for c in hand.down_cards(s)}
    assert set(view.own_down) == set(hand.down_cards(seat))
    assert not hidden & {c for up in view.up_cards for c in up}


def test_a_cheating_agent_in_a_tournament_finds_nothing_and_changes_nothing() -> None:
    config = HandConfig.create("razz", num_seats=2)
    snoop = Snoop()
    station = make_agent("calling_station")
    cheating = play_deals([snoop, station], config, deals=20, seed="fair")
    plain = play_deals([MaskRandom(), station], config, deals=20, seed="fair")
    assert snoop.decisions > 40
    assert snoop.findings == []
    assert [t.hand.payoffs for t in cheating] == [t.hand.payoffs for t in plain]


def test_observers_build_only_the_parts_an_agent_reads() -> None:
    config = HandConfig.create("razz", num_seats=2)
    hand = HandState(config, seed=1)
    station = Observer(make_agent("calling_station"), config)(hand, hand.actor)
    heuristic = Observer(make_agent("razz_heuristic"), config)(hand, hand.actor)
    with pytest.raises(AttributeError, match="no view"):
        station.view  # noqa: B018
    with pytest.raises(AttributeError, match="no vector"):
        heuristic.vector  # noqa: B018
    assert heuristic.view.seat == hand.actor
    assert observation_parts(Snoop()) == ("view", "vector")


def test_a_bad_observes_declaration_names_the_agent() -> None:
    class Odd:
        name = "odd"
        observes = ("cards",)

    with pytest.raises(ValueError, match="odd: observes must list some of"):
        observation_parts(Odd())


def test_seating_problem_reads_the_declared_tables() -> None:
    class HeadsUp:
        name = "hu"
        variants = ("razz",)
        seat_counts = (2,)

    assert seating_problem(HeadsUp(), "razz", 2) is None
    assert "cannot be seated at razz with 3 seats" in seating_problem(HeadsUp(), "razz", 3)
    assert "cannot be seated at stud with 2 seats" in seating_problem(HeadsUp(), "stud", 2)
    assert seating_problem(make_agent("random"), "stud8", 8) is None


def test_action_probabilities_of_no_observations_is_an_empty_table() -> None:
    assert action_probabilities(make_agent("random"), []).shape == (0, 5)

"""Fair play: an agent's observation holds only what its seat may see, and nothing that can change the game."""

from __future__ import annotations

import gc
import random
import re

import numpy as np
import pytest

from razz_env.agents.registry import make_agent
from razz_env.encoding import make_encoder
from razz_env.encoding.interface import (
    Declaration,
    Observation,
    Observer,
    act_batch,
    action_probabilities,
    declaration_of,
    observe,
    seating_problem,
)
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
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
    declaration = Declaration(observes=("view", "vector"), encoding="flat")

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
    snooping = Observer(Snoop(), config)(hand, hand.actor)
    assert snooping.view.seat == hand.actor and snooping.vector.shape == (676,)


@pytest.mark.parametrize(("fields", "message"), [
    ({"observes": ("cards",)}, "declaration: observes: expected some of view, vector, got ('cards',)"),
    ({"observes": "view"}, "declaration: observes: expected some of view, vector, got 'view'"),
    ({"observes": ("view", "view")}, "declaration: observes: expected some of view, vector, got ('view', 'view')"),
    ({"observes": ("vector",), "encoding": "pixels"}, "declaration: encoding: expected one of flat, ranks, flat8, "
                                                      "ranks8, got 'pixels'"),
    ({"encoding": "flat"}, "declaration: encoding 'flat' names the vectors it reads, but observes ('view',) leaves "
                           "out 'vector'"),
    ({"variants": ()}, "declaration: variants: expected one or more of razz, action_razz"),
    ({"variants": ("holdem",)}, "declaration: variants: expected one or more of razz"),
    ({"seat_counts": (1, 2)}, "declaration: seat_counts: expected table sizes from 2 to 8 (or None for all), got "
                              "(1, 2)"),
    ({"seat_counts": (2.0,)}, "declaration: seat_counts: expected table sizes from 2 to 8"),
    ({"states_policy": 1}, "declaration: states_policy: expected True or False, got 1"),
])
def test_a_bad_declaration_names_the_field(fields: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        Declaration(**fields)


def test_a_declaration_normalises_what_it_is_given() -> None:
    declared = Declaration(observes=["vector"], variants=["razz", "stud"], seat_counts=range(2, 4))
    assert (declared.observes, declared.encoding, declared.variants, declared.seat_counts) == (
        ("vector",), "flat", ("razz", "stud"), (2, 3))
    assert Declaration().encoding is None and Declaration(observes=()).observes == ()
    assert Declaration(states_policy=True, acts_in_batch=True).methods == (
        "action_probabilities", "act_batch", "action_probabilities_batch")


def test_an_agent_without_a_declaration_is_refused_in_one_line() -> None:
    class Bare:
        name = "bare"

        def reset(self, seat: int, num_seats: int, variant: str) -> None:
            """Nothing."""

        def act(self, observation: Observation) -> int:
            return 1

    config = HandConfig.create("razz", num_seats=2)
    expected = ("agent 'bare' (test_an_agent_without_a_declaration_is_refused_in_one_line.<locals>.Bare) has no "
                "declaration: give its class `declaration = Declaration(...)` (razz_env.encoding.interface: what it "
                "observes, the variants and seat counts it plays, whether it states its policy and acts in batch)")
    for use in (declaration_of, lambda a: Observer(a, config), lambda a: seating_problem(a, "razz", 2),
                lambda a: act_batch(a, [])):
        with pytest.raises(ConfigError) as caught:
            use(Bare())
        assert str(caught.value) == expected
    Bare.declaration = ("view",)
    with pytest.raises(ConfigError, match="'bare' .* has a declaration of type tuple: give its class"):
        declaration_of(Bare())


def test_a_declaration_must_keep_its_promises() -> None:
    class Boaster(MaskRandom):
        name = "boaster"
        declaration = Declaration(states_policy=True, acts_in_batch=True)

    with pytest.raises(ConfigError, match="agent 'boaster': its declaration promises action_probabilities and "
                                          "act_batch and action_probabilities_batch, which it does not have"):
        declaration_of(Boaster())
    with pytest.raises(TypeError, match="agent 'mask_random' states no policy"):
        action_probabilities(MaskRandom(), [])


def test_seating_problem_reads_the_declared_tables() -> None:
    class HeadsUp:
        name = "hu"
        declaration = Declaration(variants=("razz",), seat_counts=(2,))

    assert seating_problem(HeadsUp(), "razz", 2) is None
    assert "cannot be seated at razz with 3 seats" in seating_problem(HeadsUp(), "razz", 3)
    assert "cannot be seated at stud with 2 seats" in seating_problem(HeadsUp(), "stud", 2)
    assert seating_problem(make_agent("random"), "stud8", 8) is None


def test_action_probabilities_of_no_observations_is_an_empty_table() -> None:
    assert action_probabilities(make_agent("random"), []).shape == (0, 5)


def test_observation_batch_stacks_and_reads_back() -> None:
    from razz_env.encoding import make_encoder
    from razz_env.encoding.interface import ObservationBatch, observe
    from razz_env.engine.config import HandConfig
    from razz_env.engine.state import HandState

    config = HandConfig.create("razz", num_seats=3)
    encoder = make_encoder("flat", config)
    hands = [HandState(config, seed=s) for s in range(5)]
    observations = [observe(h, h.actor, encoder=encoder) for h in hands]
    batch = ObservationBatch.of(observations)
    assert ObservationBatch.of(batch) is batch
    assert len(batch) == 5 and batch.masks.shape == (5, 5) and batch.vectors.shape == (5, encoder.size)
    assert batch.seats.tolist() == [h.actor for h in hands]
    for i, obs in enumerate(observations):
        assert batch[i].view == obs.view and (batch[i].vector == obs.vector).all()
        assert (batch[i].action_mask == obs.action_mask).all()
    assert batch[-1].seat == hands[-1].actor
    with pytest.raises(IndexError):
        batch[5]
    with pytest.raises(AttributeError, match="read-only"):
        batch.masks = None
    with pytest.raises(ValueError):
        batch.masks[0, 0] = 1


def test_act_batch_hands_an_observation_batch_to_batch_agents() -> None:
    from razz_env.encoding.interface import Declaration, ObservationBatch, act_batch, observe
    from razz_env.engine.config import HandConfig
    from razz_env.engine.state import HandState

    seen = []

    class Recorder:
        name = "recorder"
        declaration = Declaration(acts_in_batch=True)

        def act_batch(self, observations):
            seen.append(observations)
            return observations.masks.argmax(axis=1).tolist()

    hands = [HandState(HandConfig.create("razz"), seed=s) for s in range(3)]
    ids = act_batch(Recorder(), [observe(h, h.actor) for h in hands])
    assert isinstance(seen[0], ObservationBatch) and seen[0].views is not None
    assert ids == [int(np.flatnonzero(observe(h, h.actor).action_mask)[0]) for h in hands]


def test_a_subclass_overriding_act_alone_is_asked_one_decision_at_a_time() -> None:
    """A subclass of a batch agent that overrides ``act`` (or ``action_probabilities``) but not the batch method is
    decided by its own override, never by the parent's array code."""
    from razz_env.agents.simple import CallingStation
    from razz_env.encoding.interface import act_batch, action_probabilities, observe
    from razz_env.engine.config import HandConfig
    from razz_env.engine.state import HandState

    class Folder(CallingStation):
        def act(self, observation):
            return self.first_legal(observation, (0, 1, 2))

        def action_probabilities(self, observation):
            return self.one_hot(observation, self.act(observation))

    hands = [HandState(HandConfig.create("razz"), seed=s) for s in range(4)]
    for hand in hands:
        hand.act(hand.legal_actions()[0])
    observations = [observe(h, h.actor) for h in hands]
    folder = Folder()
    assert act_batch(folder, observations) == [folder.act(o) for o in observations]
    assert act_batch(folder, observations) != act_batch(CallingStation(), observations)
    assert (action_probabilities(folder, observations) == [folder.action_probabilities(o) for o in observations]).all()


class _Net:
    """A stand-in for a trained network: reads 676-value flat vectors (heads-up razz at raise cap 4)."""

    name = "net"
    declaration = Declaration(observes=("vector",), vector_size=676)


@pytest.mark.parametrize("table, size, capped", [
    ({"rules": "wsop_2023"}, "1,226", "uncapped heads-up"), ({"raise_cap": 5}, "731", "raise cap 5"),
    ({"raise_cap": 0}, "1,226", "no raise cap"), ({"heads_up_uncapped": True}, "1,226", "uncapped heads-up")])
def test_an_observer_refuses_a_table_whose_vectors_are_another_width(table, size, capped) -> None:
    """Issue 37 item 5: one line naming the agent, the table and both widths, with the history length that
    would carry the table in the agent's width."""
    config = HandConfig.create("razz", num_seats=2, **table)
    with pytest.raises(ConfigError) as refused:
        Observer(_Net(), config)
    assert str(refused.value) == (
        f"agent 'net' reads 676-value 'flat' vectors; this table's (razz, 2 seats, {capped}) have {size}: it cannot "
        "be seated (its width is a history of 6 decisions a street: play it at raise cap 4; keeping each street's "
        "last 6 decisions, history_slots 6, would fit this table in 676 values, but no harness offers it)")
    assert Observer(_Net(), HandConfig.create("razz", num_seats=2)).encoder.size == 676


def test_a_width_no_history_length_fits_is_refused_without_a_hint() -> None:
    class Wide:
        name, declaration = "wide", Declaration(observes=("vector",), encoding="flat8", vector_size=100)

    with pytest.raises(ConfigError, match=r"^agent 'wide' reads 100-value 'flat8' vectors; this table's \(razz, 2 "
                                          r"seats, raise cap 4\) have 2,068: it cannot be seated$"):
        Observer(Wide(), HandConfig.create("razz", num_seats=2))


@pytest.mark.parametrize("declared", [{"vector_size": 0}, {"vector_size": 676.0}, {"vector_size": True},
                                      {"observes": ("view",), "vector_size": 676}])
def test_a_bad_vector_size_is_refused(declared) -> None:
    with pytest.raises(ConfigError, match="declaration: vector_size: expected the positive length"):
        Declaration(**{"observes": ("vector",), **declared})

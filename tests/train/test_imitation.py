"""Behaviour cloning: the recorded decisions are the teacher's own, from its seat only, and the fitted policy
learns to choose as the teacher does (razz_env/train/imitation.py)."""

from __future__ import annotations

import numpy as np
import pytest

from razz_env.agents.registry import make_agent
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import BET_RAISE, BRING_IN, CHECK_CALL
from razz_env.encoding.interface import Declaration
from razz_env.engine import HandConfig
from razz_env.train.imitation import Demonstrations, MaskablePolicy, action_counts, agreement, clone, collect


class SeatKeeper:
    """Raises when one of its up cards is a nine to a king and it can, else checks or calls (or brings in); it checks
    that every observation it gets is of the seat it was reset to."""

    name = "seat_keeper"
    declaration = Declaration(observes=("view",))

    def __init__(self) -> None:
        self.seat = -1
        self.decisions = 0

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.seat = seat

    def act(self, observation) -> int:
        assert observation.seat == self.seat == observation.view.seat
        self.decisions += 1
        mask = observation.action_mask
        strong = max(observation.view.own_up) // 4 >= 8  # card id = rank * 4 + suit, ranks A23456789TJQK
        for choice in ((BET_RAISE, CHECK_CALL, BRING_IN) if strong else (CHECK_CALL, BRING_IN)):
            if mask[choice]:
                return choice
        raise AssertionError(f"no raise, call or bring-in legal: {mask}")


def _demonstrations(hands: int = 120, seed: int = 3) -> tuple[SeatKeeper, Demonstrations]:
    table = HandConfig.create("stud", num_seats=2, stacks=1000)
    teacher = SeatKeeper()
    opponents = [make_agent("calling_station"), make_agent("rock")]
    return teacher, collect(teacher, opponents, [1, 1], table, make_encoder("flat", table), hands, seed)


def test_every_teacher_decision_is_recorded_with_its_own_seats_vector_and_a_legal_id() -> None:
    teacher, demos = _demonstrations()
    assert len(demos) == teacher.decisions > 120
    assert demos.vectors.shape == (len(demos), make_encoder("flat", HandConfig.create("stud", num_seats=2)).size)
    assert all(demos.masks[row, action] for row, action in enumerate(demos.actions))
    assert set(np.unique(demos.hands)) == set(range(120)), "the teacher acts in every hand"
    per_hand = {hand: set(demos.returns[demos.hands == hand].tolist()) for hand in range(120)}
    assert all(len(values) == 1 for values in per_hand.values()), "every decision of a hand carries its result"
    assert action_counts(demos)[BET_RAISE] > 0 and sum(action_counts(demos)) == len(demos)


def test_the_same_seed_records_the_same_decisions() -> None:
    _, first = _demonstrations(seed=5)
    _, again = _demonstrations(seed=5)
    _, other = _demonstrations(seed=6)
    for name in ("vectors", "masks", "actions", "returns", "hands"):
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
    assert not np.array_equal(first.returns, other.returns)


def test_split_keeps_each_hand_on_one_side() -> None:
    _, demos = _demonstrations()
    fit, held = demos.split(0.25)
    assert len(fit) + len(held) == len(demos) and len(held) > 0
    assert not set(fit.hands.tolist()) & set(held.hands.tolist())
    assert held.hands.min() > fit.hands.max()


@pytest.mark.parametrize(("hands", "weights", "message"), [(0, [1, 1], "hands: expected a positive number of hands"),
                                                           (5, [1], "weights: expected one weight per opponent")])
def test_collect_refuses_bad_arguments(hands: int, weights: list[float], message: str) -> None:
    table = HandConfig.create("stud", num_seats=2)
    with pytest.raises(ValueError, match=message):
        collect(SeatKeeper(), [make_agent("rock"), make_agent("tag")], weights, table, make_encoder("flat", table),
                hands, 0)


def test_clone_fits_the_teachers_rule_and_leaves_the_models_optimizer_alone() -> None:
    from sb3_contrib import MaskablePPO

    from razz_env.envs.single_agent import SingleAgentEnv

    _, demos = _demonstrations(hands=300)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(variant="stud", stacks=1000),
                        policy_kwargs={"net_arch": [64]}, device="cpu", seed=0)
    before = agreement(MaskablePolicy(model), demos)
    optimizer_state = model.policy.optimizer.state_dict()
    rows = clone(model, demos, epochs=40, batch_size=128, learning_rate=3e-3, holdout=0.2)
    assert [row["epoch"] for row in rows] == list(range(1, 41))
    assert rows[-1]["policy_loss"] < rows[0]["policy_loss"] / 5
    assert rows[-1]["held_out_agreement"] >= 0.9 > 0.8 > before, "the teacher's majority action is ~73%"
    assert model.policy.optimizer.state_dict() == optimizer_state


def test_clone_refuses_too_few_hands_to_hold_any_out() -> None:
    _, demos = _demonstrations(hands=1)
    with pytest.raises(ValueError, match="held out; collect more hands"):
        clone(object(), demos, epochs=1)


class Seated:
    """Checks or calls; records the seats it is reset to in a log shared by a hand's players (a hand's seats in
    order), and checks that each observation it gets is of a seat it holds in the hand being played."""

    declaration = Declaration(observes=("view",))

    def __init__(self, name: str, log: list[dict[int, str]], seats: int) -> None:
        self.name, self.log, self.seats = name, log, seats

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        if not self.log or len(self.log[-1]) == self.seats:
            self.log.append({})
        self.log[-1][seat] = self.name

    def act(self, observation) -> int:
        assert self.log[-1][observation.seat] == self.name, "an opponent acts only at the seats drawn for it"
        return CHECK_CALL if observation.action_mask[CHECK_CALL] else BRING_IN


def test_a_multiway_hand_draws_each_other_seats_opponent() -> None:
    table = HandConfig.create("razz", num_seats=6, stacks=1000)
    log: list[dict[int, str]] = []
    teacher = Seated("teacher", log, 6)
    opponents = [Seated("a", log, 6), Seated("b", log, 6), Seated("c", log, 6)]
    demos = collect(teacher, opponents, [1, 1, 2], table, make_encoder("flat", table), 120, 4)
    assert len(log) == 120 and all(sorted(hand) == list(range(6)) for hand in log)
    assert [next(s for s, name in hand.items() if name == "teacher") for hand in log] == [i % 6 for i in range(120)]
    drawn = [name for hand in log for name in hand.values() if name != "teacher"]
    assert sum(len({n for n in hand.values() if n != "teacher"}) > 1 for hand in log) > 100, "tables are mixed"
    assert 0.4 < drawn.count("c") / len(drawn) < 0.6 and min(drawn.count("a"), drawn.count("b")) > 100
    assert demos.vectors.shape[1] == make_encoder("flat", table).size and set(demos.hands.tolist()) == set(range(120))

"""The batched trainer's imitation start: a network fitted to a teacher's play, saved as the checkpoint a run goes on
from (razz_env/train/batch_imitation.py)."""

from __future__ import annotations

import dataclasses
import json

import pytest
import torch

from razz_env.encoding.encoders import FlatEncoder
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.train.batch_imitation import imitation_start
from razz_env.train.batch_ppo import Args, read_checkpoint, train
from razz_env.train.imitation import ImitationSettings

SMALL = {"variant": "razz", "num_tables": 32, "num_steps": 8, "num_minibatches": 2, "hidden": (64,),
         "torch_threads": 1, "quiet": True, "seed": 4}
TEACHER = ImitationSettings(teacher="tag", hands=400, epochs=25, batch_size=256, learning_rate=3e-3, seed=2,
                            opponents=["calling_station", "rock"], weights=[1.0, 1.0])


@pytest.fixture(scope="module")
def started(tmp_path_factory) -> tuple[Args, dict, object]:
    folder = tmp_path_factory.mktemp("imitation")
    args = Args(**SMALL, output=str(folder / "run"), total_steps=32 * 8)
    record = imitation_start(args, TEACHER, folder / "start.pt")
    return args, record, folder


def test_the_start_plays_like_its_teacher_and_a_run_goes_on_from_it(started) -> None:
    args, record, folder = started
    counts = record["teacher_action_counts"]
    majority = max(counts) / sum(counts)
    rows = record["epochs_run"]
    assert record["decisions"] == sum(counts) > 400 and len(rows) == TEACHER.epochs
    assert rows[-1]["held_out_agreement"] > majority + 0.3, "its majority action is 41% of its decisions"
    assert rows[-1]["policy_loss"] < rows[0]["policy_loss"] / 2
    state = read_checkpoint(folder / "start.pt")
    assert (state["update"], state["steps"], state["pool"], state["magnet"]) == (0, 0, [], None)
    assert state["optimizer"]["state"] == {}, "the run's own optimizer starts fresh"

    seen = {}

    def hook(progress) -> bool:
        seen["update"] = progress.update
        seen["first_weight"] = progress.agent.actor[0].weight.detach().clone()
        return False

    train(args, hook=hook, resume=folder / "start.pt")
    assert seen["update"] == 1, "the run's first update is the chain's first"
    cloned = state["agent"]["actor.0.weight"]
    moved = (seen["first_weight"] - cloned).abs().max().item()
    assert 0 < moved < 0.05, "one update moved the cloned weights a little, from where the fit left them"


def test_the_same_settings_fit_the_same_network(started, tmp_path) -> None:
    args, record, folder = started
    again = imitation_start(args, TEACHER, tmp_path / "again.pt")
    assert again["epochs_run"] == record["epochs_run"]
    first, second = read_checkpoint(folder / "start.pt")["agent"], read_checkpoint(tmp_path / "again.pt")["agent"]
    assert all(torch.equal(first[key], second[key]) for key in first)


@pytest.mark.parametrize(("args", "settings", "message"), [
    (Args(device="cuda"), TEACHER, "imitation start: fits a run that trains on the CPU; this one trains on cuda"),
    (Args(), ImitationSettings(teacher="nobody"), "teacher or opponents: unknown agent 'nobody'"),
    (Args(), ImitationSettings(opponents=["rock", "tagg"], weights=[1.0, 1.0]), "unknown agent 'tagg'"),
    (Args(num_minibatches=7), TEACHER, "num-minibatches: 7 does not divide"),
    (Args(), ImitationSettings(teacher="stud8_heuristic"), "teacher or opponents: agent 'stud8_heuristic' plays stud8"),
    (Args(), ImitationSettings(opponents=["ppo_stud"], weights=[1.0]), "teacher or opponents: agent 'ppo_stud' "
                                                                       "plays stud at 2 seats; it cannot be seated"),
])
def test_bad_settings_are_refused_before_anything_is_written(args, settings, message, tmp_path) -> None:
    with pytest.raises(ConfigError, match=message):
        imitation_start(args, settings, tmp_path / "start.pt")
    assert not any(tmp_path.iterdir())


def test_too_few_hands_to_hold_one_out_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="hands: must be at least 10, got 9"):
        ImitationSettings(hands=9)


def test_a_chain_goes_on_from_its_imitation_stage(tmp_path) -> None:
    from razz_env.train.batch_imitation import IMITATION_RECORD, imitation_stage
    from razz_env.train.budgeted import CHECKPOINT, BudgetedRun, Checkpoints, read_state

    settings = {**SMALL, "hidden": [64], "total_steps": 10**9}
    quick = dataclasses.replace(TEACHER, hands=60, epochs=2)
    start = imitation_stage(tmp_path / "stage0", settings, quick)
    first = read_state(start, settings)
    assert (first["update"], first["steps"]) == (0, 0) and first["clock"][0] > 0
    assert json.loads((start / IMITATION_RECORD).read_text())["hands"] == 60
    written = (start / CHECKPOINT).stat().st_mtime_ns
    assert imitation_stage(start, settings, quick) == start and (start / CHECKPOINT).stat().st_mtime_ns == written
    with pytest.raises(ConfigError, match="holds a run with other settings"):
        imitation_stage(start, {**settings, "seed": 5}, quick)
    BudgetedRun(tmp_path / "stage1", settings, minutes=float("inf"), every=3600, evaluator=Checkpoints(),
                max_steps=2 * 32 * 8, start_from=start).run()
    after = read_state(tmp_path / "stage1", settings)
    assert (after["update"], after["steps"]) == (2, 2 * 32 * 8)
    assert after["clock"][0] > first["clock"][0], "the imitation's CPU time is the chain's first"


def test_a_six_handed_run_goes_on_from_its_imitation_start(tmp_path) -> None:
    """A six-seat run with mixed tables starts from a network fitted at its own table (its six-seat vectors)."""
    args = Args(**{**SMALL, "num_tables": 48}, num_seats=6, mixed_tables=True, self_play_fraction=0.5,
                opponents=["calling_station", "rock"], opponent_weights=[1.0, 1.0], output=str(tmp_path / "run"),
                total_steps=48 * 8)
    record = imitation_start(args, dataclasses.replace(TEACHER, hands=60, epochs=2), tmp_path / "start.pt")
    assert record["decisions"] == sum(record["teacher_action_counts"]) > 60
    weight = read_checkpoint(tmp_path / "start.pt")["agent"]["actor.0.weight"]
    assert weight.shape[1] == FlatEncoder(HandConfig.create("razz", num_seats=6)).size
    seen = []

    def hook(progress) -> bool:
        seen.append(progress.update)
        return False

    train(args, hook=hook, resume=tmp_path / "start.pt")
    assert seen == [1], "the six-seat run's first update goes on from the start"

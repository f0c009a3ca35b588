"""A sampled CFR chain's stage in its folder: stages chain into the uninterrupted run byte for byte, resume from their
checkpoint, and refuse another chain's folder or an unfinished stage before them by name."""

import json

import pytest

from razz_env.engine.errors import ConfigError
from razz_env.train.sampled_stage import CHECKPOINT, POLICY, SampledStage

pytest.importorskip("numba")
TABLE = {"variant": "minirazz_tiny"}


def stage(folder, until, start_from=None, seed=3, **options):
    return SampledStage(folder, TABLE, "exact", seed, until=until, start_from=start_from, every=100, **options)


def test_two_stages_make_the_uninterrupted_run_byte_for_byte(tmp_path):
    whole = stage(tmp_path / "whole", 500).run(lambda line: None)
    first = stage(tmp_path / "one", 200, record={"stage": 1}).run(lambda line: None)
    second = stage(tmp_path / "two", 500, tmp_path / "one", record={"stage": 2}).run(lambda line: None)
    for name in (CHECKPOINT, POLICY):
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert (whole["iterations"], first["stage"], second["stage"]) == (500, 1, 2)
    assert (second["stage_iterations"], second["from_iterations"], second["done"]) == (300, 200, True)
    assert second["chain_cpu_seconds"] >= first["chain_cpu_seconds"]
    assert second["stage_cpu_minutes"] == pytest.approx((second["chain_cpu_seconds"] - first["chain_cpu_seconds"])
                                                        / 60, abs=0.01)
    lines = []
    assert stage(tmp_path / "two", 500, tmp_path / "one").run(lines.append) == second
    assert lines == [f"{tmp_path / 'two'}: finished (500 iterations)"]


def test_a_stage_cut_after_its_last_checkpoint_writes_its_policy_when_rerun(tmp_path):
    folder = tmp_path / "cut"
    stage(folder, 300).run(lambda line: None)
    made = (folder / POLICY).read_bytes()
    (folder / POLICY).unlink()
    state = json.loads((folder / "state.json").read_text())
    (folder / "state.json").write_text(json.dumps({**state, "done": False}))
    again = stage(folder, 300).run(lambda line: None)
    assert again["done"] and again["iterations"] == 300 and (folder / POLICY).read_bytes() == made


def test_another_chains_folder_and_an_unfinished_stage_before_are_refused_by_name(tmp_path):
    stage(tmp_path / "one", 200).run(lambda line: None)
    with pytest.raises(ConfigError, match=r"holds a stage of another chain \(seed 3, not 4\)"):
        stage(tmp_path / "one", 200, seed=4).run(lambda line: None)
    with pytest.raises(ConfigError, match=r"holds a stage of another chain \(seed 3, not 4\)"):
        stage(tmp_path / "two", 400, tmp_path / "one", seed=4).run(lambda line: None)
    with pytest.raises(ConfigError, match="goes on from .*missing, which is not finished; run it first"):
        stage(tmp_path / "three", 400, tmp_path / "missing").run(lambda line: None)
    with pytest.raises(ConfigError, match="at 200 iterations, past the stage's end \\(100\\)"):
        stage(tmp_path / "one", 100).start()
    assert not (tmp_path / "two").exists() and not (tmp_path / "three").exists()  # nothing written


MODEL = {"agents": ["calling_station"], "weights": [0.5], "partners": ["random"], "hands": 200, "seed": 0, "full": 1}


def test_a_chain_against_a_model_builds_it_once_and_chains_byte_for_byte(tmp_path):
    lines = []
    whole = stage(tmp_path / "whole", 500, model=MODEL).run(lines.append)
    assert lines[0] == f"{tmp_path / 'whole'}: building the opponent model (200 hands of calling_station)"
    stage(tmp_path / "one", 200, model=MODEL).run(lambda line: None)
    second = stage(tmp_path / "two", 500, tmp_path / "one", model=MODEL).run(lambda line: None)
    for name in (CHECKPOINT, POLICY):
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert whole["model"] == second["model"] == MODEL
    assert whole["adversary_infosets"] == second["adversary_infosets"] > 0
    plain = stage(tmp_path / "plain", 500).run(lambda line: None)
    assert "model" not in plain
    assert (tmp_path / "plain" / POLICY).read_bytes() != (tmp_path / "two" / POLICY).read_bytes()
    with pytest.raises(ConfigError, match=r"holds a stage of another chain \(model None, not"):
        stage(tmp_path / "three", 800, tmp_path / "plain", model=MODEL).run(lambda line: None)
    with pytest.raises(ConfigError, match=r"holds a stage of another chain \(model \{"):
        stage(tmp_path / "one", 200).run(lambda line: None)


def test_the_models_cpu_time_is_the_chains(tmp_path, monkeypatch):
    """Building the model is part of what the chain cost (a recipe's minutes count it)."""
    import time

    from razz_env.train import opponent_model

    real = opponent_model.build_model

    def slow(*args):
        began = time.process_time()
        while time.process_time() - began < 0.5:
            pass
        return real(*args)

    monkeypatch.setattr(opponent_model, "build_model", slow)
    state = stage(tmp_path / "one", 100, model=MODEL).run(lambda line: None)
    assert state["chain_cpu_seconds"] >= 0.5 and state["stage_cpu_minutes"] >= 0.5 / 60

"""Tabular policies: keys, save and load (and what a load refuses), translation to the suited game."""

import json

import numpy as np
import pytest

from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.solve.game import build_game
from razz_env.solve.policy import TabularPolicy, translate


def test_keys_and_probabilities(tiny, solved):
    keys = solved.keys()
    assert len(keys) == tiny.num_infosets
    table = solved.table()
    for index in (0, 100, len(keys) - 1):
        assert np.array_equal(solved[keys[index]], table[index])
    first = solved["s1 [3]A vs 2 low 2:s1 : b"]
    assert first[[0, 1, 2]].sum() == pytest.approx(1.0) and first[[3, 4]].sum() == 0.0


def test_save_and_load_round_trip(tmp_path, tiny, solved):
    path = solved.save(tmp_path / "tiny")
    assert path.name == "tiny.npz"
    for game in (tiny, None):
        loaded = TabularPolicy.load(path, game)
        assert np.array_equal(loaded.table(), solved.table())
        assert (loaded.iterations, loaded.method) == (solved.iterations, "cfr+") and solved.iterations > 0
        assert loaded.exploitability_mbb == pytest.approx(solved.exploitability_mbb)
    assert loaded.game.identity() == tiny.identity()


def test_load_refuses_a_policy_for_another_game(tmp_path, solved):
    path = solved.save(tmp_path / "tiny.npz")
    for other in (build_game("minirazz_small"), build_game(HandConfig.create("minirazz_tiny", raise_cap=1)),
                  build_game("minirazz_tiny", suited=True)):
        with pytest.raises(ConfigError, match=r"tiny.npz: solved for minirazz_tiny \(rank game, .* cap 2\), not for "):
            TabularPolicy.load(path, other)


def test_load_refuses_damaged_and_foreign_files(tmp_path, solved):
    path = solved.save(tmp_path / "tiny.npz")
    with np.load(path) as data:
        header, table = bytes(data["header"]), np.array(data["probabilities"])
    table[0, 2] += 0.5
    damaged = tmp_path / "damaged.npz"
    np.savez(damaged, probabilities=table, header=np.frombuffer(header, dtype=np.uint8))
    with pytest.raises(ConfigError, match="damaged.npz: the probabilities do not match their SHA-256"):
        TabularPolicy.load(damaged)
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3))
    with pytest.raises(ConfigError, match="other.npz: not a tabular policy file"):
        TabularPolicy.load(other)
    text = tmp_path / "notes.npz"
    text.write_text("hello")
    with pytest.raises(ConfigError, match="notes.npz: not a tabular policy file"):
        TabularPolicy.load(text)
    with pytest.raises(ConfigError, match="missing.npz: no such file"):
        TabularPolicy.load(tmp_path / "missing.npz")
    future = json.loads(header)
    future["version"] = 99
    newer = tmp_path / "newer.npz"
    np.savez(newer, probabilities=table, header=np.frombuffer(json.dumps(future).encode(), dtype=np.uint8))
    with pytest.raises(ConfigError, match="newer.npz: format version 99; this library reads 1"):
        TabularPolicy.load(newer)


def test_a_policy_is_checked_against_its_game(tiny, solved):
    with pytest.raises(ValueError, match=r"policy array of shape \(2, 5, 6\)"):
        TabularPolicy(tiny, np.zeros((2, 5, 6)))
    with pytest.raises(ValueError, match=r"policy table of shape \(3, 5\)"):
        TabularPolicy.from_table(tiny, np.zeros((3, 5)))
    bad = solved.table().copy()
    bad[0] = [0, 0, 0.7, 0.7, 0]  # the bring-in seat: complete or bring in
    with pytest.raises(ValueError, match="sum to 1 within"):
        TabularPolicy.from_table(tiny, bad).validate()
    bad[0] = [0, 0, 0.5, 0, 0.5]
    with pytest.raises(ValueError, match="probability on an illegal action"):
        TabularPolicy.from_table(tiny, bad).validate()
    with pytest.raises(ConfigError, match="this policy is for minirazz_tiny .* not minirazz_small"):
        solved.check_game(build_game("minirazz_small"))


def test_translate_only_to_the_same_table(tiny, solved):
    assert translate(solved, tiny) is solved
    suited = build_game("minirazz_tiny", suited=True)
    lifted = translate(solved, suited)
    lifted.validate()
    with pytest.raises(ConfigError, match="plays only in that game or its suited form"):
        translate(solved, build_game("minirazz_small"))
    with pytest.raises(ConfigError, match="plays only in that game or its suited form"):
        translate(lifted, tiny)

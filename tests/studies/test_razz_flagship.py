"""``studies/razz_flagship.py``: a later stage needs the one before, and (slow) two stages chain into one run, which
an arm's stage 2 goes on from with other tables, and whose stages are measured as one mixture; the six-handed games
train at mixed tables and are measured at six-handed tables beside ``razz_heuristic`` in their seat."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import shutil
from types import SimpleNamespace

import pytest


@pytest.mark.parametrize("args, named", [
    (["--stage", "0"], "--stage: must be at least 1, got 0"),
    (["--stage", "2"], "--stage 2: stage 1 of seed 1 is not finished"),
    (["--checkpoint-every", "0"], "--checkpoint-every: must be more than 0, got 0"),
    (["--select"], "--select: stage 1 of seed 1 is not finished"),
    (["--lbr"], "--lbr: stage 1 of seed 1 is not finished"),
    (["--accept"], "--accept: stage 1 of seed 1 is not finished"),
    (["--keep"], "--keep: stage 1 of seed 1 is not finished"),
    (["--agent", "ppo_razz_psro"], "--agent: measures an agent by the selection rule, LBR or the acceptance run; "
                                   "give --select, --lbr or --accept too"),
    (["--agent", "ppo_razz_psro", "--select", "--keep"], "--agent: measures an agent made elsewhere (no --keep"),
    (["--agent", "ppo_razz_psro", "--accept"], "--accept: no selection.json in"),
    (["--select", "--threshold", "0.15"], "--threshold: plays a sampled solver's policy file (--agent ....npz) "
                                          "thresholded at a probability below 1; got --threshold 0.15 without --agent"),
    (["--select", "--agent", "ppo_razz_psro", "--threshold", "0.15"], "got --threshold 0.15 with --agent ppo_razz"),
    (["--select", "--agent", "x.npz", "--threshold", "1"], "probability below 1; got --threshold 1 with --agent x"),
    (["--arm", "opponents"], "--arm opponents: stages before 2 are self-play in every arm; the arm begins at stage 2"),
    (["--arm", "pool", "--stage", "3"], "--arm pool: stages before 4 are self-play in every arm; the arm begins at "
                                        "stage 4"),
    (["--arm", "magnet"], "argument --arm: invalid choice: 'magnet' (choose from 'self_play', 'opponents', 'pool', "
                          "'calm', 'rivals', 'cloned', 'mixed_tables', 'drawn', 'gentle')"),
    (["--arm", "calm", "--stage", "3"], "--arm calm: stages before 4 are self-play in every arm; the arm begins at "
                                        "stage 4"),
    (["--game", "stud8", "--arm", "pool"], "--arm pool: the stud8 agent trains in opponents, cloned"),
    (["--game", "stud8", "--arm", "self_play"], "--arm self_play: the stud8 agent trains in opponents, cloned"),
    (["--game", "holdem"], "argument --game: invalid choice: 'holdem' (choose from 'razz', 'stud8', 'action_razz', "
                           "'razz6', 'stud6')"),
    (["--game", "action_razz", "--accept"], "--accept: stage 1 of seed 1 is not finished"),
    (["--game", "razz6", "--lbr"], "--lbr: LBR is measured heads-up only (razz, stud8, action_razz); the razz6 agent "
                                   "plays at 6 seats"),
    (["--game", "stud6", "--arm", "pool"], "--arm pool: the stud6 agent trains in mixed_tables, cloned, drawn"),
    (["--arm", "mixed_tables"], "--arm mixed_tables: the razz agent trains in self_play, opponents, pool, calm, "
                                "rivals, cloned"),
    (["--game", "razz6", "--select"], "--select: stage 1 of seed 1 is not finished"),
    (["--game", "stud6", "--stage", "2"], "--stage 2: stage 1 of seed 1 is not finished"),
    (["--game", "razz6", "--deals", "1"], "--deals: must be at least 2, got 1"),
    (["--average", "2", "3"], "--average: measures the mixture of finished stages with --select or --lbr"),
    (["--average", "2", "3", "--select", "--accept"], "--average: measures the mixture of finished stages"),
    (["--average", "0", "2", "--select"], "--average: expected distinct stage numbers from 1, got 0 2"),
    (["--average", "2", "2", "--lbr"], "--average: expected distinct stage numbers from 1, got 2 2"),
    (["--average", "2", "3", "--select"], "--average: stage 2 of seed 1 has no final.pt"),
    (["--game", "razz6", "--average", "1", "--select"], "--average: measured heads-up only; the razz6 agent plays at "
                                                       "6 seats"),
])
def test_bad_settings_and_a_missing_earlier_stage_exit_2_and_write_nothing(study, tmp_path, args, named):
    study("razz_flagship").assert_refuses([*args, "--output", str(tmp_path / "out"),
                                           "--release", str(tmp_path / "release")], named)
    assert not (tmp_path / "out").exists() and not (tmp_path / "release").exists()


def test_two_selection_seeds_pool_as_one_match(load_study):
    def result(mean, half, aivat, aivat_half):
        return SimpleNamespace(bb_per_100=mean, ci95_low=mean - half, aivat_bb_per_100=aivat,
                               aivat_ci95_low=aivat - aivat_half)

    figures = load_study("razz_flagship").pooled([result(10.0, 3.0, 8.0, 6.0), result(20.0, 4.0, 4.0, 8.0)])
    assert figures == pytest.approx({"bb100": 15.0, "low": 12.5, "high": 17.5, "aivat_bb100": 6.0,
                                     "aivat_low": 1.0, "aivat_high": 11.0})


@pytest.mark.slow
def test_two_stages_train_one_run(study, tmp_path):
    """About a minute: two stages of one update of razz each, the first kept in a release folder and restored
    from it."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    flagship = study("razz_flagship")
    release = ["--release", str(tmp_path / "release")]
    ran = flagship.run("--stage", "1", "--stage-updates", "1", "--output", str(tmp_path))
    assert ran.returncode == 0, ran.stderr
    kept = flagship.run("--stage", "1", "--stage-updates", "1", "--output", str(tmp_path), "--keep", *release)
    assert kept.returncode == 0 and "kept stage 1 of seed 1" in kept.stdout, kept.stderr
    shutil.rmtree(tmp_path / "seed1")  # a later session: the run folders are gone, the release is committed
    ran = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path), *release)
    assert ran.returncode == 0 and "restored stage 1 of seed 1" in ran.stdout, ran.stderr
    assert hashlib.sha256((tmp_path / "seed1" / "stage1" / "checkpoint.pt").read_bytes()).hexdigest() in kept.stdout
    first, second = (json.loads((tmp_path / "seed1" / f"stage{i}" / "state.json").read_text()) for i in (1, 2))
    assert (first["update"], first["steps"], second["update"], second["steps"]) == (1, 32768, 2, 65536)
    assert second["clock"][0] > first["clock"][0] and (tmp_path / "seed1" / "stage2" / "final.pt").exists()
    again = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path))
    assert again.returncode == 0 and "finished already" in again.stdout
    measured = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path), "--select",
                            "--deals", "2")
    assert measured.returncode == 0, measured.stderr
    selection = json.loads((tmp_path / "seed1" / "stage2" / "selection.json").read_text())
    assert selection["seeds"] == [41001, 41002] and set(selection["opponents"]) == {"razz_heuristic", "monte_carlo",
                                                                                     "ppo_razz_psro"}
    assert selection["score"] == min(item["aivat_low"] for item in selection["opponents"].values())
    assert all(item["hands"] == 8 for item in selection["opponents"].values())
    assert measured.stdout.startswith("| 1 | 2 | 65,536 |")
    bounded = flagship.run("--stage", "2", "--stage-updates", "1", "--output", str(tmp_path), "--lbr",
                           "--lbr-deals", "2")
    assert bounded.returncode == 0, bounded.stderr
    bounds = json.loads((tmp_path / "seed1" / "stage2" / "lbr.json").read_text())
    assert bounds["deals"] == 2 and all(bounds[p]["low"] <= bounds[p]["bb100"] <= bounds[p]["high"]
                                        for p in ("sampled", "argmax"))
    assert "LBR sampled" in bounded.stdout and "argmax" in bounded.stdout
    scaled = flagship.run("--select", "--agent", "razz_heuristic", "--deals", "2", "--output", str(tmp_path))
    assert scaled.returncode == 0, scaled.stderr
    assert set(json.loads(scaled.stdout)["opponents"]) == {"monte_carlo", "ppo_razz_psro"}
    averaged = flagship.run("--average", "1", "2", "--select", "--lbr", "--deals", "2", "--lbr-deals", "1",
                            "--output", str(tmp_path), *release)  # stage 1 from the release, stage 2 from the run
    assert averaged.returncode == 0, averaged.stderr
    folder = tmp_path / "seed1" / "average-1-2"
    selection = json.loads((folder / "selection.json").read_text())
    assert [m["type"] for m in selection["policy"]["members"]] == [
        str(tmp_path / "release" / "seed1" / "stage1" / "final.pt"), str(tmp_path / "seed1" / "stage2" / "final.pt")]
    assert all(item["hands"] == 8 for item in selection["opponents"].values())
    assert averaged.stdout.splitlines()[-1].startswith("| 1 | average-1-2 |")
    assert json.loads((folder / "lbr.json").read_text())["deals"] == 1
    assert "LBR sampled" in averaged.stdout and "n/a]" in averaged.stdout  # one deal: no CI, said so


@pytest.mark.slow
def test_an_arm_goes_on_from_stage_one_and_a_candidate_takes_acceptance_once(study, load_study, monkeypatch, tmp_path):
    """About two minutes: stage 1 and the opponents arm's stage 2, one update each; the acceptance protocol (with
    two of its fourteen opponents, for time) on three seeds, which no later acceptance run may use."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    flagship = study("razz_flagship")
    for arm in ("self_play", "opponents"):
        stage = "1" if arm == "self_play" else "2"
        ran = flagship.run("--stage", stage, "--arm", arm, "--stage-updates", "1", "--output", str(tmp_path))
        assert ran.returncode == 0, ran.stderr
    folder = tmp_path / "seed1" / "stage2-opponents"
    other = json.loads((folder / "state.json").read_text())
    assert (other["update"], other["settings"]["self_play_fraction"]) == (2, 0.5)
    assert other["settings"]["opponents"][:2] == ["monte_carlo", "razz_heuristic"]
    stage2 = ["--stage", "2", "--arm", "opponents", "--stage-updates", "1", "--output", str(tmp_path)]
    written = flagship.run(*stage2, "--recipe", "tiny_flagship")
    assert written.returncode == 0, written.stderr
    from razz_env import recipes

    chain = recipes.load_recipe("tiny_flagship", tmp_path)
    one, two = chain.stages
    assert (one.name, two.name, two.continues is one, two.until) == ("stage1", "stage2_opponents", True, 65536)
    assert two.config == other["settings"] and chain.product == "@stage2_opponents/final.pt"
    assert two.checkpoint_sha256 == hashlib.sha256((folder / "checkpoint.pt").read_bytes()).hexdigest()
    flagship.assert_refuses([*stage2, "--recipe", "Bad-Name"], "--recipe: expected a lowercase name")
    flagship.assert_refuses([*stage2, "--accept"], "--accept: no selection.json in")
    (folder / "selection.json").write_text(json.dumps({"score": 4.9}))
    flagship.assert_refuses([*stage2, "--accept"], "selection score is +4.9; the rule sends a candidate to "
                                                   "acceptance at +5 or more")
    (folder / "selection.json").write_text(json.dumps({"score": 6.0}))  # as if it had scored +6: the protocol runs
    module = load_study("razz_flagship")
    monkeypatch.setitem(module.GAMES, "razz", dataclasses.replace(module.GAMES["razz"], must_beat=("random",),
                                                                  must_hold=("calling_station",)))
    verdict = module.acceptance(module.Args(stage=2, arm="opponents", stage_updates=1, output=str(tmp_path),
                                            acceptance_deals=2, acceptance_seeds=(7, 8, 9)), folder)
    assert verdict["seeds"] == [7, 8, 9] and len(verdict["rows"]) == 3 * 2 and verdict["score"] == 6.0
    assert verdict["passed"] == all(row["passed"] for row in verdict["rows"])
    assert all(row["passed"] == (row["aivat_low"] >= 5 if row["rule"] == "beat" else row["aivat_high"] >= 0)
               for row in verdict["rows"])
    table = module.crosstable(verdict).splitlines()
    assert table[0] == "| opponent | rule | seed 7 | seed 8 | seed 9 |" and table[2].startswith("| random | beat | ")
    assert table[-1] in ("verdict: passes", "verdict: fails")
    (folder / "acceptance.json").write_text(json.dumps(verdict))
    flagship.assert_refuses([*stage2, "--accept", "--acceptance-seeds", "9", "10", "11"],
                            "--acceptance-seeds: 9 was used by an earlier acceptance run")


def test_an_agent_made_elsewhere_is_measured_into_its_own_folder_and_takes_acceptance_once(study, load_study,
                                                                                           monkeypatch, tmp_path):
    flagship, module = study("razz_flagship"), load_study("razz_flagship")
    base = ["--agent", "razz_heuristic", "--output", str(tmp_path)]
    folder = module.agent_folder(module.Args(agent="razz_heuristic", output=str(tmp_path)))
    assert folder == tmp_path / "agents" / "razz_heuristic"
    folder.mkdir(parents=True)
    (folder / "selection.json").write_text(json.dumps({"score": 4.9}))
    flagship.assert_refuses([*base, "--accept"], "selection score is +4.9; the rule sends a candidate to acceptance "
                                                 "at +5 or more")
    (folder / "selection.json").write_text(json.dumps({"score": 6.0}))  # as if it had scored +6: the protocol runs
    monkeypatch.setitem(module.GAMES, "razz", dataclasses.replace(module.GAMES["razz"], must_beat=("random",),
                                                                  must_hold=("calling_station",)))
    module.main(module.Args(agent="razz_heuristic", accept=True, output=str(tmp_path), acceptance_deals=2,
                            acceptance_seeds=(7, 8, 9)))
    verdict = json.loads((folder / "acceptance.json").read_text())
    assert (verdict["policy"], verdict["seeds"], verdict["score"], len(verdict["rows"])) == (
        "razz_heuristic", [7, 8, 9], 6.0, 6)
    assert [row["opponent"] for row in verdict["rows"][:2]] == ["random", "calling_station"]
    flagship.assert_refuses([*base, "--accept", "--acceptance-seeds", "9", "10", "11"],
                            "--acceptance-seeds: 9 was used by an earlier acceptance run")
    other = tmp_path / "agents" / "monte_carlo"  # another agent: the seeds are spent for every candidate
    other.mkdir()
    (other / "selection.json").write_text(json.dumps({"score": 6.0}))
    flagship.assert_refuses(["--agent", "monte_carlo", "--output", str(tmp_path), "--accept", "--acceptance-seeds",
                             "6", "7", "12"], "--acceptance-seeds: 7 was used by an earlier acceptance run")


@pytest.mark.parametrize("game", ["razz", "action_razz", "stud8"])
def test_lbr_plays_a_thresholded_policy_file_thresholded_and_its_argmax_plain_at_its_games_table(
        load_study, monkeypatch, tmp_path, game):
    module = load_study("razz_flagship")
    played, tables = [], []

    def bound(spec, method, **options):
        played.append(spec)
        tables.append(options["variant"])
        return SimpleNamespace(bb_per_100=1.0, ci95_low=0.0, ci95_high=2.0, off_policy_actions=0)

    import razz_env.exploit.api

    monkeypatch.setattr(razz_env.exploit.api, "exploitability", bound)
    args = module.resolved(module.Args(game=game, agent="x.npz", threshold=0.15, lbr=True, output=str(tmp_path)))
    bounds = module.local_best_response(args, tmp_path, agent="x.npz")
    assert tables == [game, game]  # the game's own table (razz's LBR refused an Action Razz policy)
    assert [spec.get("threshold") for spec in played] == [0.15, None]
    assert [spec["deterministic"] for spec in played] == [False, True]
    assert bounds["sampled"]["bb100"] == 1.0 and bounds["argmax"]["high"] == 2.0


@pytest.mark.slow
def test_the_pool_arm_goes_on_from_the_self_play_stage_before_it_begins(study, tmp_path):
    """About a minute: three self-play stages and the pool arm's stage 4, one update each, in one run."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    flagship = study("razz_flagship")
    for stage, arm in (("1", "self_play"), ("2", "self_play"), ("3", "self_play"), ("4", "pool")):
        ran = flagship.run("--stage", stage, "--arm", arm, "--stage-updates", "1", "--output", str(tmp_path),
                           "--release", str(tmp_path / "release"))
        assert ran.returncode == 0, ran.stderr
    state = json.loads((tmp_path / "seed1" / "stage4-pool" / "state.json").read_text())
    assert (state["update"], state["steps"], state["settings"]["pool_fraction"]) == (4, 4 * 32768, 0.5)
    import torch

    saved = torch.load(tmp_path / "seed1" / "stage4-pool" / "checkpoint.pt", weights_only=False)
    assert len(saved["pool"]) == 1  # stage 3's policy joined the pool when the arm began


def test_a_cloned_chain_begins_from_an_imitation_start(load_study, tmp_path, monkeypatch, capsys):
    """Seconds: the imitation (40 hands, one epoch) and one update of Action Razz's stage 1 from it, written as a
    recipe whose first stage starts from the same imitation."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    module = load_study("razz_flagship")
    quick = {"cloned": {"teacher": "tag", "hands": 40, "epochs": 1}}
    monkeypatch.setitem(module.GAMES, "action_razz", dataclasses.replace(module.GAMES["action_razz"], imitation=quick))
    module.main(module.Args(game="action_razz", arm="cloned", stage_updates=1, output=str(tmp_path),
                            release=str(tmp_path / "release")))
    start, stage1 = tmp_path / "seed1" / "stage0-cloned", tmp_path / "seed1" / "stage1-cloned"
    fitted = json.loads((start / "imitation.json").read_text())
    assert (fitted["teacher"], fitted["hands"], fitted["seed"]) == ("tag", 40, 1)
    assert fitted["opponents"][:2] == ["monte_carlo", "razz_heuristic"]  # the arm's opponents
    assert "decisions of tag fitted, held-out agreement" in capsys.readouterr().out
    state = json.loads((stage1 / "state.json").read_text())
    assert (state["update"], state["steps"]) == (1, 32768) and (stage1 / "final.pt").is_file()
    imitation_cpu = json.loads((start / "state.json").read_text())["clock"][0]
    assert state["clock"][0] > imitation_cpu > 0
    module.main(module.Args(game="action_razz", arm="cloned", stage_updates=1, output=str(tmp_path),
                            recipe="tiny_cloned"))
    from razz_env import recipes

    (first,) = recipes.load_recipe("tiny_cloned", tmp_path).stages
    assert (first.name, first.continues, first.config) == ("stage1_cloned", None, state["settings"])
    assert (first.imitation.teacher, first.imitation.hands, first.imitation.seed) == ("tag", 40, 1)


def test_a_gentle_chain_goes_on_from_the_cloned_chains_imitation_start(load_study, tmp_path, monkeypatch):
    """The six-handed ``gentle`` arm has no imitation of its own: its stage 1 makes (or finds) ``stage0-cloned``,
    made with the cloned arm's settings, and goes on from it with its own (smaller steps, drawn seats); its recipe's
    first stage names that imitation."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    module = load_study("razz_flagship")
    quick = {"cloned": {"teacher": "tag", "hands": 12, "epochs": 1}}
    small = {arm: {**settings, "num_tables": 64} for arm, settings in module.GAMES["razz6"].arms.items()}
    monkeypatch.setitem(module.GAMES, "razz6", dataclasses.replace(module.GAMES["razz6"], imitation=quick, arms=small))
    module.main(module.Args(game="razz6", arm="gentle", stage_updates=1, output=str(tmp_path),
                            release=str(tmp_path / "release")))
    start, stage1 = tmp_path / "seed1" / "stage0-cloned", tmp_path / "seed1" / "stage1-gentle"
    assert not (tmp_path / "seed1" / "stage0-gentle").exists()
    made = json.loads((start / "state.json").read_text())["settings"]
    assert made == json.loads(json.dumps(module.trainer_settings(module.GAMES["razz6"], 1, arm="cloned")))
    went_on = json.loads((stage1 / "state.json").read_text())
    assert went_on["settings"]["learning_rate"] == 3e-5 and went_on["update"] == 1
    module.main(module.Args(game="razz6", arm="gentle", stage_updates=1, output=str(tmp_path), recipe="tiny_gentle"))
    from razz_env import recipes

    (first,) = recipes.load_recipe("tiny_gentle", tmp_path).stages
    assert (first.name, first.imitation.teacher, first.imitation.hands) == ("stage1_gentle", "tag", 12)


def test_each_game_measures_its_agent_against_its_own_field_at_its_own_table(load_study):
    module = load_study("razz_flagship")
    for name, game in module.GAMES.items():
        if game.seats != 2:
            continue
        assert game.variant == name and (game.deals, game.acceptance_deals) == (5000, 10_000)
        settings = module.trainer_settings(game, 3)
        assert settings["variant"] == game.variant and settings["seed"] == 3 and settings["stacks"] == 1000
        assert game.first_arm in game.arms and len(set(game.acceptance_seeds)) == len(game.acceptance_seeds)
        assert {"random", "calling_station", "monte_carlo"} <= set(game.must_beat)
        assert set(module.EXPLOITERS) <= set(game.must_hold)
    seeds = [seed for game in module.GAMES.values() for seed in game.acceptance_seeds]
    assert len(seeds) == len(set(seeds)), "no two games share an acceptance seed"
    stud8 = module.GAMES["stud8"]
    assert module.trainer_settings(stud8, 1)["opponents"][:2] == ["monte_carlo", "stud8_heuristic"]
    assert module.stage_folder(stud8, "out", 1, 2).name == "stage2"  # its first arm has no suffix
    razz = module.GAMES["razz"]
    assert module.stage_folder(razz, "out", 1, 2, "opponents").name == "stage2-opponents"
    assert [module.stage_folder(razz, "out", 3, stage, "pool").name for stage in (1, 3, 4, 5)] == [
        "stage1", "stage3", "stage4-pool", "stage5-pool"]  # the pool arm goes on from self-play's stage 3
    pool = module.trainer_settings(razz, 3, arm="pool")
    assert (pool["self_play_fraction"], pool["pool_fraction"], pool["max_snapshots"]) == (0.5, 0.5, 0)
    calm, plain = module.trainer_settings(razz, 3, arm="calm"), module.trainer_settings(razz, 3)
    from razz_env.train.batch_ppo import Args as TrainerArgs

    assert (calm["learning_rate"], TrainerArgs().learning_rate, calm["anneal_lr"]) == (1e-4, 3e-4, False)
    assert {key for key in calm if calm[key] != plain.get(key)} == {"learning_rate"}  # self-play, smaller steps
    assert module.stage_folder(razz, "out", 3, 4, "calm").name == "stage4-calm"
    rivals = module.trainer_settings(razz, 3, arm="rivals")
    opponents = module.trainer_settings(razz, 3, arm="opponents")
    assert rivals["opponents"] == [*opponents["opponents"], "ppo_razz_psro"]  # the opponents arm's and the third rival
    assert dict(zip(rivals["opponents"], rivals["opponent_weights"]))["ppo_razz_psro"] == 4.0
    assert module.stage_folder(razz, "out", 3, 4, "rivals").name == "stage4-rivals"
    assert module.trainer_settings(razz, 1, arm="cloned") == module.trainer_settings(razz, 1)  # self-play
    assert razz.imitation["cloned"]["teacher"] == "ppo_razz_psro"
    assert dict(zip(razz.imitation["cloned"]["opponents"], razz.imitation["cloned"]["weights"]))["monte_carlo"] == 4
    for name in ("stud8", "action_razz"):  # the cloned arm: the opponents arm's tables from an imitation start
        game = module.GAMES[name]
        assert module.trainer_settings(game, 2, arm="cloned") == module.trainer_settings(game, 2, arm="opponents")
        assert [module.stage_folder(game, "out", 2, stage, "cloned").name for stage in (1, 2)] == [
            "stage1-cloned", "stage2-cloned"]
        assert game.imitation == {"cloned": {"teacher": "monte_carlo", "hands": 100_000, "epochs": 40}}
    assert [module.stage_folder(razz, "out", 3, stage, "rivals").name for stage in (3, 4)] == ["stage3",
                                                                                               "stage4-rivals"]
    flagship = module.resolved(module.Args())
    assert (flagship.arm, flagship.output, flagship.acceptance_seeds) == ("self_play", "runs/razz_flagship",
                                                                          (43001, 43002, 43003))
    assert module.resolved(module.Args(game="action_razz")).release.endswith("releases/action_razz_agent")
    assert "num_seats" not in module.trainer_settings(razz, 1)  # a heads-up run's settings as first written


@pytest.mark.parametrize("key, variant, zoo", [("razz6", "razz", {"ppo_razz_multiway": 2.0}), ("stud6", "stud", {})])
def test_a_six_handed_game_trains_at_mixed_tables_and_meets_board_bully_only_at_acceptance(load_study, key, variant,
                                                                                          zoo):
    """The rule of ``docs/studies/six_handed_agents.md``: its training tables, selection and acceptance tables,
    seeds and deals."""
    module = load_study("razz_flagship")
    game = module.GAMES[key]
    assert (game.variant, game.seats, game.comparison, game.first_arm) == (variant, 6, "razz_heuristic",
                                                                            "mixed_tables")
    settings = module.trainer_settings(game, 2)
    assert (settings["num_seats"], settings["mixed_tables"], settings["self_play_fraction"]) == (6, True, 0.5)
    assert (settings["stacks"], settings["ent_coef"], settings["regularisation_halflife"]) == (1000, 0.05, 1000)
    assert (settings["num_tables"], settings["num_steps"], settings["torch_threads"]) == (1024, 32, 1)
    weights = dict(zip(settings["opponents"], settings["opponent_weights"]))
    assert weights == {"monte_carlo": 4.0, "razz_heuristic": 2.0, "tag": 1.0, "rock": 1.0, "maniac": 1.0,
                       "check_raiser": 1.0, "calling_station": 0.5, "random": 0.5, **zoo}
    assert "board_bully" not in weights and all(len(others) == 5 for others in game.selection_tables.values())
    assert not any("board_bully" in others for others in game.selection_tables.values())
    assert [table for table, others in game.acceptance_tables.items() if "board_bully" in others] == ["h1", "h3"]
    assert set(game.selection_tables) == {"s1", "s2"} and set(game.acceptance_tables) == {"h1", "h2", "h3"}
    assert game.selection_tables["s2"][-1] == ("ppo_razz_multiway" if key == "razz6" else "tag")
    resolved = module.resolved(module.Args(game=key))
    assert (resolved.deals, resolved.acceptance_deals, resolved.acceptance_seeds) == (
        1000, 2000, (46001,) if key == "razz6" else (47001,))
    assert resolved.output == f"runs/{game.name}" and resolved.release.endswith(f"releases/{game.name}")
    assert game.published.name == "six_handed_agents" and game.prefix == f"{game.name}-"
    assert module.stage_folder(game, "out", 2, 3).name == "stage3"
    assert module.trainer_settings(game, 2, arm="cloned") == settings  # the same tables, from an imitation start
    assert module.stage_folder(game, "out", 2, 1, "cloned").name == "stage1-cloned"
    drawn = module.trainer_settings(game, 2, arm="drawn")  # the same weights, seats drawn every hand
    assert drawn == {**settings, "seat_draw": "hand", "seat_concentration": 5.0}
    assert [module.stage_folder(game, "out", 2, stage, "drawn").name for stage in (1, 2, 3)] == [
        "stage1-cloned", "stage2-drawn", "stage3-drawn"]  # it goes on from the cloned chain's stage 1
    assert game.imitation.get(game.arm_at(1, "drawn")) == game.imitation["cloned"]
    assert [game.start_arm(arm) for arm in ("mixed_tables", "cloned", "drawn", "gentle")] == [
        None, "cloned", "cloned", "cloned"]
    gentle = module.trainer_settings(game, 2, arm="gentle")  # drawn seats, smaller steps, SB3's KL stop
    assert gentle == {**drawn, "learning_rate": 3e-5, "target_kl": 0.02}
    assert [module.stage_folder(game, "out", 2, stage, "gentle").name for stage in (1, 2)] == [
        "stage1-gentle", "stage2-gentle"]
    with pytest.raises(module.ConfigError, match="--arm drawn: stages before 2 are the cloned arm's; the arm begins"):
        module.resolved(module.Args(game=key, arm="drawn", stage=1))
    assert game.imitation == {"cloned": {"teacher": "razz_heuristic" if key == "razz6" else "monte_carlo",
                                         "hands": 100_000, "epochs": 40}}
    assert module.seated("x.pt", "candidate", game.acceptance_tables["h1"]) == [
        {"type": "x.pt", "label": "candidate"}, "board_bully", {"type": "board_bully", "label": "board_bully_2"},
        "calling_station", "rock", "monte_carlo"]


def test_a_six_handed_candidate_takes_acceptance_once_by_the_pages_rule(load_study, monkeypatch, tmp_path):
    """The gate (a score above 0, and a mean at least the heuristic's at both selection tables), the verdict (at
    every held-out table a lower bound above 0 and a mean at least the heuristic's in the same seat) and the seeds
    used once, on synthetic figures (playing the tables is the slow test's)."""
    module = load_study("razz_flagship")
    folder = tmp_path / "seed1" / "stage1"
    folder.mkdir(parents=True)
    monkeypatch.setattr(module.Game, "published", property(lambda game: tmp_path / "published"))
    args = module.resolved(module.Args(game="razz6", output=str(tmp_path), acceptance_deals=2))

    def selected(agent: float, low: float, heuristic: float) -> None:
        tables = {table: {"agent": {"bb100": agent, "low": low}, "heuristic": {"bb100": heuristic}}
                  for table in ("s1", "s2")}
        (folder / "selection.json").write_text(json.dumps({"score": low, "tables": tables}))

    with pytest.raises(module.ConfigError, match="--accept: no selection.json in"):
        module.table_acceptance(args, folder)
    selected(5.0, 0.0, 1.0)
    with pytest.raises(module.ConfigError, match=r"selection score is \+0.0; the rule sends a candidate to acceptance "
                                                 r"with a score above 0"):
        module.table_acceptance(args, folder)
    selected(5.0, 1.0, 6.0)
    with pytest.raises(module.ConfigError, match="its mean is below razz_heuristic at s1, s2"):
        module.table_acceptance(args, folder)
    selected(5.0, 1.0, 5.0)  # level with the heuristic: enough
    played = []
    figures = {"h1": (4.0, 1.0, 3.0), "h2": (4.0, -0.5, 3.0), "h3": (4.0, 2.0, 4.5)}  # mean, low, heuristic's

    def table_figure(args, spec, label, others, seed, deals, where):
        played.append((label, others, seed, deals, where.name))
        mean, low, heuristic = next(item for table, item in figures.items()
                                    if module.GAMES["razz6"].acceptance_tables[table] == others)
        mean = mean if label == "candidate" else heuristic
        return {"bb100": mean, "low": low, "high": 2 * mean - low, "hands": 6 * deals}

    monkeypatch.setattr(module, "table_figure", table_figure)
    verdict = module.table_acceptance(args, folder)
    assert len(played) == 6 and {seed for _, _, seed, _, _ in played} == {46001}
    assert {label for label, *_ in played} == {"candidate", "seat_razz_heuristic"}
    assert {where for *_, where in played} == {"h1-seed46001-2", "h2-seed46001-2", "h3-seed46001-2"}
    assert [verdict["tables"][table]["passed"] for table in ("h1", "h2", "h3")] == [True, False, False]
    assert verdict["passed"] is False and verdict["seeds"] == [46001] and verdict["score"] == 1.0
    lines = module.table_crosstable(verdict, "razz_heuristic").splitlines()
    assert lines[0] == "| table | the five other seats | agent | razz_heuristic in the seat |"
    assert lines[2] == ("| h1 | board_bully, board_bully, calling_station, rock, monte_carlo | +4.0 [+1.0, +7.0] | "
                        "+3.0 [+1.0, +5.0] |")
    assert lines[3].endswith("(fails) | +3.0 [-0.5, +6.5] |") and lines[-1].startswith("verdict: fails")
    (folder / "acceptance.json").write_text(json.dumps(verdict))
    with pytest.raises(module.ConfigError, match="46001 was used by an earlier acceptance run"):
        module.table_acceptance(args, folder)
    (folder / "acceptance.json").unlink()
    published = tmp_path / "published"
    published.mkdir()
    (published / "stud_six_agent-seed1-stage1-acceptance.json").write_text(json.dumps({"seeds": [46001]}))
    assert module.table_acceptance(args, folder)["seeds"] == [46001]  # another game's file is not this one's
    (published / "razz_six_agent-seed1-stage1-acceptance.json").write_text(json.dumps({"seeds": [46001]}))
    with pytest.raises(module.ConfigError, match="46001 was used by an earlier acceptance run"):
        module.table_acceptance(args, folder)


@pytest.mark.slow
def test_a_six_handed_stage_trains_and_is_measured_beside_the_heuristic_in_its_seat(study, tmp_path):
    """About three minutes: one update of razz6's stage 1 at mixed tables, ``ppo_razz_multiway`` among them; its
    selection at both tables and seeds, 2 deals each, the heuristic in its seat beside it; kept and written as a
    recipe."""
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    flagship = study("razz_flagship")
    stage1 = ["--game", "razz6", "--stage", "1", "--stage-updates", "1", "--output", str(tmp_path)]
    ran = flagship.run(*stage1)
    assert ran.returncode == 0, ran.stderr
    folder = tmp_path / "seed1" / "stage1"
    state = json.loads((folder / "state.json").read_text())
    assert (state["update"], state["steps"], state["settings"]["num_seats"]) == (1, 32768, 6)
    import torch

    assert torch.load(folder / "final.pt", weights_only=False)["num_seats"] == 6
    measured = flagship.run(*stage1, "--select", "--deals", "2")
    assert measured.returncode == 0, measured.stderr
    selection = json.loads((folder / "selection.json").read_text())
    assert (selection["deals"], selection["seeds"], set(selection["tables"])) == (2, [41001, 41002], {"s1", "s2"})
    for table in selection["tables"].values():
        for who in ("agent", "heuristic"):
            item = table[who]
            assert item["hands"] == 2 * 2 * 6 and len(item["seeds"]) == 2
            assert item["low"] <= item["bb100"] <= item["high"]
        assert table["agent"] != table["heuristic"]
    assert selection["score"] == min(table["agent"]["low"] for table in selection["tables"].values())
    assert measured.stdout.startswith("| 1 | 1 | 32,768 | ") and measured.stdout.count("; ") == 2
    assert sorted(path.name for path in (tmp_path / "heuristic").iterdir()) == [
        "s1-seed41001-2", "s1-seed41002-2", "s2-seed41001-2", "s2-seed41002-2"]
    def seats(path):
        with open(path / "standings.csv", newline="") as handle:
            return {row["agent"] for row in csv.DictReader(handle)}

    assert seats(folder / "selection" / "s2-seed41001-2") == {"candidate", "random", "maniac", "razz_heuristic",
                                                               "monte_carlo", "ppo_razz_multiway"}
    assert seats(tmp_path / "heuristic" / "s1-seed41001-2") == {"seat_razz_heuristic", "calling_station",
                                                                 "razz_heuristic", "rock", "tag", "check_raiser"}
    flagship.assert_refuses([*stage1, "--accept"], "the rule sends a candidate to acceptance with a score above 0")
    written = flagship.run(*stage1, "--recipe", "tiny_six", "--keep", "--release", str(tmp_path / "release"))
    assert written.returncode == 0 and "kept stage 1 of seed 1" in written.stdout, written.stderr
    from razz_env import recipes

    chain = recipes.load_recipe("tiny_six", tmp_path)
    assert chain.stages[0].config == state["settings"]
    assert "6-handed razz" in (tmp_path / "tiny_six.recipe.yaml").read_text().splitlines()[0]

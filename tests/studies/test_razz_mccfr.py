"""``studies/razz_mccfr.py``: a chain of stages on heads-up razz, resumable from any checkpoint, each stage's
policy a file any command seats by its path."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba", reason="the sampled solver walks the batched engine's kernels")

SMALL = ["--stage-iterations", "600", "--checkpoint-every", "200"]


def test_stages_chain_and_where_a_stage_checkpoints_changes_nothing(study, tmp_path):
    whole, cut = str(tmp_path / "whole"), str(tmp_path / "cut")
    for stage in ("1", "2"):
        done = study("razz_mccfr").run("--seed", "3", "--stage", stage, "--output", whole, *SMALL)
        assert done.returncode == 0, done.stderr
    state = json.loads((tmp_path / "whole" / "seed3" / "stage2" / "state.json").read_text())
    assert (state["iterations"], state["stage_iterations"], state["done"]) == (1200, 600, True)
    assert state["infosets"] > 1000 and state["chain_cpu_seconds"] > 0
    first = study("razz_mccfr").run("--seed", "3", "--stage", "1", "--output", cut, "--stage-iterations", "600",
                                    "--checkpoint-every", "250")
    assert first.returncode == 0, first.stderr  # checkpoints at 250 and 500, then the end: other cuts
    again = study("razz_mccfr").run("--seed", "3", "--stage", "1", "--output", cut, *SMALL)
    assert "finished (600 iterations)" in again.stdout
    second = study("razz_mccfr").run("--seed", "3", "--stage", "2", "--output", cut, *SMALL)
    assert second.returncode == 0, second.stderr
    for name in ("policy.npz",):
        assert ((tmp_path / "whole" / "seed3" / "stage2" / name).read_bytes()
                == (tmp_path / "cut" / "seed3" / "stage2" / name).read_bytes())


def test_a_stage_before_its_predecessor_is_refused_by_name(study, tmp_path):
    study("razz_mccfr").assert_refuses(["--seed", "1", "--stage", "2", "--output", str(tmp_path / "runs")],
                                       "seed1/stage1, which is not finished; run it first")


def test_its_policy_file_is_an_agent_that_pickles_as_its_path(study, tmp_path):
    import pickle

    from razz_env.agents.registry import make_agent
    from razz_env.agents.tabular_zoo import SampledPolicyFileAgent

    done = study("razz_mccfr").run("--seed", "1", "--stage", "1", "--output", str(tmp_path), *SMALL)
    assert done.returncode == 0, done.stderr
    path = tmp_path / "seed1" / "stage1" / "policy.npz"
    agent = make_agent({"type": str(path), "seed": 5})
    assert isinstance(agent, SampledPolicyFileAgent)
    assert len(pickle.dumps(agent)) < 1000  # its path, hash and seed, never its arrays
    twin = pickle.loads(pickle.dumps(agent))
    assert (twin.path, twin.seed, len(twin.policy)) == (agent.path, 5, len(agent.policy))
    argmax = make_agent({"type": str(path), "deterministic": True})
    assert argmax.deterministic and pickle.loads(pickle.dumps(argmax)).deterministic
    assert pickle.loads(pickle.dumps(make_agent({"type": str(path), "threshold": 0.15}))).threshold == 0.15


def test_coverage_counts_the_decisions_at_keys_it_never_met(study, tmp_path):
    refused = study("razz_mccfr").run("--seed", "1", "--stage", "1", "--output", str(tmp_path), "--coverage")
    assert refused.returncode == 2 and "--coverage: stage 1 of seed 1 is not finished" in refused.stderr
    assert study("razz_mccfr").run("--seed", "1", "--stage", "1", "--output", str(tmp_path), *SMALL).returncode == 0
    done = study("razz_mccfr").run("--seed", "1", "--stage", "1", "--output", str(tmp_path), "--coverage",
                                   "--coverage-hands", "4")
    assert done.returncode == 0, done.stderr
    measured = json.loads((tmp_path / "seed1" / "stage1" / "coverage.json").read_text())
    assert list(measured) == ["razz_heuristic", "monte_carlo", "ppo_razz_psro"]
    for figures in measured.values():
        assert figures["hands"] == 4 and 0 < figures["unseen"] <= figures["decisions"]  # 600 iterations: sparse


def test_the_flagship_measures_its_policy_file_by_lbr_sampled_and_argmax(study, tmp_path):
    assert study("razz_mccfr").run("--seed", "1", "--stage", "1", "--output", str(tmp_path), *SMALL).returncode == 0
    path = tmp_path / "seed1" / "stage1" / "policy.npz"
    done = study("razz_flagship").run("--lbr", "--agent", str(path), "--lbr-deals", "2", "--workers", "1",
                                      "--output", str(tmp_path / "flagship"))
    assert done.returncode == 0, done.stderr
    bounds = json.loads(done.stdout[done.stdout.index("{"):])
    assert bounds["deals"] == 2 and set(bounds) >= {"sampled", "argmax"}
    folder = next((tmp_path / "flagship" / "agents").iterdir())
    assert folder.name.endswith("-seed1-stage1-policy.npz") and (folder / "lbr_argmax").is_dir()
    assert json.loads((folder / "lbr.json").read_text()) == bounds


def test_the_flagship_measures_its_policy_file_thresholded_in_a_folder_of_its_own(study, tmp_path):
    assert study("razz_mccfr").run("--seed", "1", "--stage", "1", "--output", str(tmp_path), *SMALL).returncode == 0
    path = tmp_path / "seed1" / "stage1" / "policy.npz"
    done = study("razz_flagship").run("--select", "--agent", str(path), "--threshold", "0.15", "--deals", "2",
                                      "--workers", "1", "--output", str(tmp_path / "flagship"))
    assert done.returncode == 0, done.stderr
    folder = next((tmp_path / "flagship" / "agents").iterdir())
    assert folder.name.endswith("-seed1-stage1-policy.npz-threshold0.15")
    selection = json.loads((folder / "selection.json").read_text())
    assert selection == json.loads(done.stdout) and selection["threshold"] == 0.15
    assert all(item["hands"] == 8 for item in selection["opponents"].values())


def test_a_finished_chain_is_a_zoo_recipe_that_reproduces_its_policy_byte_for_byte(study, tmp_path):
    import hashlib

    from razz_env import recipes

    out = tmp_path / "runs"
    for stage in ("1", "2"):
        ran = study("razz_mccfr").run("--seed", "3", "--stage", stage, "--output", str(out), *SMALL)
        assert ran.returncode == 0, ran.stderr
    study("razz_mccfr").assert_refuses(["--seed", "3", "--stage", "3", "--output", str(out), "--recipe", "tiny"],
                                       "--recipe: stage 3 of seed 3 is not finished")
    study("razz_mccfr").assert_refuses(["--seed", "3", "--stage", "2", "--output", str(out), "--recipe", "Tiny"],
                                       "--recipe: expected a lowercase name")
    written = study("razz_mccfr").run("--seed", "3", "--stage", "2", "--output", str(out), "--recipe", "tiny",
                                      "--acceptance-seed", "9")
    assert written.returncode == 0, written.stderr
    chain = recipes.load_recipe("tiny", out)
    one, two = chain.stages
    assert (one.kind, two.continues is one, one.until, two.until) == ("mccfr", True, 600, 1200)
    assert (chain.product, chain.acceptance_seed, two.config["seed"]) == ("@stage2/policy.npz", 9, 3)
    policy = out / "seed3" / "stage2" / "policy.npz"
    (out / "tiny.npz").write_bytes(policy.read_bytes())
    (out / "policies.json").write_text(json.dumps({"tiny": {"file": "tiny.npz", "sha256": hashlib.sha256(
        policy.read_bytes()).hexdigest()}}))
    run, verdict = recipes.reproduce(chain, tmp_path / "zoo", progress=False, notify=lambda _: None)
    assert verdict.reproduced and not run.notes  # the policy and every checkpoint as the chain recorded them


@pytest.mark.parametrize("game, heuristic", [("action_razz", "razz_heuristic"), ("stud8", "stud8_heuristic")])
def test_each_game_is_solved_over_its_own_abstraction_at_its_own_table(study, tmp_path, game, heuristic):
    from razz_env.solve.sampled_policy import SampledPolicy

    done = study("razz_mccfr").run("--game", game, "--seed", "1", "--stage", "1", "--output", str(tmp_path), *SMALL)
    assert done.returncode == 0, done.stderr
    state = json.loads((tmp_path / "seed1" / "stage1" / "state.json").read_text())
    assert (state["abstraction"], state["table"], state["iterations"]) == (
        f"{game}_buckets", {"variant": game, "stacks": 1000}, 600)
    policy = SampledPolicy.load(tmp_path / "seed1" / "stage1" / "policy.npz")
    assert (policy.abstraction, policy.config.variant.name, len(policy) > 500) == (f"{game}_buckets", game, True)
    covered = study("razz_mccfr").run("--game", game, "--seed", "1", "--stage", "1", "--output", str(tmp_path),
                                      "--coverage", "--coverage-hands", "2")
    assert covered.returncode == 0, covered.stderr
    assert list(json.loads((tmp_path / "seed1" / "stage1" / "coverage.json").read_text())) == [heuristic,
                                                                                              "monte_carlo"]


def test_another_abstraction_of_the_game_trains_in_a_folder_of_its_own(study, load_study, tmp_path):
    """``--abstraction stud8_coarse``: the stud/8 stages over it (by default in ``runs/stud8_mccfr_stud8_coarse``);
    one that does not read the game is refused by name."""
    module = load_study("razz_mccfr")
    default = module.stage_folder(module.Args(game="stud8", abstraction="stud8_coarse"), 1)
    assert default.as_posix() == "runs/stud8_mccfr_stud8_coarse/seed1/stage1"
    third = module.stage_folder(module.Args(abstraction="razz_third"), 3)
    assert third.as_posix() == "runs/razz_mccfr_razz_third/seed1/stage3"
    done = study("razz_mccfr").run("--game", "stud8", "--abstraction", "stud8_coarse", "--seed", "1", "--stage", "1",
                                   "--output", str(tmp_path), *SMALL)
    assert done.returncode == 0, done.stderr
    state = json.loads((tmp_path / "seed1" / "stage1" / "state.json").read_text())
    assert (state["abstraction"], state["table"]["variant"], state["iterations"]) == ("stud8_coarse", "stud8", 600)
    written = study("razz_mccfr").run("--game", "stud8", "--abstraction", "stud8_coarse", "--seed", "1", "--stage",
                                      "1", "--output", str(tmp_path), "--recipe", "coarse", "--acceptance-seed", "9")
    assert written.returncode == 0, written.stderr
    text = (tmp_path / "coarse.recipe.yaml").read_text()
    assert "--game stud8 --abstraction stud8_coarse --seed 1 --stage 1" in text and "abstraction: stud8_coarse" in text
    study("razz_mccfr").assert_refuses(["--game", "razz", "--abstraction", "stud8_coarse", "--seed", "1"],
                                       "--abstraction: 'stud8_coarse' reads heads-up stud8, not razz")


def test_exploit_solves_against_the_pages_model_in_a_folder_of_its_own(study, load_study, tmp_path, monkeypatch):
    """``--exploit``: the chain's state and recipe carry the model (its seed the training seed's); its stages go by
    default to ``runs/razz_mccfr_exploit``; another game's is refused by name."""
    module = load_study("razz_mccfr")
    assert module.stage_folder(module.Args(exploit=True), 1).as_posix() == "runs/razz_mccfr_exploit/seed1/stage1"
    assert module.stage_folder(module.Args(exploit=True, abstraction="razz_fine"), 2).as_posix() == (
        "runs/razz_mccfr_razz_fine_exploit/seed1/stage2")
    monkeypatch.setattr(module, "EXPLOIT", {**module.EXPLOIT, "hands": 30})  # 200,000 hands of each: not in a test
    args = module.Args(exploit=True, seed=2, stage_iterations=300, checkpoint_every=300, output=str(tmp_path))
    module.main(args)
    state = json.loads((tmp_path / "seed2" / "stage1" / "state.json").read_text())
    assert state["model"] == {**module.EXPLOIT, "seed": 2} and state["adversary_infosets"] > 0
    module.main(module.Args(**{**vars(args), "recipe": "exploits", "acceptance_seed": 9}))
    text = (tmp_path / "exploits.recipe.yaml").read_text()
    assert "--exploit" in text and "ppo_razz_psro" in text
    study("razz_mccfr").assert_refuses(["--game", "stud8", "--exploit", "--output", str(tmp_path)],
                                       "--exploit: the opponent model is razz's")


def test_defend_solves_against_a_model_of_third_street_only(study, load_study, tmp_path, monkeypatch):
    """``--defend``: the model is the maniac's 3rd street (every key of it a 3rd-street key), carried in the state
    and the recipe; its stages go to ``runs/razz_mccfr_defend``; with ``--exploit`` it is refused."""
    module = load_study("razz_mccfr")
    assert module.stage_folder(module.Args(defend=True), 3).as_posix() == "runs/razz_mccfr_defend/seed1/stage3"
    monkeypatch.setattr(module, "DEFEND", {**module.DEFEND, "hands": 30})
    args = module.Args(defend=True, seed=2, stage_iterations=300, checkpoint_every=300, output=str(tmp_path))
    module.main(args)
    state = json.loads((tmp_path / "seed2" / "stage1" / "state.json").read_text())
    assert state["model"] == {**module.DEFEND, "seed": 2} and state["model"]["streets"] == [3]
    module.main(module.Args(**{**vars(args), "recipe": "defends", "acceptance_seed": 9}))
    text = (tmp_path / "defends.recipe.yaml").read_text()
    assert "--defend" in text and "3rd-street stealer" in text and "maniac" in text
    study("razz_mccfr").assert_refuses(["--exploit", "--defend", "--output", str(tmp_path)],
                                       "--exploit and --defend: each solves against its own model")

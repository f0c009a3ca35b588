"""Zoo recipes: parsed and checked in one line per fault, planned with their CPU time, run stage by stage into a run
folder (finished stages kept, inputs verified), and the product checked against the manifest."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from razz_env import recipes  # noqa: E402
from razz_env.cli import main as razz  # noqa: E402
from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train import best_response  # noqa: E402

torch.set_num_threads(1)

TINY_PPO = {"n_steps": 64, "batch_size": 64, "n_epochs": 1}
TINY = {"name": "tiny", "n_envs": 2, "net_arch": [16], "algo_kwargs": TINY_PPO, "total_timesteps": 128,
        "eval_every": 10**6, "eval_deals": 2, "eval_opponents": ["random"], "checkpoint_every": 64,
        "opponents": {"baselines": ["random", "calling_station"], "weights": [1, 1]}}
UNKNOWN = "0" * 64
WIDE_EVAL = [{"opponent": "random", "bb_per_100": 0.0, "ci95_low": -10**6, "ci95_high": 10**6, "hands": 8}]


def _write(folder: Path, name: str, **recipe) -> None:
    (folder / f"{name}{recipes.SUFFIX}").write_text(json.dumps({"name": name, **recipe}))  # JSON is YAML


def _manifest(folder: Path, **entries) -> None:
    base = {"algorithm": "maskable_ppo", "encoding": "flat", "variant": "razz", "num_seats": 2,
            "stacks": 1000, "ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10,
            "steps_per_second": 100.0, "final_eval": WIDE_EVAL}
    (folder / "manifest.json").write_text(json.dumps({name: {**base, "file": f"{name}.zip", **entry}
                                                      for name, entry in entries.items()}))


@pytest.fixture
def zoo(tmp_path):
    """A zoo folder with a base recipe (one train stage) and one from it (a train stage continuing the base's run
    with it in the pool, then a widen stage of the base's product)."""
    folder = tmp_path / "zoo"
    folder.mkdir()
    _write(folder, "base", product="@first/checkpoints/step_128.zip",
           stages=[{"name": "first", "kind": "train", "config": TINY}])
    second = {**TINY, "name": "second", "init_model": {"path": "@first/final.zip", "sha256": UNKNOWN},
              "opponents": {"baselines": ["random", {"type": "sb3_model", "path": "@first/checkpoints/step_64.zip",
                                                     "sha256": UNKNOWN, "algorithm": "maskable_ppo",
                                                     "encoding": "flat", "variant": "razz", "num_seats": 2}],
                            "weights": [1, 2]}}
    widen = {**TINY, "name": "widened", "encoding": "flat8", "num_seats": [2, 6],
             "init_model": {"path": "@base", "sha256": UNKNOWN, "widen_from": {"encoding": "flat", "num_seats": 2}}}
    _write(folder, "top", **{"from": "base"}, product="@second/final.zip", acceptance_seed=5,
           stages=[{"name": "second", "kind": "train", "config": second},
                   {"name": "widen", "kind": "widen", "config": widen}])
    _manifest(folder, base={"sha256": UNKNOWN}, top={"sha256": UNKNOWN})
    return folder


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "tb" not in p.parts}


def test_a_recipe_starts_from_its_base_and_plans_every_stage_with_its_cpu_time(zoo, tmp_path):
    recipe = recipes.load_recipe("top", zoo)
    assert [(s.recipe, s.name, s.kind) for s in recipe.chain()] == [
        ("base", "first", "train"), ("top", "second", "train"), ("top", "widen", "widen")]
    planned = recipes.plan(recipe, tmp_path / "runs")
    assert [item.minutes for item in planned] == [128 / 100 / 60] * 2 + [0.0]
    assert planned[1].command == f"razz train --config {tmp_path / 'runs' / 'top' / 'second.yaml'}"
    lines = recipes.describe_plan(recipe, planned)
    assert lines[0] == "top: 3 stage(s), product @second/final.zip"
    assert "warm start: @first/final.zip" in lines[3] and "warm start: @base" in lines[5]
    assert lines[-1].startswith("estimated CPU time: 0.0 h (0 min;")
    assert [item.stage.name for item in recipes.plan(recipe, only="widen")] == ["widen"]


@pytest.mark.parametrize("change, message", [
    ({"colour": 1}, "top.recipe.yaml: unknown key 'colour'; a recipe has name, from, product"),
    ({"name": "other"}, "top.recipe.yaml: name: expected 'top' (the file's name), got 'other'"),
    ({"from": "top"}, "from: top starts from top again (a loop)"),
    ({"product": "@nowhere/final.zip"}, "product: '@nowhere/final.zip' names no earlier stage's file"),
    ({"product": "runs/x.zip"}, "product: expected '@STAGE/FILE', the model shipped, got 'runs/x.zip'"),
    ({"stages": []}, "stages: expected a list of stages"),
    ({"stages": [{"name": "s", "kind": "bake", "config": TINY}]}, "stage s: kind: expected one of train, psro"),
    ({"stages": [{"name": "s", "kind": "train", "config": {**TINY, "max_minutes": 5}}]},
     "stage s: config: a recipe stage trains to total_timesteps into its own folder; drop max_minutes"),
    ({"stages": [{"name": "first", "kind": "train", "config": TINY}]}, "stage first: the name is taken"),
    ({"stages": [{"name": "s", "kind": "train", "config": {**TINY, "n_envs": 0}}]}, "stage s: config: n_envs"),
    ({"stages": [{"name": "s", "kind": "train", "config": TINY, "loop": {"generations": 1}}]},
     "stage s: loop: not taken by a train stage"),
    ({"stages": [{"name": "s", "kind": "psro", "config": TINY, "loop": {"generations": 1}}]},
     "stage s: loop: steps_per_generation missing"),
    ({"stages": [{"name": "s", "kind": "imitation", "config": TINY, "imitation": {"hands": 0}}]},
     "stage s: imitation: hands: must be at least 10, got 0"),
    ({"stages": [{"name": "s", "kind": "widen", "config": TINY}]}, "stage s: a widen stage writes the model"),
    ({"stages": [{"name": "s", "kind": "train", "config": "later"}]}, "stage s: config: 'later' is no earlier stage"),
    ({"stages": [{"name": "s", "kind": "train",
                  "config": {**TINY, "init_model": {"path": "@t/final.zip", "sha256": UNKNOWN}}},
                 {"name": "t", "kind": "train", "config": TINY}]},
     "stage s: '@t/final.zip' names no earlier stage's file; expected one of @first/FILE, @base"),
])
def test_a_bad_recipe_is_one_line_naming_what_is_wrong(zoo, change, message):
    recipe = json.loads((zoo / f"top{recipes.SUFFIX}").read_text())
    (zoo / f"top{recipes.SUFFIX}").write_text(json.dumps({**recipe, **change}))
    with pytest.raises(ConfigError) as err:
        recipes.load_recipe("top", zoo)
    assert message in str(err.value) and "\n" not in str(err.value), str(err.value)


@pytest.mark.parametrize("name", ["../zoo/top", "zoo/top", "/etc/passwd", "..", "top.recipe", "Top", "", None])
def test_only_a_recipe_name_is_read_never_a_path(zoo, tmp_path, name):
    """A name with a folder in it is refused before any file is read, even one whose recipe names itself."""
    (tmp_path / "elsewhere").mkdir()
    _write(tmp_path / "elsewhere", "top", stages=[{"name": "s", "kind": "train", "config": TINY}])
    with pytest.raises(ConfigError) as err:
        recipes.load_recipe(name, zoo)
    assert str(err.value) == f"{name!r}: expected a recipe name; recipes: base, top"


def test_zoo_reproduce_refuses_a_path_in_one_line(capsys):
    assert razz(["zoo", "reproduce", "../elsewhere/ppo_razz", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("razz zoo reproduce: '../elsewhere/ppo_razz': expected a recipe name; recipes: ")
    assert "ppo_razz" in err and err.count("\n") == 1


def test_zoo_reproduce_refuses_a_negative_eval_deals_by_its_flag_before_reading_the_recipe(capsys):
    assert razz(["zoo", "reproduce", "no_such_recipe", "--eval-deals", "-1"]) == 2
    assert capsys.readouterr().err == "razz zoo reproduce: --eval-deals: must be at least 0, got -1\n"


def test_the_chain_runs_in_order_verifies_the_product_and_a_rerun_keeps_every_finished_stage(zoo, tmp_path):
    recipe = recipes.load_recipe("top", zoo)
    root = tmp_path / "runs"
    messages: list[str] = []
    run, verdict = recipes.reproduce(recipe, root, deals=4, progress=False, notify=messages.append)
    assert (root / "base" / "base.zip").is_file(), "the base recipe's product is written for the stages after it"
    second = json.loads((root / "top" / "second" / "config.json").read_text())
    assert second["init_model"]["path"] == str(root / "base" / "first" / "final.zip")
    assert second["opponents"]["baselines"][1]["path"] == str(root / "base" / "first" / "checkpoints" / "step_64.zip")
    made = hashlib.sha256((root / "base" / "first" / "final.zip").read_bytes()).hexdigest()
    assert second["init_model"]["sha256"] == made
    assert any("stage second: @first/final.zip has SHA-256" in note and "not reproduced bit for bit" in note
               for note in run.notes)
    assert (root / "top" / "widen" / "model.zip").is_file() and (root / "top" / "second.yaml").is_file()
    assert verdict.product == root / "top" / "top.zip" and not verdict.reproduced and verdict.same_weights is None
    assert [row["opponent"] for row in verdict.rows] == ["random"] and verdict.rows[0]["hands"] == 8
    assert verdict.within and "agrees with the recorded figure" in verdict.lines()[-1]
    before = _files(root)
    recipes.reproduce(recipe, root, deals=0, progress=False, notify=messages.append)
    assert _files(root) == before, "a finished chain is read back, its product not written again"
    assert any(m.endswith("already made; using it") for m in messages)


def test_one_stage_runs_from_a_given_input_only_when_it_carries_the_recorded_hash(zoo, tmp_path, capsys,
                                                                                   monkeypatch):
    monkeypatch.setattr(recipes, "zoo_folder", lambda: zoo)
    recipe = recipes.load_recipe("base", zoo)
    recipes.reproduce(recipe, tmp_path / "made", deals=0, progress=False, notify=lambda m: None)
    product = tmp_path / "made" / "base" / "base.zip"
    digest = hashlib.sha256(product.read_bytes()).hexdigest()
    root = tmp_path / "runs"
    with pytest.raises(ConfigError, match=r"^@base: .* is not there yet: run its stage base first, or give --input "):
        recipes.reproduce(recipes.load_recipe("top", zoo), root, only="widen", progress=False)
    with pytest.raises(ConfigError, match=f"^--input base={product}: SHA-256 {digest}, the recipe recorded {UNKNOWN}"):
        recipes.reproduce(recipes.load_recipe("top", zoo), root, only="widen", inputs={"base": product})
    text = (zoo / f"top{recipes.SUFFIX}").read_text().replace(f'"path": "@base", "sha256": "{UNKNOWN}"',
                                                             f'"path": "@base", "sha256": "{digest}"')
    (zoo / f"top{recipes.SUFFIX}").write_text(text)
    assert razz(["zoo", "reproduce", "top", "--output", str(root), "--stage", "widen", "--input", f"base={product}",
                 "--quiet"]) == 0
    assert capsys.readouterr().out.endswith(f"stage widen done in {root / 'top' / 'widen'}\n")
    assert not (root / "base").exists(), "only the stage asked for runs"
    widened = (root / "top" / "widen" / "model.zip").read_bytes()
    assert json.loads((root / "top" / "widen" / "hashes.json").read_text()) == {
        "model.zip": hashlib.sha256(widened).hexdigest()}


def test_the_product_is_checked_by_hash_then_weights_and_installed_only_when_it_passes(zoo, tmp_path, capsys,
                                                                                      monkeypatch):
    monkeypatch.setattr(recipes, "zoo_folder", lambda: zoo)
    recipe = recipes.load_recipe("base", zoo)
    run, _ = recipes.reproduce(recipe, tmp_path / "runs", deals=0, progress=False, notify=lambda m: None)
    product = tmp_path / "runs" / "base" / "base.zip"
    digest = hashlib.sha256(product.read_bytes()).hexdigest()
    _manifest(zoo, base={"sha256": digest})
    assert recipes.verify(recipe, product, deals=0).reproduced
    again = recipes.playing_bytes(recipes.read_checked(product, digest), "maskable_ppo")
    (zoo / "base.zip").write_bytes(again)
    _manifest(zoo, base={"sha256": hashlib.sha256(again).hexdigest()})
    verdict = recipes.verify(recipe, product, deals=0)
    assert verdict.reproduced or (verdict.same_weights and verdict.within)
    assert recipes.same_weights(product.read_bytes(), again)
    other = tmp_path / "runs" / "base" / "first" / "checkpoints" / "step_64.zip"
    assert not recipes.same_weights(product.read_bytes(), other.read_bytes())
    narrow = [{**WIDE_EVAL[0], "bb_per_100": 10**6, "ci95_low": 10**6 - 1, "ci95_high": 10**6 + 1}]
    _manifest(zoo, base={"sha256": UNKNOWN, "final_eval": narrow})
    (zoo / "base.zip").unlink()
    shipped = json.loads((zoo / "manifest.json").read_text())
    assert razz(["zoo", "reproduce", "base", "--output", str(tmp_path / "runs"), "--eval-deals", "2", "--install",
                 "--quiet"]) == 2
    assert "not installing it" in capsys.readouterr().err
    assert json.loads((zoo / "manifest.json").read_text()) == shipped and not (zoo / "base.zip").exists()
    _manifest(zoo, base={"sha256": UNKNOWN})
    assert razz(["zoo", "reproduce", "base", "--output", str(tmp_path / "runs"), "--eval-deals", "2", "--install",
                 "--quiet"]) == 0
    entry = json.loads((zoo / "manifest.json").read_text())["base"]
    assert entry["sha256"] == hashlib.sha256((zoo / "base.zip").read_bytes()).hexdigest() == \
        hashlib.sha256(product.read_bytes()).hexdigest()


def test_a_psro_stage_runs_the_loop_as_a_function(tmp_path, monkeypatch):
    monkeypatch.setattr(best_response, "DEFAULTS", {**best_response.DEFAULTS, "n_envs": 2, "net_arch": [16],
                                                    "algo_kwargs": TINY_PPO, "eval_every": 10**6, "eval_deals": 2,
                                                    "checkpoint_every": 10**6})
    folder = tmp_path / "zoo"
    folder.mkdir()
    loop = {"generations": 1, "steps_per_generation": 128, "br_steps": 128, "br_weight": 2, "deals": 4, "seed": 3}
    _write(folder, "looped", product="@loop/gen_0/learner/final.zip",
           stages=[{"name": "loop", "kind": "psro", "loop": loop, "config": TINY}])
    _manifest(folder, looped={"sha256": UNKNOWN})
    recipe = recipes.load_recipe("looped", folder)
    assert recipes.plan(recipe)[0].stage.steps == 256
    _, verdict = recipes.reproduce(recipe, tmp_path / "runs", deals=0, progress=False, notify=lambda m: None)
    record = json.loads((tmp_path / "runs" / "looped" / "loop" / "psro.json").read_text())
    assert record["br_weight"] == 2 and record["seed"] == 3 and record["base_config"]["name"] == "tiny"
    assert (tmp_path / "runs" / "looped" / "loop" / "gen_0" / "generation.json").is_file()
    assert verdict.product.is_file() and not verdict.reproduced


def test_an_imitation_stage_clones_its_teacher_into_the_configs_network(tmp_path):
    folder = tmp_path / "zoo"
    folder.mkdir()
    stud = {**TINY, "variant": "stud", "opponents": {"baselines": ["rock", "tag"], "weights": [1, 2]}}
    _write(folder, "cloned", product="@clone/model.zip", stages=[
        {"name": "clone", "kind": "imitation", "cpu_minutes": 1.5, "config": stud,
         "imitation": {"teacher": "razz_heuristic", "hands": 40, "epochs": 2}}])
    _manifest(folder, cloned={"sha256": UNKNOWN, "variant": "stud"})
    recipe = recipes.load_recipe("cloned", folder)
    assert recipes.plan(recipe)[0].minutes == 1.5, "a recorded cpu_minutes is the estimate"
    recipes.reproduce(recipe, tmp_path / "runs", deals=0, progress=False, notify=lambda m: None)
    out = tmp_path / "runs" / "cloned" / "clone"
    sha256 = hashlib.sha256((out / "model.zip").read_bytes()).hexdigest()
    assert json.loads((out / "hashes.json").read_text()) == {"model.zip": sha256}
    record = json.loads((out / "imitation.json").read_text())
    assert record["teacher"] == "razz_heuristic" and record["hands"] == 40 and record["sha256"] == sha256
    assert record["opponents"] == ["rock", "tag"] and record["weights"] == [1, 2], "the config's pool by default"
    assert record["decisions"] == sum(record["teacher_action_counts"]) > 40
    assert [row["epoch"] for row in record["epochs_run"]] == [1, 2]


def test_the_shipped_recipes_make_the_shipped_models(capsys):
    """Every shipped trained agent has a recipe named in its manifest entry; ppo_razz_psro's dry run prints the
    whole chain, ppo_razz_pool's five phases first."""
    from razz_env.agents.sb3_zoo import manifest
    from razz_env.agents.tabular_zoo import policies

    made = {**manifest(), **{name: entry for name, entry in policies().items() if "recipe" in entry}}
    assert sorted(made) == recipes.recipe_names()
    assert all(entry["recipe"] == f"{name}{recipes.SUFFIX}" and "command" not in entry for name, entry in made.items())
    assert razz(["zoo", "reproduce", "ppo_razz_psro", "--dry-run"]) == 0
    out = capsys.readouterr().out
    stages = [line.split()[1] for line in out.splitlines() if line[:3].strip().rstrip(".").isdigit()]
    assert stages == [f"ppo_razz_pool/phase{i}" for i in range(1, 6)] + [
        "ppo_razz_psro/psro_w2", "ppo_razz_psro/psro_mc", "ppo_razz_psro/psro_mc8", "ppo_razz_psro/lbr"]
    assert "razz train --config runs/zoo/ppo_razz_psro/lbr.yaml" in out and "estimated CPU time: 2.5 h" in out
    assert razz(["zoo", "list"]) == 0
    assert capsys.readouterr().out.count("\n") == len(made)
    assert razz(["zoo", "reproduce", "ppo_razz", "--stage", "nope", "--dry-run"]) == 2
    assert capsys.readouterr().err == "razz zoo reproduce: --stage 'nope': ppo_razz has the stages train\n"


TINY_BATCH = {"variant": "minirazz_tiny", "stacks": 200, "num_tables": 64, "num_steps": 16, "hidden": [16, 16],
              "total_steps": 10**9, "quiet": True, "seed": 3, "self_play_fraction": 1.0}


@pytest.fixture
def batch_zoo(tmp_path):
    """A zoo folder with a recipe of two ppo stages, the second going on from the first."""
    pytest.importorskip("numba", reason="the batched trainer needs numba")
    folder = tmp_path / "zoo"
    folder.mkdir()
    _write(folder, "staged", product="@two/final.pt", acceptance_seed=7,
           stages=[{"name": "one", "kind": "ppo", "config": TINY_BATCH, "steps": 2048},
                   {"name": "two", "kind": "ppo", "config": "one", "steps": 4096, "continues": "one"}])
    from razz_env.engine.table import Table

    stakes = Table("minirazz_tiny").stakes
    (folder / "manifest.json").write_text(json.dumps({"staged": {
        "file": "staged.pt", "sha256": UNKNOWN, "algorithm": "batch_ppo", "encoding": "flat",
        "variant": "minirazz_tiny", "num_seats": 2, "stacks": 200, "ante": stakes.ante, "bring_in": stakes.bring_in,
        "small_bet": stakes.small_bet, "big_bet": stakes.big_bet, "final_eval": WIDE_EVAL}}))
    return folder


def test_ppo_stages_chain_into_one_run_whose_product_repeats_byte_for_byte(batch_zoo, tmp_path):
    recipe = recipes.load_recipe("staged", batch_zoo)
    one, two = recipe.stages
    assert (one.steps, two.steps, two.continues is one, two.warm_start) == (2048, 2048, True, "@one/checkpoint.pt")
    lines = recipes.describe_plan(recipe, recipes.plan(recipe, tmp_path / "runs"))
    assert "2. staged/two [ppo] 2,048 steps" in lines[3] and "warm start: @one/checkpoint.pt" in lines[3]
    assert "max_steps=4096, start_from=" in lines[4]
    products = []
    for root in (tmp_path / "a", tmp_path / "b"):
        run, verdict = recipes.reproduce(recipe, root, deals=2, progress=False, notify=lambda _: None)
        state = json.loads((root / "staged" / "two" / "state.json").read_text())
        assert (state["update"], state["steps"]) == (4, 4096)
        assert json.loads((root / "staged" / "one" / "state.json").read_text())["steps"] == 2048
        assert verdict.product == root / "staged" / "staged.pt" and not verdict.reproduced
        assert [row["opponent"] for row in verdict.rows] == ["random"] and verdict.rows[0]["hands"] == 4
        products.append(verdict.product.read_bytes())
    assert products[0] == products[1], "two reproductions in two folders make the same bytes"
    (batch_zoo / "staged.pt").write_bytes(products[0])
    recipes.install(recipe, tmp_path / "a" / "staged" / "staged.pt")
    again = recipes.reproduce(recipes.load_recipe("staged", batch_zoo), tmp_path / "a", deals=2, progress=False,
                              notify=lambda _: None)[1]
    assert again.reproduced and again.within


@pytest.mark.parametrize("change, message", [
    ({"steps": None}, "stage two: steps: expected the environment steps it trains to in all, got None"),
    ({"steps": 2048}, "stage two: steps: 2,048 is not past one's 2,048"),
    ({"continues": "nothing"}, "stage two: continues: 'nothing' is no earlier ppo stage"),
    ({"config": {**TINY_BATCH, "seed": 4, "hidden": [8]}}, "stage two: config: a stage continuing one changes "
                                                           "hidden, seed; it may change only opponents"),
    ({"config": {**TINY_BATCH, "output": "x"}}, "stage two: config: output is the recipe's"),
    ({"config": {**TINY_BATCH, "entropy": 1}}, "stage two: config: unknown key(s) ['entropy']"),
    ({"config": {**TINY_BATCH, "num_tables": 0}, "continues": None},
     "stage two: config: num_tables: must be at least 1, got 0"),
])
def test_a_bad_ppo_stage_is_one_line_naming_what_is_wrong(batch_zoo, change, message):
    data = json.loads((batch_zoo / f"staged{recipes.SUFFIX}").read_text())
    data["stages"][1].update(change)
    (batch_zoo / f"staged{recipes.SUFFIX}").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match=re.escape(message)):
        recipes.load_recipe("staged", batch_zoo)


def test_a_ppo_chain_may_begin_from_an_imitation_and_repeats_byte_for_byte(batch_zoo, tmp_path):
    data = json.loads((batch_zoo / f"staged{recipes.SUFFIX}").read_text())
    data["stages"][0]["imitation"] = {"teacher": "calling_station", "hands": 30, "epochs": 2,
                                      "opponents": ["random"], "weights": [1.0]}
    (batch_zoo / f"staged{recipes.SUFFIX}").write_text(json.dumps(data))
    recipe = recipes.load_recipe("staged", batch_zoo)
    lines = recipes.describe_plan(recipe, recipes.plan(recipe, tmp_path / "runs"))
    assert "warm start: an imitation of calling_station (one.imitation)" in lines[1]
    assert "start_from=imitation_stage(" in lines[2]
    products = []
    for root in (tmp_path / "a", tmp_path / "b"):
        recipes.reproduce(recipe, root, deals=0, progress=False, notify=lambda _: None)
        fitted = json.loads((root / "staged" / "one.imitation" / "imitation.json").read_text())
        assert (fitted["teacher"], fitted["hands"], fitted["opponents"]) == ("calling_station", 30, ["random"])
        start = json.loads((root / "staged" / "one.imitation" / "state.json").read_text())
        one = json.loads((root / "staged" / "one" / "state.json").read_text())
        assert (start["steps"], one["steps"]) == (0, 2048) and one["clock"][0] > start["clock"][0] > 0
        products.append((root / "staged" / "staged.pt").read_bytes())
    assert products[0] == products[1]
    data["stages"][1]["imitation"] = data["stages"][0]["imitation"]
    (batch_zoo / f"staged{recipes.SUFFIX}").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="stage two: imitation: a stage that continues one starts from its "
                                          "checkpoint; only a chain's first stage starts from an imitation"):
        recipes.load_recipe("staged", batch_zoo)


def test_a_ppo_stage_waits_for_the_stage_it_continues(batch_zoo, tmp_path):
    recipe = recipes.load_recipe("staged", batch_zoo)
    with pytest.raises(ConfigError, match="stage two: continues one, which is not finished"):
        recipes.reproduce(recipe, tmp_path / "runs", only="two", progress=False, notify=lambda _: None)
    assert not (tmp_path / "runs" / "staged" / "two").exists()


def test_a_kept_checkpoint_stands_in_for_its_stage_and_the_chain_goes_on_the_same(batch_zoo, tmp_path):
    made, _ = recipes.reproduce(recipes.load_recipe("staged", batch_zoo), tmp_path / "a", deals=0, progress=False,
                                notify=lambda _: None)
    kept = tmp_path / "kept.pt"
    kept.write_bytes((tmp_path / "a" / "staged" / "one" / "checkpoint.pt").read_bytes())
    digest = hashlib.sha256(kept.read_bytes()).hexdigest()
    assert json.loads((tmp_path / "a" / "staged" / "one" / "hashes.json").read_text())["checkpoint.pt"] == digest
    data = json.loads((batch_zoo / f"staged{recipes.SUFFIX}").read_text())
    data["stages"][0]["checkpoint_sha256"] = "1" * 64
    (batch_zoo / f"staged{recipes.SUFFIX}").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="--input one/checkpoint.pt=.*SHA-256 .*the recipe recorded 1111"):
        recipes.reproduce(recipes.load_recipe("staged", batch_zoo), tmp_path / "b", inputs={"one/checkpoint.pt": kept},
                          deals=0, progress=False, notify=lambda _: None)
    data["stages"][0]["checkpoint_sha256"] = digest
    (batch_zoo / f"staged{recipes.SUFFIX}").write_text(json.dumps(data))
    run, _ = recipes.reproduce(recipes.load_recipe("staged", batch_zoo), tmp_path / "b",
                               inputs={"one/checkpoint.pt": kept}, deals=0, progress=False, notify=lambda _: None)
    assert not (tmp_path / "b" / "staged" / "one").exists(), "the kept checkpoint stands in for stage one"
    product = (tmp_path / "b" / "staged" / "staged.pt").read_bytes()
    assert product == (tmp_path / "a" / "staged" / "staged.pt").read_bytes()
    assert not run.notes and not made.notes


TINY_MCCFR = {"table": {"variant": "minirazz_tiny"}, "abstraction": "exact", "seed": 3}


@pytest.fixture
def mccfr_zoo(tmp_path):
    """A zoo folder with a recipe of two mccfr stages, the second going on from the first."""
    pytest.importorskip("numba", reason="the sampled solver walks the batched engine's kernels")
    folder = tmp_path / "zoo"
    folder.mkdir()
    _write(folder, "solved", product="@two/policy.npz", acceptance_seed=7,
           stages=[{"name": "one", "kind": "mccfr", "config": TINY_MCCFR, "steps": 300},
                   {"name": "two", "kind": "mccfr", "config": "one", "steps": 700, "continues": "one"}])
    return folder


def test_mccfr_stages_chain_into_the_uninterrupted_solve_and_its_policy_is_checked_byte_for_byte(mccfr_zoo, tmp_path):
    from razz_env.engine.config import HandConfig
    from razz_env.solve.sampled_cfr import SampledCFR

    recipe = recipes.load_recipe("solved", mccfr_zoo)
    one, two = recipe.stages
    assert (one.steps, two.steps, two.continues is one, two.warm_start) == (300, 400, True, "@one/checkpoint.npz")
    lines = recipes.describe_plan(recipe, recipes.plan(recipe, tmp_path / "runs"))
    assert "2. solved/two [mccfr] 400 iterations" in lines[3] and "warm start: @one/checkpoint.npz" in lines[3]
    assert "SampledStage(" in lines[4] and "until=700, start_from=" in lines[4]
    whole = SampledCFR(HandConfig.create("minirazz_tiny"), seed=3)
    whole.run(700)
    shipped = whole.average_policy().save(mccfr_zoo / "solved.npz")
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    (mccfr_zoo / "policies.json").write_text(json.dumps({"solved": {"file": "solved.npz", "sha256": digest}}))
    run, verdict = recipes.reproduce(recipe, tmp_path / "runs", progress=False, notify=lambda _: None)
    assert verdict.product == tmp_path / "runs" / "solved" / "solved.npz" and verdict.reproduced and verdict.within
    assert not run.notes
    other = whole.average_policy()
    other.keys = other.keys + 1  # another policy (its keys): not the shipped one, by its arrays
    assert not recipes.same_weights(other.save(tmp_path / "other.npz").read_bytes(), shipped.read_bytes())
    lines = []
    again = recipes.reproduce(recipe, tmp_path / "runs", progress=False, notify=lines.append)[1]
    assert again.reproduced and sum("already made; using it" in line for line in lines) == 2


def test_a_policy_file_that_is_not_the_shipped_one_is_played_as_the_entry_was_accepted(tmp_path, monkeypatch):
    """A sampled policy product is measured thresholded when its entry ships it thresholded (as it was accepted)."""
    pytest.importorskip("numba", reason="the sampled solver walks the batched engine's kernels")
    from razz_env.agents import registry
    from razz_env.engine.config import HandConfig
    from razz_env.solve.sampled_cfr import SampledCFR

    solver = SampledCFR(HandConfig.create("minirazz_tiny"), seed=3)
    solver.run(200)
    product = solver.average_policy().save(tmp_path / "product.npz")
    digest = hashlib.sha256(product.read_bytes()).hexdigest()
    made = []
    real = registry.make_agent
    monkeypatch.setattr(registry, "make_agent", lambda spec, **kw: made.append(real(spec, **kw)) or made[-1])
    entry = {"variant": "minirazz_tiny", "num_seats": 2, "stacks": 200, "ante": 1, "bring_in": 1, "small_bet": 2,
             "big_bet": 4}
    recorded = {"opponent": "random", "bb_per_100": 0.0, "ci95_low": -1.0, "ci95_high": 1.0, "hands": 20}
    for extra, threshold in (({"threshold": 0.2}, 0.2), ({}, 0.0)):
        made.clear()
        row = recipes._evaluate(product, digest, {**entry, **extra}, recorded, 10, "7/0")
        assert row["hands"] == 20 and made[0].threshold == threshold


@pytest.mark.parametrize("change, message", [
    ({"steps": 300}, "stage two: steps: 300 is not past one's 300"),
    ({"continues": "nothing"}, "stage two: continues: 'nothing' is no earlier mccfr stage"),
    ({"config": {**TINY_MCCFR, "seed": 4}}, "stage two: config: a stage continuing one solves the same table, "
                                            "abstraction and seed"),
    ({"config": {**TINY_MCCFR, "iterations": 5}, "continues": None},
     "stage two: config: unknown key 'iterations'; an mccfr stage's config has table, abstraction, seed"),
    ({"config": {"table": {"variant": "minirazz_tiny"}, "seed": 3}, "continues": None},
     "stage two: config: abstraction missing"),
    ({"config": {**TINY_MCCFR, "abstraction": "razz_buckets"}, "continues": None},
     "stage two: config: abstraction: "),
    ({"config": {**TINY_MCCFR, "table": {"variant": "holdem"}}, "continues": None}, "stage two: config: table: "),
    ({"config": {**TINY_MCCFR, "seed": -1}, "continues": None}, "stage two: config: seed: "),
    ({"imitation": {"teacher": "random"}}, "stage two: imitation: not taken by an mccfr stage"),
    ({"config": {**TINY_MCCFR, "model": {"agents": ["random"], "weights": [2.0], "partners": ["random"]}},
      "continues": None}, "stage two: config: model: model weights: expected each in (0, 1]"),
])
def test_a_bad_mccfr_stage_is_one_line_naming_what_is_wrong(mccfr_zoo, change, message):
    data = json.loads((mccfr_zoo / f"solved{recipes.SUFFIX}").read_text())
    data["stages"][1].update(change)
    (mccfr_zoo / f"solved{recipes.SUFFIX}").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match=re.escape(message)):
        recipes.load_recipe("solved", mccfr_zoo)


def test_an_mccfr_chain_against_a_model_reproduces_the_uninterrupted_solve(tmp_path):
    """A recipe's ``model`` reaches the solver: its product is the run against that model, byte for byte."""
    pytest.importorskip("numba", reason="the sampled solver walks the batched engine's kernels")
    from razz_env.engine.config import HandConfig
    from razz_env.solve.sampled_cfr import SampledCFR
    from razz_env.train.opponent_model import ModelSpec, build_model

    model = {"agents": ["calling_station"], "weights": [0.5], "partners": ["random"], "hands": 100, "seed": 0,
             "full": 1}
    folder = tmp_path / "zoo"
    folder.mkdir()
    _write(folder, "exploits", product="@two/policy.npz", acceptance_seed=7,
           stages=[{"name": "one", "kind": "mccfr", "config": {**TINY_MCCFR, "model": model}, "steps": 300},
                   {"name": "two", "kind": "mccfr", "config": "one", "steps": 500, "continues": "one"}])
    recipe = recipes.load_recipe("exploits", folder)
    assert "model={'agents': ['calling_station']" in recipes.describe_plan(recipe, recipes.plan(recipe, tmp_path))[4]
    config = HandConfig.create("minirazz_tiny")
    whole = SampledCFR(config, seed=3, model=build_model(ModelSpec.create(model), config, "exact"))
    whole.run(500)
    shipped = whole.average_policy().save(folder / "exploits.npz")
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    (folder / "policies.json").write_text(json.dumps({"exploits": {"file": "exploits.npz", "sha256": digest}}))
    verdict = recipes.reproduce(recipe, tmp_path / "runs", progress=False, notify=lambda _: None)[1]
    assert verdict.reproduced

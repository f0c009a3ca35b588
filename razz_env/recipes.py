"""Zoo recipes: each shipped agent's whole training chain in one file beside its model, run in order.

A recipe (``razz_env/agents/zoo/<name>.recipe.yaml``) names the agent, optionally the recipe whose product it
starts from (``from``), its stages in order and which file of them is the shipped model (``product``). A stage
has a ``name``, a ``kind`` and its full ``razz train`` config inline:

* ``train``: ``razz train`` on the config;
* ``psro``: :func:`razz_env.exploit.psro.run_psro` with the config as the learner's base and ``loop`` its settings;
* ``imitation``: :func:`razz_env.train.imitation.warm_start` (``imitation`` its settings) into the config's network;
* ``widen``: the model the config's run starts from (its ``init_model``, widened by ``widen_from``), saved alone;
* ``ppo``: the batched PPO trainer (:mod:`razz_env.train.batch_ppo`; the config its settings) until ``steps``
  environment steps in all, as a :class:`~razz_env.train.budgeted.BudgetedRun`; with ``continues: STAGE`` it goes
  on from that earlier ``ppo`` stage's last checkpoint (one run cut into stages of about an hour each, so a long run
  is trained, kept and reproduced in pieces; a stage may change what the learner plays against and its
  regularisation, ``batch_ppo.ADJUSTABLE``, and nothing else). Its ``final.pt`` is the policy as it plays;
  its ``checkpoint.pt`` is what a later stage needs, its SHA-256 recorded as ``checkpoint_sha256`` once made, so
  that a kept copy (``--input STAGE/checkpoint.pt=PATH``) can stand in for the stage.
* ``mccfr``: sampled CFR (:class:`~razz_env.train.sampled_stage.SampledStage`; the config its ``table``,
  ``abstraction`` and ``seed``) until ``steps`` iterations in all; with ``continues: STAGE`` it goes on from that
  earlier ``mccfr`` stage's end, with the same config. Its ``policy.npz`` is the average strategy; a chain repeats
  byte for byte, so its ``checkpoint_sha256`` is checked, not given (its checkpoints are too large to keep).

A model an earlier stage makes is named ``@STAGE/FILE`` (a file of that stage's folder, e.g.
``@phase4/checkpoints/step_750016.zip``) or ``@RECIPE`` (a ``from`` recipe's product) wherever a config names a
model file (``init_model.path``, a pool model's ``path``); the SHA-256 beside it is the one recorded when the agent
was made. ``razz zoo reproduce`` runs the stages into ``runs/zoo/<recipe>/<stage>/`` (a finished stage is kept, an
interrupted one resumes through its run folder), writes the product without its optimizer's moments to
``runs/zoo/<name>/<name>.zip`` and checks it against the manifest: its SHA-256, else its weights against the shipped
file's, else its figures against the manifest's ``final_eval`` confidence intervals. Stages train to their
``total_timesteps``: a recipe config has no ``max_minutes`` (a time cap would make the product depend on the
machine).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import shutil
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, make_dataclass
from pathlib import Path
from typing import Any

from razz_env.agents.torch_policy import ALGORITHM as BATCH_PPO
from razz_env.engine.checks import as_int, as_real, limited
from razz_env.engine.errors import ConfigError, labelled, shown
from razz_env.engine.settings import checked_fields, read_settings_file
from razz_env.train.budgeted import CHECKPOINT
from razz_env.train.config import TrainConfig, checked_mapping
from razz_env.train.imitation import IMITATION_MODEL, ImitationSettings
from razz_env.train.runfolder import HASHES, RunFolder, model_bytes, write_atomic

SUFFIX = ".recipe.yaml"
KINDS = ("train", "psro", "imitation", "widen", "ppo", "mccfr")
CHAINED = ("ppo", "mccfr")
"""The kinds of stage that train to ``steps`` in all, going on from an earlier stage of their kind."""
ROOT = "runs/zoo"
RECIPE_KEYS = ("name", "from", "product", "acceptance_seed", "stages")
STAGE_KEYS = ("name", "kind", "config", "loop", "imitation", "cpu_minutes", "steps", "continues",
              "checkpoint_sha256")
CHAIN_KEYS = ("steps", "continues", "checkpoint_sha256")  # taken by a ppo or mccfr stage alone
MCCFR_KEYS = ("table", "abstraction", "seed")  # an mccfr stage's config: SampledStage's settings (and "model")
PPO_FOLDER_KEYS = ("output", "force")  # a ppo stage's run folder is the recipe's
CHECKPOINT_MINUTES = 15.0  # training CPU minutes between a ppo stage's checkpoints
LOOP_KEYS = ("generations", "steps_per_generation", "br_steps", "br_weight", "deals", "seed")
_Loop = make_dataclass("_Loop", LOOP_KEYS)
"""The settings a recipe gives a PSRO loop (:class:`razz_env.exploit.psro.Args` less the run's own), as fields."""
WIDENED_MODEL = "model.zip"
# Beside a recipe's product: the SHA-256 of the stage file it was written from, and its own.
PRODUCT = "product.json"


def zoo_folder() -> Path:
    """The folder of the shipped models, their manifest and their recipes."""
    from razz_env.agents.sb3_zoo import ZOO_DIR

    return ZOO_DIR


def _manifest_path(folder: Path, product: str = "") -> Path:
    """The zoo manifest a recipe's product is listed in: ``policies.json`` for a policy file (``.npz``), else
    ``manifest.json``."""
    return folder / ("policies.json" if product.endswith(".npz") else "manifest.json")


def _manifest(folder: Path, product: str = "") -> dict[str, Any]:
    path = _manifest_path(folder, product)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _name(label: str, value: Any) -> str:
    if not isinstance(value, str) or not value.isidentifier() or not value.islower():
        raise ConfigError(f"{label}: expected a lowercase name (letters, digits, underscores), got {shown(value)}")
    return value


def _references(data: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in ``data`` whose ``path`` names an earlier stage's model (``@...``)."""
    if isinstance(data, dict):
        if isinstance(data.get("path"), str) and data["path"].startswith("@"):
            yield data
        for value in data.values():
            yield from _references(value)
    elif isinstance(data, list):
        for value in data:
            yield from _references(value)


@dataclass(frozen=True)
class Stage:
    """One stage of a recipe: its kind, its config as written (``@`` references unresolved) and its settings."""

    name: str
    kind: str
    recipe: str
    config: dict[str, Any]
    loop: dict[str, Any] | None = None
    imitation: ImitationSettings | None = None
    cpu_minutes: float | None = None
    until: int = 0
    continues: Stage | None = None
    checkpoint_sha256: str | None = None

    @property
    def warm_start(self) -> str | None:
        """The model the stage starts from (its config's ``init_model.path``, a ``ppo`` stage's earlier stage), or
        None."""
        if self.kind == "ppo":
            if self.imitation is not None:
                return f"an imitation of {self.imitation.teacher} ({self.name}.imitation)"
            return f"@{self.continues.name}/{CHECKPOINT}" if self.continues else None
        if self.kind == "mccfr":
            from razz_env.train.sampled_stage import CHECKPOINT as SAMPLED_CHECKPOINT

            return f"@{self.continues.name}/{SAMPLED_CHECKPOINT}" if self.continues else None
        init = self.config.get("init_model")
        return init.get("path") if isinstance(init, dict) else None

    @property
    def steps(self) -> int:
        """Environment steps the stage trains (a PSRO loop's learners and best responses together; an ``mccfr``
        stage's iterations)."""
        if self.kind in CHAINED:
            return self.until - (self.continues.until if self.continues else 0)
        if self.kind == "train":
            return int(self.config.get("total_timesteps", 0))
        if self.kind == "psro":
            return self.loop["generations"] * (self.loop["steps_per_generation"] + self.loop["br_steps"])
        return 0

    def checked_config(self, root: str | Path = ROOT) -> Any:
        """The stage's config validated without the models earlier stages make (those are checked when it runs): a
        :class:`TrainConfig`, or a ``ppo`` stage's trainer ``Args``."""
        if self.kind == "mccfr":
            return mccfr_settings(self.config)
        if self.kind == "ppo":
            from razz_env.train.batch_ppo import check_args
            from razz_env.train.budgeted import trainer_args

            args = trainer_args(self.config, Path(root) / self.recipe / self.name)
            check_args(args, str)
            return args
        data = {**self.config, "output": str(Path(root) / self.recipe / self.name), "init_model": None}
        pool = dict(data.get("opponents") or {})
        baselines, weights = pool.get("baselines") or [], pool.get("weights") or []
        if isinstance(baselines, list) and isinstance(weights, list) and len(baselines) == len(weights):
            kept = [index for index, spec in enumerate(baselines) if next(_references(spec), None) is None]
            pool.update(baselines=[baselines[i] for i in kept], weights=[weights[i] for i in kept])
            data["opponents"] = pool
        with labelled(f"stage {self.name}: config"):
            return TrainConfig.from_dict(data)


@dataclass(frozen=True)
class Recipe:
    """A shipped agent's recipe: its stages after those of the recipe it starts from (``base``), and its product."""

    name: str
    product: str
    stages: tuple[Stage, ...]
    acceptance_seed: int
    folder: Path
    base: Recipe | None = None

    def chain(self) -> list[Stage]:
        """Every stage to run, in order: the base recipe's first."""
        return [*(self.base.chain() if self.base else []), *self.stages]

    def recipes(self) -> list[Recipe]:
        """This recipe and those it starts from, the first base first."""
        return [*(self.base.recipes() if self.base else []), self]

    def stage(self, name: str) -> Stage:
        """The stage called ``name`` in the chain; a :class:`ConfigError` names the stages there are."""
        for stage in self.chain():
            if stage.name == name:
                return stage
        raise ConfigError(f"--stage {name!r}: {self.name} has the stages {', '.join(s.name for s in self.chain())}")

    def manifest_entry(self) -> dict[str, Any]:
        """The agent's entry in the zoo manifest (``manifest.json``; a policy file's, an ``.npz`` product, in
        ``policies.json``), empty when it has none."""
        return _manifest(self.folder, self.product).get(self.name, {})


def recipe_names(folder: Path | None = None) -> list[str]:
    """The agents that have a recipe in the zoo folder."""
    folder = folder or zoo_folder()
    return sorted(path.name[:-len(SUFFIX)] for path in folder.glob(f"*{SUFFIX}"))


def load_recipe(name: str, folder: Path | None = None, _seen: tuple[str, ...] = ()) -> Recipe:
    """Read and check ``<folder>/<name>.recipe.yaml`` and the recipes it starts from; one-line
    :class:`ConfigError`s name what is wrong."""
    folder = folder or zoo_folder()
    if not isinstance(name, str) or not name.isidentifier() or not name.islower():  # no folder, no '..'
        raise ConfigError(f"{shown(name)}: expected a recipe name; recipes: {', '.join(recipe_names(folder))}")
    path = folder / f"{name}{SUFFIX}"
    if not path.is_file():
        raise ConfigError(f"{name}: no recipe {path.name} in {folder}; recipes: {', '.join(recipe_names(folder))}")
    data = read_settings_file(path, "recipe", f"razz_env/agents/zoo/ppo_razz{SUFFIX}")
    unknown = sorted(set(data) - set(RECIPE_KEYS))
    if unknown:
        raise ConfigError(f"{path.name}: unknown key {unknown[0]!r}; a recipe has {', '.join(RECIPE_KEYS)}")
    if _name(f"{path.name}: name", data.get("name")) != name:
        raise ConfigError(f"{path.name}: name: expected {name!r} (the file's name), got {shown(data.get('name'))}")
    base = None
    if data.get("from") is not None:
        base_name = _name(f"{path.name}: from", data["from"])
        if base_name in (*_seen, name):
            raise ConfigError(f"{path.name}: from: {base_name} starts from {name} again (a loop)")
        base = load_recipe(base_name, folder, (*_seen, name))
    seed = data.get("acceptance_seed", 0)
    as_int(f"{path.name}: acceptance_seed", seed, 0)
    stages_data = data.get("stages")
    if not isinstance(stages_data, list) or not stages_data:
        raise ConfigError(f"{path.name}: stages: expected a list of stages, got {shown(stages_data)}")
    earlier = base.chain() if base else []
    stages: list[Stage] = []
    for index, item in enumerate(stages_data):
        stage = _stage(f"{path.name}: stages[{index}]", item, name, [*earlier, *stages])
        stages.append(stage)
    recipe = Recipe(name, "", tuple(stages), seed, folder, base)
    known = [s.name for s in recipe.chain()]
    bases = [r.name for r in recipe.recipes()[:-1]]
    for stage in recipe.chain()[len(earlier):]:
        before = known[:known.index(stage.name)]
        for ref in _references(stage.config):
            _check_reference(f"{path.name}: stage {stage.name}", ref["path"], before, bases)
    product = data.get("product")
    if not isinstance(product, str) or not product.startswith("@"):
        raise ConfigError(f"{path.name}: product: expected '@STAGE/FILE', the model shipped, got {shown(product)}")
    _check_reference(f"{path.name}: product", product, known, [])
    return Recipe(name, product, tuple(stages), seed, folder, base)


def write_recipe(folder: Path, data: dict[str, Any], comment: str) -> Path:
    """``data`` (a recipe, its ``name`` among it) written to ``<folder>/<name>.recipe.yaml`` under the one-line
    ``comment``, then read back by :func:`load_recipe`: a file it refuses is removed and the ``ConfigError``
    raised (a study's ``--recipe``)."""
    import yaml

    name = data.get("name")
    if not isinstance(name, str) or not name.isidentifier() or not name.islower():  # a file name, before writing
        raise ConfigError(f"--recipe: expected a lowercase name (letters, digits, underscores), got {name!r}")
    path = Path(folder) / f"{name}{SUFFIX}"
    path.write_text(f"# {comment}\n" + yaml.safe_dump(data, sort_keys=False, width=120), encoding="utf-8")
    try:
        load_recipe(name, Path(folder))
    except ConfigError:
        path.unlink()
        raise
    return path


def _check_reference(label: str, reference: str, stages: list[str], recipes: list[str]) -> None:
    head, _, rest = reference[1:].partition("/")
    if not reference.startswith("@") or (head in stages and rest) or (head in recipes and not rest):
        return
    allowed = [f"@{s}/FILE" for s in stages] + [f"@{r}" for r in recipes]
    raise ConfigError(f"{label}: {reference!r} names no earlier stage's file; expected one of "
                      f"{', '.join(allowed) or '(none: no stage before)'}")


def _stage(label: str, item: Any, recipe: str, earlier: list[Stage]) -> Stage:
    if not isinstance(item, dict):
        raise ConfigError(f"{label}: expected a mapping with {', '.join(STAGE_KEYS)}, got {shown(item)}")
    unknown = sorted(set(item) - set(STAGE_KEYS))
    if unknown:
        raise ConfigError(f"{label}: unknown key {unknown[0]!r}; a stage has {', '.join(STAGE_KEYS)}")
    name = _name(f"{label}: name", item.get("name"))
    label = f"{label.rpartition(':')[0]}: stage {name}"
    if name in {stage.name for stage in earlier} or name == recipe:
        raise ConfigError(f"{label}: the name is taken (stage names are unique along the chain, and not a recipe's)")
    kind = item.get("kind")
    if kind not in KINDS:
        raise ConfigError(f"{label}: kind: expected one of {', '.join(KINDS)}, got {shown(kind)}")
    config = item.get("config")
    if isinstance(config, str):
        shared = [stage for stage in earlier if stage.name == config]
        if not shared:
            raise ConfigError(f"{label}: config: {config!r} is no earlier stage (a config is inline or an earlier "
                              f"stage's name)")
        config = shared[0].config
    if not isinstance(config, dict):
        raise ConfigError(f"{label}: config: expected the stage's razz train config, got {shown(config)}")
    for key in CHAIN_KEYS:
        if item.get(key) is not None and kind not in CHAINED:
            raise ConfigError(f"{label}: {key}: not taken by a {kind} stage")
    minutes = item.get("cpu_minutes")
    if minutes is not None:
        as_real(f"{label}: cpu_minutes", minutes, 0, what="the recorded minutes (a number)")
    if kind == "ppo":
        return _ppo_stage(label, item, name, recipe, config, earlier, minutes)
    if kind == "mccfr":
        return _mccfr_stage(label, item, name, recipe, config, earlier, minutes)
    if "max_minutes" in config or "output" in config:
        raise ConfigError(f"{label}: config: a recipe stage trains to total_timesteps into its own folder; drop "
                          f"{'max_minutes' if 'max_minutes' in config else 'output'}")
    needs = {"psro": "loop", "imitation": "imitation"}
    for key in ("loop", "imitation"):
        if (item.get(key) is not None) != (needs.get(kind) == key):
            raise ConfigError(f"{label}: {key}: {'required' if needs.get(kind) == key else 'not taken'} by a {kind} "
                              f"stage")
    loop = None
    if kind == "psro":
        loop = checked_mapping(_Loop, item["loop"], f"{label}: loop")
        missing = [key for key in LOOP_KEYS if key not in loop]
        if missing:
            raise ConfigError(f"{label}: loop: {missing[0]} missing; a loop gives {', '.join(LOOP_KEYS)}")
    imitation = None
    if kind == "imitation":
        imitation = _imitation(label, item)
    if kind == "widen" and not isinstance(config.get("init_model"), dict):
        raise ConfigError(f"{label}: a widen stage writes the model its config starts from; give init_model")
    stage = Stage(name, kind, recipe, config, loop, imitation, minutes)
    stage.checked_config()
    return stage


def _imitation(label: str, item: dict[str, Any]) -> ImitationSettings:
    """A stage's ``imitation`` settings (an imitation stage's, or a ``ppo`` chain's first stage's start)."""
    with labelled(f"{label}: imitation"):
        return ImitationSettings(**checked_mapping(ImitationSettings, item["imitation"], "imitation"))


def _chained(label: str, item: dict[str, Any], kind: str, earlier: list[Stage],
             what: str) -> tuple[int, Stage | None, str | None]:
    """A ``ppo`` or ``mccfr`` stage's ``steps`` (``what`` they count, in all), the earlier stage of its ``kind`` it
    ``continues`` (it must end past it) and its ``checkpoint_sha256``, checked."""
    from razz_env.agents.sb3_zoo import SHA256_PATTERN

    until = as_int(f"{label}: steps", item.get("steps"), 1, what=what)
    continues = None
    if item.get("continues") is not None:
        found = [stage for stage in earlier if stage.name == item["continues"] and stage.kind == kind]
        if not found:
            raise ConfigError(f"{label}: continues: {shown(item['continues'])} is no earlier {kind} stage")
        continues = found[0]
        if until <= continues.until:
            raise ConfigError(f"{label}: steps: {until:,} is not past {continues.name}'s {continues.until:,}")
    digest = item.get("checkpoint_sha256")
    if digest is not None and not (isinstance(digest, str) and SHA256_PATTERN.fullmatch(digest)):
        raise ConfigError(f"{label}: checkpoint_sha256: expected 64 lowercase hex digits, got {shown(digest)}")
    return until, continues, digest


def _ppo_stage(label: str, item: dict[str, Any], name: str, recipe: str, config: dict[str, Any],
               earlier: list[Stage], minutes: float | None) -> Stage:
    """A ``ppo`` stage: the trainer's settings, the steps it trains to, the earlier stage it goes on from."""
    from razz_env.train.batch_ppo import Args

    for key in PPO_FOLDER_KEYS:
        if key in config:
            raise ConfigError(f"{label}: config: {key} is the recipe's (a stage trains into its own folder); drop it")
    checked_fields(Args, config, f"{label}: config")
    until, continues, digest = _chained(label, item, "ppo", earlier, "the environment steps it trains to in all")
    if continues is not None:
        from razz_env.train.batch_ppo import ADJUSTABLE, changed_settings
        from razz_env.train.budgeted import trainer_args

        fixed = [key for key in changed_settings(continues.config, trainer_args(config, Path(recipe)))
                 if key not in ADJUSTABLE]
        if fixed:
            raise ConfigError(f"{label}: config: a stage continuing {continues.name} changes {', '.join(fixed)}; it "
                              f"may change only {', '.join(ADJUSTABLE)} (config: {continues.name} keeps them all)")
    imitation = None
    if item.get("imitation") is not None:
        if continues is not None:
            raise ConfigError(f"{label}: imitation: a stage that continues {continues.name} starts from its "
                              f"checkpoint; only a chain's first stage starts from an imitation")
        imitation = _imitation(label, item)
    stage = Stage(name, "ppo", recipe, config, imitation=imitation, cpu_minutes=minutes, until=until,
                  continues=continues, checkpoint_sha256=digest)
    with labelled(f"{label}: config"):
        stage.checked_config()
    return stage


def mccfr_settings(config: dict[str, Any]) -> dict[str, Any]:
    """An ``mccfr`` stage's config checked: its table (``HandConfig.create``'s settings), an abstraction of that
    table, a seed and, for a chain that exploits one, its ``model`` (:class:`~razz_env.train.opponent_model.ModelSpec`'s
    settings); ``ConfigError`` naming what is wrong."""
    from razz_env.engine.config import HandConfig
    from razz_env.solve.abstraction import abstraction_code
    from razz_env.train.opponent_model import ModelSpec

    unknown = sorted(set(config) - {*MCCFR_KEYS, "model"})
    missing = [key for key in MCCFR_KEYS if key not in config]
    if unknown or missing:
        raise ConfigError(f"{'unknown key ' + repr(unknown[0]) if unknown else missing[0] + ' missing'}; an mccfr "
                          f"stage's config has {', '.join(MCCFR_KEYS)}")
    table = config["table"]
    if not isinstance(table, dict):
        raise ConfigError(f"table: expected the table's settings (variant, stacks, ...), got {shown(table)}")
    with labelled("table", ValueError, TypeError):
        hand_config = HandConfig.create(**table)
    with labelled("abstraction", ValueError):
        abstraction_code(config["abstraction"], hand_config)
    as_int("seed", config["seed"], 0, what="the solver's seed")
    if "model" in config:
        ModelSpec.create(config["model"])
    return config


def _mccfr_stage(label: str, item: dict[str, Any], name: str, recipe: str, config: dict[str, Any],
                 earlier: list[Stage], minutes: float | None) -> Stage:
    """An ``mccfr`` stage: the solver's settings, the iterations it runs to, the earlier stage it goes on from."""
    for key in ("loop", "imitation"):
        if item.get(key) is not None:
            raise ConfigError(f"{label}: {key}: not taken by an mccfr stage")
    with labelled(f"{label}: config"):
        mccfr_settings(config)
    until, continues, digest = _chained(label, item, "mccfr", earlier, "the iterations it runs to in all")
    if continues is not None and json.loads(json.dumps(config)) != json.loads(json.dumps(continues.config)):
        raise ConfigError(f"{label}: config: a stage continuing {continues.name} solves the same table, abstraction "
                          f"and seed (config: {continues.name})")
    return Stage(name, "mccfr", recipe, config, cpu_minutes=minutes, until=until, continues=continues,
                 checkpoint_sha256=digest)


# ---- the plan -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedStage:
    """A stage as ``--dry-run`` shows it: what runs, from what, for how long."""

    stage: Stage
    folder: Path
    minutes: float | None
    command: str


def plan(recipe: Recipe, root: str | Path = ROOT, only: str | None = None) -> list[PlannedStage]:
    """The stages ``reproduce`` runs (all, or ``only`` one), each with its estimated CPU minutes: the recipe's
    recorded ``cpu_minutes``, else its steps at the manifest's recorded steps per second."""
    root = Path(root)
    stages = [recipe.stage(only)] if only else recipe.chain()
    owners = {r.name: r.manifest_entry() for r in recipe.recipes()}
    planned = []
    for stage in stages:
        rate = owners.get(stage.recipe, {}).get("steps_per_second")
        minutes = stage.cpu_minutes
        if minutes is None:
            minutes = stage.steps / rate / 60 if rate else (0.0 if stage.steps == 0 else None)
        planned.append(PlannedStage(stage, root / stage.recipe / stage.name, minutes, _command(stage, root)))
    return planned


def _command(stage: Stage, root: Path) -> str:
    config = root / stage.recipe / f"{stage.name}.yaml"
    folder = root / stage.recipe / stage.name
    if stage.kind == "train":
        return f"razz train --config {config}"
    if stage.kind == "psro":
        settings = ", ".join(f"{key}={value!r}" for key, value in stage.loop.items())
        return f"razz_env.exploit.psro.run_psro(Args(config='{config}', {settings}, output='{folder}'))"
    if stage.kind == "ppo":
        start = f", start_from='{root / stage.recipe / stage.continues.name}'" if stage.continues else ""
        if stage.imitation is not None:
            start = (f", start_from=imitation_stage('{folder}.imitation', {stage.config!r}, "
                     f"{stage.imitation!r})")
        return (f"razz_env.train.budgeted.BudgetedRun('{folder}', {stage.config!r}, max_steps={stage.until}{start}"
                f", ...).run()")
    if stage.kind == "mccfr":
        start = f", start_from='{root / stage.recipe / stage.continues.name}'" if stage.continues else ""
        model = f", model={stage.config['model']!r}" if "model" in stage.config else ""
        return (f"razz_env.train.sampled_stage.SampledStage('{folder}', {stage.config['table']!r}, "
                f"{stage.config['abstraction']!r}, {stage.config['seed']}, until={stage.until}{start}{model}).run()")
    if stage.kind == "imitation":
        return (f"razz_env.train.imitation.warm_start(TrainConfig.from_yaml('{config}'), '{folder}', "
                f"{stage.imitation!r})")
    return f"razz_env.recipes.write_start_model(TrainConfig.from_yaml('{config}'), '{folder}')"


def describe_plan(recipe: Recipe, planned: list[PlannedStage]) -> list[str]:
    """The lines ``--dry-run`` prints: each stage, then the total estimate and the product."""
    lines = [f"{recipe.name}: {len(planned)} stage(s), product {recipe.product}"]
    for index, item in enumerate(planned, 1):
        stage = item.stage
        unit = "iterations" if stage.kind == "mccfr" else "steps"
        steps = f"{stage.steps:,} {unit}" if stage.steps else "no RL steps"
        minutes = f"~{item.minutes:.1f} CPU min" if item.minutes is not None else "CPU time unknown"
        lines.append(f"{index:2d}. {stage.recipe}/{stage.name} [{stage.kind}] {steps}, {minutes}; "
                     f"warm start: {stage.warm_start or 'none (fresh weights)'}")
        if stage.kind == "psro":
            lines.append(f"    loop: {', '.join(f'{k} {v}' for k, v in stage.loop.items())}")
        lines.append(f"    {item.command}")
    known = [item.minutes for item in planned if item.minutes is not None]
    lines.append(f"estimated CPU time: {sum(known) / 60:.1f} h ({sum(known):.0f} min"
                 f"{'' if len(known) == len(planned) else ', some stages unknown'}; the manifest's 2-core machine)")
    return lines


# ---- running ---------------------------------------------------------------------------------------------------


@dataclass
class Run:
    """Where a reproduction writes, which stage files are given instead of made, and what it noticed."""

    recipe: Recipe
    root: Path
    inputs: dict[str, Path] = field(default_factory=dict)
    progress: bool = True
    notify: Callable[[str], None] = print
    notes: list[str] = field(default_factory=list)

    def file_of(self, reference: str) -> Path:
        """The file ``@STAGE/FILE`` or ``@RECIPE`` names (a given ``--input`` first)."""
        key = reference[1:]
        if key in self.inputs:
            return self.inputs[key]
        head, _, rest = key.partition("/")
        return self.stage_folder(head) / rest if rest else self.root / head / f"{head}.zip"

    def stage_folder(self, name: str) -> Path:
        """The run folder of the chain's stage ``name``."""
        stage = self.recipe.stage(name)
        return self.root / stage.recipe / stage.name

    def made_hash(self, reference: str, path: Path) -> str:
        """The SHA-256 the stage that made ``path`` recorded (a ``hashes.json`` up its folder), checked against the
        bytes; a recipe's product and an ``--input`` are hashed as they are."""
        if not path.is_file():
            head = reference[1:].partition("/")[0]
            raise ConfigError(f"{reference}: {path} is not there yet: run its stage {head} first, or give "
                              f"--input {reference[1:]}=PATH")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if reference[1:] in self.inputs or "/" not in reference:
            return digest
        stage_folder = self.stage_folder(reference[1:].partition("/")[0])
        folder = path.parent
        while True:
            recorded = RunFolder(folder).hashes().get(str(path.relative_to(folder))) \
                if (folder / HASHES).is_file() else None
            if recorded is not None:
                if recorded != digest:
                    raise ConfigError(f"{reference}: {path} has SHA-256 {digest}, its run recorded {recorded}")
                return digest
            if folder == stage_folder or folder == folder.parent:
                raise ConfigError(f"{reference}: no SHA-256 recorded for {path} by its stage")
            folder = folder.parent

    def resolved(self, stage: Stage) -> TrainConfig:
        """The stage's config with every ``@`` model replaced by the file this run made (or was given) and its
        SHA-256; a given file must carry the recorded hash, a made one that differs is noted (not bit-reproduced)."""
        data = json.loads(json.dumps(stage.config))
        for ref in _references(data):
            reference, recorded = ref["path"], ref.get("sha256")
            path = self.file_of(reference)
            digest = self.made_hash(reference, path)
            if digest != recorded:
                if reference[1:] in self.inputs:
                    raise ConfigError(f"--input {reference[1:]}={path}: SHA-256 {digest}, the recipe recorded "
                                      f"{recorded} for it")
                note = (f"stage {stage.name}: {reference} has SHA-256 {digest[:12]}..., the recipe recorded "
                        f"{str(recorded)[:12]}...: an earlier stage was not reproduced bit for bit")
                if note not in self.notes:
                    self.notes.append(note)
                    self.notify(note)
            ref.update(path=str(path), sha256=digest)
        data["output"] = str(self.root / stage.recipe / stage.name)
        config = TrainConfig.from_dict(data)
        import yaml

        write_atomic(self.root / stage.recipe / f"{stage.name}.yaml",
                     yaml.safe_dump(config.to_dict(), sort_keys=False).encode("utf-8"))
        return config

    def run_stage(self, stage: Stage) -> None:
        """Run one stage into its folder (a finished one is read back, an interrupted one resumed)."""
        if stage.kind == "ppo":
            self.run_ppo_stage(stage)
            return
        if stage.kind == "mccfr":
            self.run_mccfr_stage(stage)
            return
        config = self.resolved(stage)
        folder = Path(config.output)
        self.notify(f"stage {stage.recipe}/{stage.name} [{stage.kind}] in {folder}")
        if stage.kind == "train":
            from razz_env.exploit.psro import train_learner

            train_learner(config, self.progress)
        elif stage.kind == "psro":
            from razz_env.exploit.psro import Args, run_psro

            run_psro(Args(config=config, output=str(folder), progress=self.progress, **stage.loop))
        elif (folder / (IMITATION_MODEL if stage.kind == "imitation" else WIDENED_MODEL)).is_file():
            self.notify(f"{folder}: already made; using it")
        elif stage.kind == "imitation":
            from razz_env.train.imitation import warm_start

            warm_start(config, folder, stage.imitation)
        else:
            write_start_model(config, folder)

    def run_ppo_stage(self, stage: Stage) -> None:
        """Train a ``ppo`` stage to its steps (going on from its own checkpoint, else from the stage it continues, a
        kept copy of that stage's checkpoint given as ``--input``, or its imitation start) and record its files'
        SHA-256."""
        from razz_env.train.budgeted import FINAL, BudgetedRun, Checkpoints, budget_spent, read_state

        folder = self.stage_folder(stage.name)
        self.notify(f"stage {stage.recipe}/{stage.name} [ppo] in {folder}")
        start = self.stage_folder(stage.continues.name) if stage.continues else None
        if stage.imitation is not None:
            start = folder.with_name(f"{folder.name}.imitation")
        kept = self.inputs.get(f"{stage.continues.name}/{CHECKPOINT}") if stage.continues else None
        if kept is not None and read_state(folder) is None:
            start = self.kept_stage(stage.continues, kept)
        run = BudgetedRun(folder, stage.config, minutes=math.inf, every=CHECKPOINT_MINUTES * 60,
                          evaluator=Checkpoints(), max_steps=stage.until, label=str(folder), start_from=start)
        if run.done() and FINAL in RunFolder(folder).hashes():
            self.notify(f"{folder}: already made; using it")
            return
        if stage.continues and read_state(folder) is None and not budget_spent(start, math.inf,
                                                                                stage.continues.until):
            raise ConfigError(f"stage {stage.name}: continues {stage.continues.name}, which is not finished ({start}):"
                              f" run it first")
        if stage.imitation is not None and read_state(folder) is None:
            from razz_env.train.batch_imitation import imitation_stage

            imitation_stage(start, stage.config, stage.imitation)
        if not run.done():
            run.run()
        runs = RunFolder(folder)
        made = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in (FINAL, CHECKPOINT)}
        runs.write_json(HASHES, {**runs.hashes(), **made})
        if stage.checkpoint_sha256 not in (None, made[CHECKPOINT]):
            note = (f"stage {stage.name}: its checkpoint has SHA-256 {made[CHECKPOINT][:12]}..., the recipe recorded "
                    f"{stage.checkpoint_sha256[:12]}...: not reproduced bit for bit")
            self.notes.append(note)
            self.notify(note)

    def run_mccfr_stage(self, stage: Stage) -> None:
        """Solve an ``mccfr`` stage to its iterations (going on from its own checkpoint, else from the stage it
        continues) and record its files' SHA-256; a checkpoint other than the recipe's is noted."""
        from razz_env.train.sampled_stage import CHECKPOINT as SAMPLED_CHECKPOINT
        from razz_env.train.sampled_stage import POLICY, SampledStage

        folder = self.stage_folder(stage.name)
        self.notify(f"stage {stage.recipe}/{stage.name} [mccfr] in {folder}")
        start = self.stage_folder(stage.continues.name) if stage.continues else None
        solve = SampledStage(folder, stage.config["table"], stage.config["abstraction"], stage.config["seed"],
                             until=stage.until, start_from=start, model=stage.config.get("model"))
        runs = RunFolder(folder)
        if solve.done() and POLICY in runs.hashes():
            self.notify(f"{folder}: already made; using it")
            return
        solve.run(self.notify)  # refuses, by name, to go on from an unfinished stage
        made = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in (POLICY,
                                                                                               SAMPLED_CHECKPOINT)}
        runs.write_json(HASHES, {**runs.hashes(), **made})
        if stage.checkpoint_sha256 not in (None, made[SAMPLED_CHECKPOINT]):
            note = (f"stage {stage.name}: its checkpoint has SHA-256 {made[SAMPLED_CHECKPOINT][:12]}..., the recipe "
                    f"recorded {stage.checkpoint_sha256[:12]}...: not reproduced bit for bit")
            self.notes.append(note)
            self.notify(note)

    def kept_stage(self, stage: Stage, path: Path) -> Path:
        """A run folder standing in for ``stage``, made from a kept copy of its checkpoint (``--input``), which
        must carry the SHA-256 the recipe recorded and end at the stage's steps; its CPU clock starts at 0."""
        import torch

        from razz_env.train.budgeted import STATE, write_json

        key = f"{stage.name}/{CHECKPOINT}"
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != stage.checkpoint_sha256:
            raise ConfigError(f"--input {key}={path}: SHA-256 {digest}, the recipe recorded "
                              f"{stage.checkpoint_sha256 or 'none (no checkpoint_sha256)'} for it")
        saved = torch.load(path, map_location="cpu", weights_only=True)
        if saved.get("steps") != stage.until:
            raise ConfigError(f"--input {key}={path}: a checkpoint at {saved.get('steps')} steps, the stage ends at "
                              f"{stage.until}")
        folder = self.root / stage.recipe / f"{stage.name}.input"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, folder / CHECKPOINT)
        write_json(folder / STATE, {"settings": json.loads(json.dumps(stage.config)), "clock": [0.0, 0.0],
                                    "next_measure": 0.0, "update": saved["update"], "steps": saved["steps"]})
        return folder

    def write_product(self, recipe: Recipe) -> Path:
        """``recipe``'s product without its optimizer's moments (what the zoo ships): ``<root>/<name>/<name>.zip``,
        written once per stage file it comes from (``product.json``)."""
        source = self.file_of(recipe.product)
        digest = self.made_hash(recipe.product, source)
        folder = RunFolder(self.root / recipe.name)
        algorithm = recipe.manifest_entry().get("algorithm", "maskable_ppo")
        suffix = ".npz" if recipe.product.endswith(".npz") else ".pt" if algorithm == BATCH_PPO else ".zip"
        target = folder.path / f"{recipe.name}{suffix}"
        record = folder.read_json(PRODUCT, {})
        if record.get("source") == digest and target.is_file() \
                and hashlib.sha256(target.read_bytes()).hexdigest() == record.get("sha256"):
            return target
        data = read_checked(source, digest)
        data = data if suffix != ".zip" else playing_bytes(data, algorithm)  # a policy file plays as it is
        write_atomic(target, data)
        folder.write_json(PRODUCT, {"source": digest, "sha256": hashlib.sha256(data).hexdigest()})
        return target


def read_checked(path: Path, sha256: str) -> bytes:
    """The bytes of ``path`` once they match ``sha256``."""
    from razz_env.agents.sb3_agent import read_verified

    return read_verified(path, sha256)


def playing_bytes(data: bytes, algorithm: str) -> bytes:
    """A verified model archive without its optimizer's moments (not needed to play): a third the size."""
    from razz_env.agents.sb3_agent import load_model

    model = load_model(data, algorithm)
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)([{"params": g["params"]} for g in optimizer.param_groups],
                                             **optimizer.defaults)
    return model_bytes(model)


def write_start_model(config: TrainConfig, out: str | Path) -> str:
    """Save the model ``config``'s run starts from (its ``init_model``, widened when it says ``widen_from``) as
    ``<out>/model.zip`` with its SHA-256 in ``hashes.json``; returns the SHA-256."""
    from razz_env.train.trainer import build_model, build_vec_env, initialise_from

    if config.init_model is None:
        raise ConfigError("a widen stage's config has no init_model; there is no model to start from")
    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    initialise_from(model, config)
    return RunFolder(out).save_model(model, WIDENED_MODEL)


def same_weights(a: bytes, b: bytes) -> bool:
    """Whether two model files hold the same policy tensors: SB3 archives (their ``policy.pth``), batched-PPO
    policy files (their ``state_dict``) or sampled policies (their keys and probabilities), read as tensors or
    arrays only, never unpickling code."""
    if all(_is_policy_archive(data) for data in (a, b)):
        import numpy as np

        with np.load(io.BytesIO(a), allow_pickle=False) as one, np.load(io.BytesIO(b), allow_pickle=False) as two:
            return all(np.array_equal(one[name], two[name]) for name in ("keys", "probabilities"))
    import torch

    def tensors(data: bytes) -> dict[str, Any]:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if "policy.pth" in archive.namelist():
                return torch.load(io.BytesIO(archive.read("policy.pth")), map_location="cpu", weights_only=True)
        return torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)["state_dict"]

    first, second = tensors(a), tensors(b)
    return first.keys() == second.keys() and all(torch.equal(first[k], second[k]) for k in first)


def _is_policy_archive(data: bytes) -> bool:
    """Whether ``data`` is a sampled policy file (an ``.npz`` of keys and probabilities)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return {"keys.npy", "probabilities.npy"} <= set(archive.namelist())
    except zipfile.BadZipFile:
        return False


# ---- checking the product --------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """How the product compares with the shipped model: its hash, its weights, its figures against the CIs."""

    product: Path
    sha256: str
    recorded: str
    same_weights: bool | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def reproduced(self) -> bool:
        """Whether the product is the shipped file byte for byte."""
        return self.sha256 == self.recorded

    @property
    def within(self) -> bool:
        """Whether the hash or weights match, or every evaluated figure agrees with its recorded one
        (:func:`figures_agree`)."""
        return self.reproduced or bool(self.same_weights) or (bool(self.rows) and all(r["within"] for r in self.rows))

    def lines(self) -> list[str]:
        """The verdict in words."""
        lines = [f"product {self.product}: SHA-256 {self.sha256}",
                 "  = the manifest's: reproduced bit for bit" if self.reproduced else
                 f"  manifest records {self.recorded}: not the same file"]
        if self.same_weights is not None and not self.reproduced:
            lines.append("  same policy weights as the shipped model (the archives differ in save metadata only)"
                         if self.same_weights else "  policy weights differ from the shipped model's")
        for row in self.rows:
            lines.append(f"  vs {row['opponent']} ({row['seats']} seats, {row['hands']} hands): {row['bb_per_100']} "
                         f"[{row['ci95_low']}, {row['ci95_high']}]; recorded {row['recorded']} "
                         f"[{row['recorded_low']}, {row['recorded_high']}]: "
                         f"{'agrees with' if row['within'] else 'DIFFERS from'} the recorded figure (their "
                         f"difference within its 95% CI)")
        return lines


def verify(recipe: Recipe, product: Path, deals: int | None, notify: Callable[[str], None] = print) -> Verdict:
    """Compare the product with the manifest entry: SHA-256, weights against the shipped file, and (unless the
    weights match or ``deals`` is 0) a duplicate match against each ``final_eval`` opponent on the recipe's
    acceptance seed (``deals`` per opponent; None: the recorded hands' worth)."""
    entry = recipe.manifest_entry()
    data = product.read_bytes()
    verdict = Verdict(product, hashlib.sha256(data).hexdigest(), entry.get("sha256", ""))
    shipped = recipe.folder / entry.get("file", f"{recipe.name}.zip")
    if verdict.reproduced:
        return verdict
    if shipped.is_file():
        verdict.same_weights = same_weights(data, read_checked(shipped, verdict.recorded))
    if verdict.same_weights or deals == 0:
        return verdict
    for index, recorded in enumerate(entry.get("final_eval", [])):
        row = _evaluate(product, verdict.sha256, entry, recorded, deals, f"{recipe.acceptance_seed}/{index}")
        verdict.rows.append(row)
        notify(verdict.lines()[-1])
    return verdict


def _evaluate(product: Path, sha256: str, entry: dict[str, Any], recorded: dict[str, Any], deals: int | None,
              seed: str) -> dict[str, Any]:
    """One ``final_eval`` row played again: the product against the opponent (a name, or ``table x: a b c`` naming
    the other seats)."""
    from razz_env.agents.registry import make_agent
    from razz_env.engine.config import HandConfig
    from razz_env.evaluate.block_sums import Sums, summarise_tables
    from razz_env.evaluate.blocks import play_deals

    seats = int(recorded.get("seats", 2))
    names = recorded["opponent"].partition(":")[2].split() if ":" in recorded["opponent"] else \
        [recorded["opponent"]] * (seats - 1)
    if len(names) != seats - 1:
        raise ConfigError(f"final_eval {recorded['opponent']!r}: names {len(names)} opponents for {seats} seats")
    deals = deals or max(1, int(recorded["hands"]) // seats)
    if product.suffix == ".npz":  # a sampled policy file, seeded, played as it was accepted (thresholded or not)
        spec = {"type": str(product), "sha256": sha256, **({"threshold": entry["threshold"]} if "threshold" in entry
                                                            else {})}
    elif entry["algorithm"] == BATCH_PPO:  # it plays as it learned: the softmax, seeded
        spec = {"type": str(product), "sha256": sha256, "deterministic": False}
    else:
        spec = {"type": "sb3_model", "path": str(product), "sha256": sha256, "algorithm": entry["algorithm"],
                "encoding": entry["encoding"], "variant": entry["variant"], "num_seats": entry["num_seats"]}
    players = [make_agent(spec, seed=0)] + [make_agent(name, seed=i + 1) for i, name in enumerate(names)]
    stakes = {key: entry[key] for key in ("ante", "bring_in", "small_bet", "big_bet")}
    hand_config = HandConfig.create(entry["variant"], num_seats=seats, stacks=entry["stacks"], **stakes)
    tables = play_deals(players, hand_config, deals, seed, timeout=None)
    sums = summarise_tables(tables, seats, deals, hand_config.big_bet)
    rate = Sums.of(sums, 0).per_deal
    mean = round(rate.mean_bb100, 3)
    return {"opponent": recorded["opponent"], "seats": seats, "hands": sums["hands"], "bb_per_100": mean,
            "ci95_low": round(rate.low, 3), "ci95_high": round(rate.high, 3), "recorded": recorded["bb_per_100"],
            "recorded_low": recorded["ci95_low"], "recorded_high": recorded["ci95_high"],
            "within": figures_agree(rate.mean_bb100, rate.low, rate.high, recorded["bb_per_100"],
                                    recorded["ci95_low"], recorded["ci95_high"])}


def figures_agree(mean: float, low: float, high: float, other: float, other_low: float, other_high: float) -> bool:
    """Whether two independent estimates of one win rate agree: their difference lies within its own 95% CI
    (the standard errors, each a CI's half-width over 1.96, added in quadrature). A new figure's point estimate
    falls outside the other's CI about one time in six even when both measure the same agent, so that is no test.

    >>> figures_agree(39.125, 34.114, 44.136, 45.49, 39.17, 51.81), figures_agree(30.0, 28.0, 32.0, 45.49, 39.17, 51.81)
    (True, False)
    """
    spread = math.hypot((high - low) / 2, (other_high - other_low) / 2)
    return abs(mean - other) <= spread


def reproduce(recipe: Recipe, root: str | Path = ROOT, only: str | None = None, inputs: dict[str, Path] | None = None,
              deals: int | None = None, progress: bool = True,
              notify: Callable[[str], None] = print) -> tuple[Run, Verdict | None]:
    """Run the recipe's stages (all, or ``only`` one) into ``root`` and, when the product's stage ran, check the
    product against the manifest (:func:`verify`). A ``from`` recipe whose product is an ``--input`` is not run."""
    run = Run(recipe, Path(root), dict(inputs or {}), progress, notify)
    for key in run.inputs:
        if not run.inputs[key].is_file():
            raise ConfigError(f"--input {key}={run.inputs[key]}: no such file")
    given = {r.name for r in recipe.recipes()[:-1] if r.name in run.inputs}
    given_stages = {key.partition("/")[0] for key in run.inputs if key.endswith(f"/{CHECKPOINT}")}
    stages = [recipe.stage(only)] if only else [s for s in recipe.chain() if s.recipe not in given
                                                 and not (s.kind == "ppo" and s.name in given_stages)]
    for stage in stages:
        run.run_stage(stage)
        owner = next(r for r in recipe.recipes() if r.name == stage.recipe)
        if owner is not recipe and stage is owner.stages[-1]:
            run.write_product(owner)
    product_stage = recipe.product[1:].partition("/")[0]
    if product_stage not in {stage.name for stage in stages}:
        return run, None
    return run, verify(recipe, run.write_product(recipe), deals, notify)


def install(recipe: Recipe, product: Path) -> None:
    """Put a reproduced product into the zoo in place of the shipped file, its SHA-256 in the manifest entry."""
    entry = recipe.manifest_entry()
    target = recipe.folder / entry.get("file", f"{recipe.name}.zip")
    shutil.copyfile(product, target)
    manifest = _manifest(recipe.folder, recipe.product)
    manifest[recipe.name] = {**entry, "sha256": hashlib.sha256(target.read_bytes()).hexdigest()}
    write_atomic(_manifest_path(recipe.folder, recipe.product), (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))


# --------------------------------------------------------------------------- the ``razz zoo`` commands


@dataclass(frozen=True)
class ListArgs:
    """List the shipped agents with a recipe: their stages and estimated CPU time (``razz zoo list``)."""


def run_list(args: ListArgs) -> int:
    """``razz zoo list``: one line per recipe."""
    for name in recipe_names():
        recipe = load_recipe(name)
        minutes = sum(item.minutes or 0.0 for item in plan(recipe))
        base = f" from {recipe.base.name}," if recipe.base else ""
        print(f"{name}: {name}{SUFFIX},{base} {len(recipe.stages)} stage(s) "
              f"({', '.join(s.name for s in recipe.stages)}), ~{minutes:.0f} CPU min in all")
    return 0


@dataclass(frozen=True)
class ReproduceArgs:
    """Run a shipped agent's recipe and check the product against the manifest (``razz zoo reproduce``).

    The recipe's stages run in order into OUTPUT/<recipe>/<stage>/ (finished stages are kept, an interrupted one
    resumes); the product is then checked against the manifest: its SHA-256, its weights against the shipped
    file's, and its figures against the recorded 95% CIs. Exit 1 when the product is neither the shipped model nor
    within every CI.
    """

    name: str = field(metadata={"positional": True})
    """a shipped agent with a recipe (razz zoo list)"""
    output: str = ROOT
    """root of the run folders"""
    dry_run: bool = False
    """print the stages, their warm starts, commands and estimated CPU time; run nothing"""
    stage: str | None = None
    """run this stage only (its inputs made before, or given by --input)"""
    input: tuple[str, ...] = field(default=(), metadata={"metavar": "REF=PATH"})
    """use PATH as an earlier stage's file (STAGE/FILE) or a recipe's product (RECIPE); it must have the SHA-256
    the recipe recorded"""
    eval_deals: int | None = limited(None, minimum=0)
    """deals per final_eval opponent when the product is not the shipped model (default: the recorded hands'
    worth; 0: no evaluation)"""
    install: bool = False
    """put the product into the zoo when it is the shipped model or within every CI"""
    quiet: bool = False
    """no progress bars"""


def input_files(given: tuple[str, ...]) -> dict[str, Path]:
    """``--input REF=PATH`` values as a mapping of stage file (or recipe) to the file given for it.

    >>> input_files(("base=b.zip", "@phase1/model.zip=m.zip"))
    {'base': PosixPath('b.zip'), 'phase1/model.zip': PosixPath('m.zip')}
    """
    inputs = {}
    for text in given:
        key, sign, path = text.partition("=")
        if not sign or not key or not path:
            raise ConfigError(f"--input {text!r}: expected STAGE/FILE=PATH or RECIPE=PATH")
        inputs[key.removeprefix("@")] = Path(path)
    return inputs


def run_reproduce(args: ReproduceArgs) -> int:
    """``razz zoo reproduce``: the stages run (or planned), then the verdict; exit 1 when the product is neither the
    shipped model nor within every CI."""
    recipe = load_recipe(args.name)
    if args.dry_run:
        print("\n".join(describe_plan(recipe, plan(recipe, args.output, args.stage))))
        return 0
    run, verdict = reproduce(recipe, args.output, args.stage, input_files(args.input), args.eval_deals,
                             progress=not args.quiet)
    for note in run.notes:
        print(f"note: {note}")
    if verdict is None:
        print(f"stage {args.stage} done in {run.stage_folder(args.stage)}")
        return 0
    print("\n".join(verdict.lines()))
    if args.install:
        if not verdict.within:
            raise ConfigError(f"--install: {verdict.product} is not the shipped model and not every figure lies "
                              f"within its recorded CI; not installing it")
        install(recipe, verdict.product)
        print(f"installed {verdict.product} as {recipe.name} in {recipe.folder}")
    return 0 if verdict.within else 1

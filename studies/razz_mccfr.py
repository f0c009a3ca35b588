"""Heads-up razz by external-sampling MCCFR over ``razz_buckets``, in resumable stages (issue 40's CFR arm), and
heads-up Action Razz the same way (issue 41).

Self-play PPO plateaued on razz (nine arms of ``razz_flagship.py``, none clear of ``ppo_razz_psro``), and on
MiniRazz, measured exactly, external-sampling MCCFR passes every learned method within a CPU minute
(``docs/studies/minirazz_equilibrium.md``). This trains it on full heads-up razz at the flagship's table (1,000-chip
stacks): :class:`razz_env.solve.sampled_cfr.SampledCFR` over the ``razz_buckets`` abstraction
(:mod:`razz_env.solve.abstraction`), one training seed a chain of stages of ``--stage-iterations`` iterations,
each going on from the one before (:class:`~razz_env.train.sampled_stage.SampledStage`, as a zoo recipe's ``mccfr``
stages). A stage checkpoints every ``--checkpoint-every`` iterations and a rerun of
the same command goes on from its last checkpoint; a chain cut anywhere repeats an uninterrupted one exactly
(the solver's streams are in the checkpoint). A finished stage writes ``policy.npz`` (the average strategy, a
:class:`~razz_env.solve.sampled_policy.SampledPolicy`: any command seats it by its path) and ``state.json`` (its
iterations, information sets and training CPU minutes, its own and the chain's).

    python studies/razz_mccfr.py --seed 1 --stage 1                 # stage 1 of training seed 1
    python studies/razz_mccfr.py --seed 1 --stage 2                 # goes on from stage 1
    python studies/razz_flagship.py --select --agent runs/razz_mccfr/seed1/stage1/policy.npz --workers 2
    python studies/razz_mccfr.py --seed 1 --stage 1 --coverage      # how often it meets keys it never trained
    python studies/razz_mccfr.py --seed 1 --stage 4 --recipe mccfr_razz --acceptance-seed 43001

``--game action_razz`` solves heads-up Action Razz the same way over ``action_razz_buckets`` (issue 41's agent,
``docs/studies/action_razz_agent.md``), its stages in ``runs/action_razz_mccfr``; ``--game stud8`` heads-up stud/8
over ``stud8_buckets`` (``docs/studies/stud8_agent.md``, ``runs/stud8_mccfr``):

    python studies/razz_mccfr.py --game action_razz --seed 1 --stage 1
    python studies/razz_flagship.py --game action_razz --select --agent runs/action_razz_mccfr/seed1/stage1/policy.npz

``--abstraction NAME`` solves the game over another abstraction that reads it (razz: ``razz_fine``; stud/8:
``stud8_coarse``), its stages in ``runs/<game>_mccfr_<abstraction>``:

    python studies/razz_mccfr.py --abstraction razz_fine --seed 1 --stage 1
    python studies/razz_mccfr.py --game stud8 --abstraction stud8_coarse --seed 1 --stage 1

``--exploit`` solves the game against the flagship page's opponent model (:data:`EXPLOIT`: a restricted Nash
response, :class:`~razz_env.solve.sampled_cfr.OpponentModel`): the adversary is, each iteration, with weight 0.25
each a model of ``razz_heuristic`` or of ``ppo_razz_psro`` (what each was seen to play at each key, over 200,000
hands against the two of them, trusted fully from 5 decisions at a key) and otherwise free; its stages in
``runs/<game>_mccfr[_<abstraction>]_exploit``, the model built by stage 1 and carried in the checkpoints:

    python studies/razz_mccfr.py --exploit --seed 1 --stage 1

``--defend`` solves it against a model of a 3rd-street stealer (:data:`DEFEND`: the adversary is, each iteration
with weight 0.3, ``maniac`` on 3rd street, raising whenever it may, and free on every later street, and free
otherwise), so that the solution learns to defend 3rd street, where LBR wins most from every trained agent; its
stages in ``runs/<game>_mccfr[_<abstraction>]_defend``:

    python studies/razz_mccfr.py --defend --seed 1 --stage 1

``--recipe NAME`` writes ``<output>/NAME.recipe.yaml``: the chain that made a finished stage as a zoo recipe of
``mccfr`` stages (each stage's settings, iterations, recorded CPU minutes and checkpoint SHA-256, from the stages'
own records), for ``razz zoo reproduce`` once the candidate is shipped.

The selection rule and the figures: ``docs/studies/razz_flagship.md`` (its ``mccfr`` arm).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from razz_env.command_line import run_script
from razz_env.engine.checks import limited
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.train.budgeted import read_state
from razz_env.train.sampled_stage import SampledStage


@dataclass(frozen=True)
class Game:
    """A heads-up game the study solves: its table, the abstraction, its agent study's selection opponents (read by
    ``--coverage``) and where its stages go."""

    table: dict[str, object]
    abstraction: str
    opponents: tuple[str, ...]
    output: str


GAMES = {"razz": Game({"variant": "razz", "stacks": 1000}, "razz_buckets",
                      ("razz_heuristic", "monte_carlo", "ppo_razz_psro"), "runs/razz_mccfr"),
         "action_razz": Game({"variant": "action_razz", "stacks": 1000}, "action_razz_buckets",
                             ("razz_heuristic", "monte_carlo"), "runs/action_razz_mccfr"),
         "stud8": Game({"variant": "stud8", "stacks": 1000}, "stud8_buckets", ("stud8_heuristic", "monte_carlo"),
                       "runs/stud8_mccfr")}
"""The razz flagship's game (issue 40) and the heads-up Action Razz and stud/8 agents' (issue 41), at their
studies' tables (``studies/razz_flagship.py``'s ``GAMES``)."""
EXPLOIT = {"agents": ["razz_heuristic", "ppo_razz_psro"], "weights": [0.25, 0.25],
           "partners": ["razz_heuristic", "ppo_razz_psro"], "hands": 200_000, "full": 5}
"""``--exploit``'s opponent model (razz: the flagship page's arm, written before its figures); its ``seed`` is the
training seed's."""
DEFEND = {"agents": ["maniac"], "weights": [0.3], "partners": ["razz_heuristic", "ppo_razz_psro"], "hands": 200_000,
          "full": 5, "streets": [3]}
"""``--defend``'s opponent model (razz: the flagship page's arm, written before its figures): ``maniac``'s 3rd street
only; its ``seed`` is the training seed's."""
COVERAGE_SEED = 41003
"""The deals ``--coverage`` plays (the flagship's LBR seed: not a selection or acceptance seed)."""


@dataclass
class Args:
    """One stage of one training seed."""

    game: str = limited("razz", choices=tuple(GAMES))
    """the game: razz (the flagship), action_razz or stud8 (their heads-up agents, over ``action_razz_buckets`` and
    ``stud8_buckets``)"""
    seed: int = limited(1, minimum=0)
    """training seed (the deals and the other seat's draws)"""
    stage: int = limited(1, minimum=1)
    """the stage to train (stage I goes on from stage I-1's end)"""
    stage_iterations: int = limited(2_000_000, minimum=1)
    """iterations a stage"""
    checkpoint_every: int = limited(500_000, minimum=1)
    """iterations between checkpoints"""
    max_infosets: int = limited(16_000_000, minimum=1)
    """rows of the regret tables (allocated as they are touched)"""
    abstraction: str = ""
    """the abstraction solved over (default: the game's); another one that reads the game (``razz_fine`` for razz,
    ``stud8_coarse`` for stud8) puts its stages in ``runs/<game>_mccfr_<abstraction>``"""
    output: str = ""
    """where the stages' folders go: ``<output>/seed<k>/stage<i>`` (default: ``runs/<game>_mccfr``)"""
    coverage: bool = False
    """instead of training: play the finished stage's policy ``--coverage-hands`` hands against each selection
    opponent (in this process, seats alternating) and write the share of its decisions at keys the solver never
    met to ``coverage.json``"""
    coverage_hands: int = limited(500, minimum=1)
    """hands a selection opponent for ``--coverage``"""
    recipe: str = ""
    """instead of training: write the finished stage's chain as the zoo recipe of this name
    (``<output>/<name>.recipe.yaml``)"""
    acceptance_seed: int = limited(0, minimum=0)
    """with ``--recipe``: the seed of the candidate's acceptance run (the recipe's ``acceptance_seed``)"""
    exploit: bool = False
    """solve against :data:`EXPLOIT`'s opponent model (razz only), the stages in ``<the game's output>_exploit``"""
    defend: bool = False
    """solve against :data:`DEFEND`'s model of a 3rd-street stealer (razz only), the stages in ``<the game's
    output>_defend``"""


def game_of(args: Args) -> Game:
    """``--game`` over ``--abstraction`` (refused, by name, where it does not read the game)."""
    game = GAMES[args.game]
    if args.exploit and args.defend:
        raise ConfigError("--exploit and --defend: each solves against its own model; give one of them")
    modelled = "--exploit" if args.exploit else "--defend" if args.defend else ""
    if modelled and args.game != "razz":
        raise ConfigError(f"{modelled}: the opponent model is razz's, not {args.game}'s")
    suffix = f"_{modelled[2:]}" if modelled else ""
    if not args.abstraction or args.abstraction == game.abstraction:
        return replace(game, output=f"{game.output}{suffix}") if modelled else game
    from razz_env.solve.abstraction import abstraction_code

    try:
        abstraction_code(args.abstraction, HandConfig.create(**game.table))
    except ValueError as err:
        raise ConfigError(f"--{err}") from None
    return replace(game, abstraction=args.abstraction, output=f"{game.output}_{args.abstraction}{suffix}")


def stage_folder(args: Args, stage: int) -> Path:
    """``<output>/seed<k>/stage<i>``."""
    return Path(args.output or game_of(args).output) / f"seed{args.seed}" / f"stage{stage}"


def stage(args: Args) -> SampledStage:
    """The stage ``--stage`` of seed ``--seed``'s chain (:class:`~razz_env.train.sampled_stage.SampledStage`)."""
    game = game_of(args)
    return SampledStage(stage_folder(args, args.stage), game.table, game.abstraction, args.seed,
                        until=args.stage * args.stage_iterations,
                        start_from=stage_folder(args, args.stage - 1) if args.stage > 1 else None,
                        every=args.checkpoint_every, max_infosets=args.max_infosets, record={"stage": args.stage},
                        model=model_of(args))


def model_of(args: Args) -> dict[str, object] | None:
    """``--exploit``'s or ``--defend``'s model settings (its seed the training seed's), or None."""
    model = EXPLOIT if args.exploit else DEFEND if args.defend else None
    return {**model, "seed": args.seed} if model else None


def coverage(game: Game, policy_path: Path, opponent: str, hands: int) -> dict[str, float]:
    """The policy's decisions and those at keys the solver never met, in ``hands`` hands against ``opponent``."""
    from razz_env.agents.registry import make_agent
    from razz_env.encoding.actions import to_engine
    from razz_env.encoding.interface import Observer, act_batch
    from razz_env.engine.state import HandState
    from razz_env.solve.sampled_policy import SampledCFRAgent, SampledPolicy

    config = HandConfig.create(**game.table)
    agent = SampledCFRAgent(SampledPolicy.load(policy_path), seed=COVERAGE_SEED)
    other = make_agent(opponent, seed=COVERAGE_SEED)
    observers = [Observer(agent, config), Observer(other, config)]
    for number in range(hands):
        players = [(agent, observers[0]), (other, observers[1])][:: 1 if number % 2 == 0 else -1]
        for seat, (player, _) in enumerate(players):
            player.reset(seat, 2, config.variant.name)
        hand = HandState(config, seed=COVERAGE_SEED * 1_000_003 + number)
        while not hand.is_over:
            player, observer = players[hand.actor]
            action = act_batch(player, [observer(hand, hand.actor)])[0]
            hand.act(to_engine(action, hand.legal_actions()))
    return {"hands": hands, "decisions": agent.decisions, "unseen": agent.unseen,
            "unseen_share": round(agent.unseen / max(agent.decisions, 1), 5)}


def recipe(args: Args) -> dict[str, object]:
    """The zoo recipe of the chain that made the stage: one ``mccfr`` stage per stage, each going on from the one
    before, with what each recorded (its iterations and CPU minutes, its checkpoint's SHA-256); the last stage's
    policy its product."""
    import hashlib

    game = game_of(args)
    stages: list[dict[str, object]] = []
    for number in range(1, args.stage + 1):
        folder = stage_folder(args, number)
        state = read_state(folder) or {}
        if not state.get("done"):
            raise ConfigError(f"--recipe: stage {number} of seed {args.seed} is not finished ({folder})")
        stages.append({"name": f"stage{number}", "kind": "mccfr",
                       "config": {"table": game.table, "abstraction": game.abstraction, "seed": args.seed,
                                  **({"model": model_of(args)} if model_of(args) else {})},
                       "steps": state["iterations"], **({"continues": stages[-1]["name"]} if stages else {}),
                       "cpu_minutes": state["stage_cpu_minutes"],
                       "checkpoint_sha256": hashlib.sha256((folder / "checkpoint.npz").read_bytes()).hexdigest()})
    return {"name": args.recipe, "product": f"@stage{args.stage}/policy.npz", "acceptance_seed": args.acceptance_seed,
            "stages": stages}


def write_recipe(args: Args) -> Path:
    """``--recipe``: the chain's recipe written to ``<output>/<name>.recipe.yaml`` and read back by the zoo's own
    check (:func:`razz_env.recipes.write_recipe`)."""
    from razz_env.recipes import write_recipe as write

    game = game_of(args)
    page = "razz_flagship" if args.game == "razz" else f"{args.game}_agent"
    return write(Path(args.output or game.output), recipe(args),
                 f"{args.recipe}: heads-up {args.game} by sampled CFR over {game.abstraction}"
                 f"{' against an opponent model of ' + ' and '.join(EXPLOIT['agents']) if args.exploit else ''}"
                 f"{' against a model of a 3rd-street stealer' if args.defend else ''}, "
                 f"studies/razz_mccfr.py "
                 f"--game {args.game}{f' --abstraction {args.abstraction}' if args.abstraction else ''}"
                 f"{' --exploit' if args.exploit else ''}{' --defend' if args.defend else ''} "
                 f"--seed {args.seed} --stage {args.stage} (docs/studies/{page}.md)")


def main(args: Args) -> None:
    """Train the stage, or go on with it from its checkpoint; or measure its coverage, or write its recipe."""
    folder = stage_folder(args, args.stage)
    state = read_state(folder)
    if args.recipe:
        print(f"wrote {write_recipe(args)}")
        return
    if args.coverage:
        if state is None or not state.get("done"):
            raise ConfigError(f"--coverage: stage {args.stage} of seed {args.seed} is not finished ({folder}); "
                              f"train it first")
        game = game_of(args)
        measured = {name: coverage(game, folder / "policy.npz", name, args.coverage_hands) for name in game.opponents}
        (folder / "coverage.json").write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")
        for name, figures in measured.items():
            print(f"{folder} against {name}: {figures['unseen']:,} of {figures['decisions']:,} decisions at keys "
                  f"it never met ({figures['unseen_share']:.2%})")
        return
    if state is not None and state.get("done"):
        print(f"{folder}: finished ({state['iterations']:,} iterations); train the next stage")
        return
    if args.exploit or args.defend:
        import torch

        torch.set_num_threads(1)  # the model's torch agent shares the cores
    stage(args).run(lambda line: print(line, flush=True))  # refuses, by name, a stage before it not finished


if __name__ == "__main__":
    run_script(main, Args, __doc__)

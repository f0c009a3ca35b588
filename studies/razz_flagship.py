"""The heads-up razz flagship, trained in stages: the MiniRazz study's method on razz, an hour at a time; and the
same for stud/8 and Action Razz, and for six-handed razz and stud (``--game``: :data:`GAMES`).

The method is the one ``docs/studies/minirazz_equilibrium.md`` selected, ``ppo`` self-play with a decaying
entropy bonus (``--set ent_coef=0.05 regularisation_halflife=1000``), at razz's default heads-up table (1,000-chip
stacks), on the batched engine. Each training seed is one run cut into stages of ``--stage-updates`` updates
(about an hour of one core each): stage ``i`` goes on from stage ``i - 1``'s last checkpoint
(:class:`~razz_env.train.budgeted.BudgetedRun` with ``start_from``) and stops at ``i`` stages' steps, so a stage
that ran uninterrupted repeats decision by decision; one interrupted resumes from its own checkpoint (written every
``--checkpoint-every`` CPU minutes). Each stage's ``final.pt`` is the policy as it plays (the masked softmax).

    python studies/razz_flagship.py --seed 1 --stage 1          # ~1 CPU hour; rerun to go on after a stop
    python studies/razz_flagship.py --seed 1 --stage 2          # starts from stage 1's checkpoint
    python studies/razz_flagship.py --seed 1 --stage 1 --stage-updates 2 --output /tmp/smoke   # a smoke run

``--select`` measures a finished stage's policy on the selection seeds (41001 and 41002) as the rule in
``docs/studies/razz_flagship.md`` says, written before any figure: against each of the game's selection opponents,
``--deals`` duplicate deals a seed, AIVAT beside the raw figure; the two seeds pooled (their mean, the half-widths
added in quadrature), and the score (the lowest pooled AIVAT lower bound). It saves ``selection.json`` in the
stage's folder and prints the results page's table row.

    python studies/razz_flagship.py --seed 1 --stage 1 --select      # ~15 CPU min
    python studies/razz_flagship.py --select --agent ppo_razz_psro   # a shipped agent the same way, for scale
    python studies/razz_flagship.py --select --agent runs/razz_mccfr/seed1/stage2/policy.npz --threshold 0.15

``--agent`` measures an agent made elsewhere (a name, or a model file: ``studies/razz_mccfr.py``'s ``policy.npz``,
played as it is or, with ``--threshold``, thresholded) by ``--select``, ``--lbr`` and ``--accept`` exactly as a
stage, its figures saved in ``<output>/agents/<the agent's path, / as ->`` (:func:`agent_folder`).

``--arm opponents`` trains a later stage (2 on) at other tables: half of them self-play, the other half
:func:`opponents_arm` (Monte Carlo and the heuristic, which self-play alone does not learn to beat in its first
hour, the exploiters and the baselines) as their weights say, going on from the stage before (stage 1 is always
self-play); its folders are ``stage<i>-opponents``. The rule's page says why and when it was added.

    python studies/razz_flagship.py --seed 1 --stage 2 --arm opponents

``--arm pool`` (razz) trains from stage 4 on, going on from self-play's stage 3: half the tables self-play, the other
half the learner's own snapshots (:data:`POOL_ARM`, fictitious self-play); its folders are ``stage<i>-pool``.

    python studies/razz_flagship.py --seed 3 --stage 4 --arm pool

``--arm calm`` (razz) trains from stage 4 on, going on from self-play's stage 3: self-play with a third of the
learning rate (:data:`CALM_ARM`); its folders are ``stage<i>-calm``.

``--arm rivals`` (razz) trains from stage 4 on, going on from self-play's stage 3: half the tables self-play, the
other half the opponents arm's with ``ppo_razz_psro`` among them (:data:`RIVALS_ARM`); its folders are
``stage<i>-rivals``.

``--accept`` takes a finished stage whose selection score is at least +5 through the rule's acceptance run, once:
``--acceptance-deals`` duplicate deals against each of the game's ``must_beat`` (the AIVAT lower bound at least
+5 on every seed) and ``must_hold`` (the AIVAT upper bound not below 0 on every seed) on each of
``--acceptance-seeds``, which no earlier acceptance run (in ``--output`` or published in ``docs/studies/<name>``)
may have used. It saves ``acceptance.json`` and prints the crosstable and the verdict.

    python studies/razz_flagship.py --seed 1 --stage 2 --arm opponents --accept --workers 2   # 14x a selection
    python studies/razz_flagship.py --accept --agent runs/razz_mccfr/seed1/stage4/policy.npz --workers 2

``--recipe NAME`` writes ``<output>/NAME.recipe.yaml``: the chain that made a finished stage as a zoo recipe of
``ppo`` stages (each stage's settings, steps, recorded CPU minutes and checkpoint SHA-256, compiled from this
script's settings, not copied by hand), for ``razz zoo reproduce`` once the candidate is shipped.

    python studies/razz_flagship.py --seed 1 --stage 2 --arm opponents --recipe ppo_razz_flagship

``--game stud8`` or ``--game action_razz`` trains and measures that game's heads-up agent the same way, by its own
rule (``docs/studies/stud8_agent.md``, ``docs/studies/action_razz_agent.md``): its folders are ``runs/<name>``,
``releases/<name>`` and ``docs/studies/<name>`` (:class:`Game`), its stages train in the opponents arm from stage 1.

    python studies/razz_flagship.py --game stud8 --seed 1 --stage 1

Their ``--arm cloned`` trains the same tables from an imitation start: stage 1 goes on from ``stage0-cloned``, the
network fitted to Monte Carlo's play (:data:`CLONED`, :mod:`razz_env.train.batch_imitation`), made first; the
razz flagship's trains self-play from an imitation of ``ppo_razz_psro`` (:data:`CLONED_PSRO`).

    python studies/razz_flagship.py --game action_razz --seed 1 --stage 1 --arm cloned

``--game razz6`` or ``--game stud6`` trains and measures the six-handed agent by its own rule
(``docs/studies/six_handed_agents.md``, written before any figure): 1,024 six-seat tables, half self-play and half
mixed (the learner at one rotating seat, each other seat its own opponent by weight: :func:`mixed_tables_arm`,
``board_bully`` held out), its folders ``runs/razz_six_agent`` (``stud_six_agent``) and ``releases/...``, its
figures published in ``docs/studies/six_handed_agents/`` (each file ``<name>-`` first). Its ``--select`` plays each
selection table (``s1``, ``s2``), a ``razz tournament`` of ``format: table`` with duplicate deals (each once per
rotation of the six seats), on each selection seed, ``--deals`` (1,000) a table and seed, and the same with
``razz_heuristic`` in the candidate's seat (once for every stage, in ``<output>/heuristic``); the seeds pooled, the
score the lowest pooled lower bound. Its ``--accept`` takes a candidate scoring above 0 and level with the heuristic
or better at both tables to the held-out tables ``h1``-``h3`` on one fresh seed (46001 / 47001), 2,000 deals each;
it passes where at each its lower bound is above 0 and its mean at least the heuristic's in the same seat.
``--lbr`` is heads-up only.

    python studies/razz_flagship.py --game razz6 --seed 1 --stage 1            # the six-handed razz agent
    python studies/razz_flagship.py --game razz6 --seed 1 --stage 1 --select   # its selection figures
    python studies/razz_flagship.py --game stud6 --seed 1 --stage 1 --accept   # stud's, once, if it qualifies

Their ``--arm cloned`` trains the same mixed tables from an imitation start made at them: ``razz_heuristic``'s play
for razz, Monte Carlo's for stud (``six_handed``).

    python studies/razz_flagship.py --game razz6 --seed 1 --stage 1 --arm cloned

Their ``--arm drawn`` goes on from the cloned chain's stage 1 (from stage 2) with the mixed tables' seats drawn anew
every hand from each table's own Dirichlet draw of the weights (:data:`DRAWN`), not dealt once. Their ``--arm
gentle`` trains from stage 1 on from the cloned chain's imitation start (``stage0-cloned``, made if missing) with
those seats, a tenth of the learning rate and a KL stop (:data:`GENTLE`).

    python studies/razz_flagship.py --game razz6 --seed 1 --stage 2 --arm drawn
    python studies/razz_flagship.py --game stud6 --seed 1 --stage 1 --arm gentle

``--keep`` copies a finished stage that goes on (its ``checkpoint.pt``, ``final.pt`` and ``state.json``, their
SHA-256 in ``kept.json``) into ``--release`` (``releases/razz_flagship/seed<k>/stage<i>``), which is committed: a
later session's stage finds the stage before there when ``--output`` (not in the repository) has lost it, and
restores it, its files checked (:mod:`razz_env.train.kept`).

    python studies/razz_flagship.py --seed 1 --stage 2 --keep    # then: git add releases/razz_flagship

``--lbr`` reports (outside the rule) a local best response's lower bound on the exploitability of the stage's
policy, played as it learned (the sampled softmax) and as its argmax, ``--lbr-deals`` duplicate deals on seed
the game's ``lbr_seed``; it saves ``lbr.json`` in the stage's folder.

``--average 2 3 4`` measures (with ``--select`` and ``--lbr``) the equal mixture of a seed's finished stages, each
kept in ``--release`` or finished in ``--output``, played as one behaviour strategy (the ``mixture`` agent: each
member weighted by the probability it gave the hand's earlier own actions), in ``<output>/seed<k>/average-2-3-4``.

    python studies/razz_flagship.py --seed 3 --average 2 3 4 --select --lbr
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from razz_env.command_line import run_script
from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError
from razz_env.train.methods import method_settings

ROOT = Path(__file__).resolve().parents[1]
METHOD = "ppo"
SETTINGS = {"ent_coef": 0.05, "regularisation_halflife": 1000}
"""The study's selected method and settings (``razz_first_hour.py --method ppo --set ent_coef=0.05
regularisation_halflife=1000``)."""
EXPLOITERS = ("check_raiser", "board_bully", "tag", "rock", "maniac")


def opponents_arm(heuristic: str, zoo: dict[str, float] | None = None) -> dict[str, Any]:
    """Half the tables self-play, the other half Monte Carlo (weight 4), the game's hand-crafted player (2), at 0.5
    each the five exploiters, the calling station and random, and ``zoo``'s agents by their weights."""
    weights = {"monte_carlo": 4.0, heuristic: 2.0, **{name: 0.5 for name in EXPLOITERS}, "calling_station": 0.5,
               "random": 0.5, **(zoo or {})}
    return {"self_play_fraction": 0.5, "opponents": list(weights), "opponent_weights": list(weights.values())}


def mixed_tables_arm(zoo: dict[str, float], **draw: Any) -> dict[str, Any]:
    """Half the tables self-play (the learner at every seat), the other half mixed: the learner at one seat (rotating
    across tables), each other seat its own opponent by weight: Monte Carlo 4, the heuristic 2, four exploiters 1
    each, the calling station and random 0.5 each, and ``zoo``'s agents. ``board_bully`` is held out (acceptance's).
    ``draw``: how the seats are drawn (``batch_ppo``'s ``seat_draw`` settings; left out: dealt once, fixed)."""
    weights = {"monte_carlo": 4.0, "razz_heuristic": 2.0, "tag": 1.0, "rock": 1.0, "maniac": 1.0,
               "check_raiser": 1.0, "calling_station": 0.5, "random": 0.5, **zoo}
    return {"mixed_tables": True, "self_play_fraction": 0.5, "opponents": list(weights),
            "opponent_weights": list(weights.values()), **draw}


DRAWN = {"seat_draw": "hand", "seat_concentration": 5.0}
"""The six-handed ``drawn`` arm's seats: every hand each mixed table draws its own weights (a Dirichlet, parameters
the arm's weights scaled to sum to 5, the other seats' count) and its five other seats from them, so that two or
three of one opponent are common (at the fixed tables' 13 layouts two maniacs never sit together)."""


GENTLE = {**DRAWN, "learning_rate": 3e-5, "target_kl": 0.02}
"""The six-handed ``gentle`` arm: the ``drawn`` arm's seats, a tenth of the method's learning rate and SB3's KL stop
at 0.02 (``batch_ppo``'s ``target_kl``). From Monte Carlo's imitation at stud's tables one update at the method's
rate took the policy 10 nats from its rollout (a fresh Adam's first steps are a learning rate for every weight) and
its entropy from 0.33 to 0.0002; at a tenth, 20 updates kept it above 0.19."""


POOL_ARM = {"self_play_fraction": 0.5, "pool_fraction": 0.5, "snapshot_every": 50, "max_snapshots": 0}
"""Half the tables self-play, the other half play frozen snapshots of the learner: one taken when the arm begins
and one every 50 updates after, all of them kept (fictitious self-play: the policy meets its own past)."""
CLONED = {"teacher": "monte_carlo", "hands": 100_000, "epochs": 40}
"""The imitation start of a ``cloned`` arm: the network fitted to Monte Carlo's decisions over 100,000 hands against
the arm's opponents (40 epochs; ``ppo_stud``'s imitation, which got SB3's stud learner past Monte Carlo)."""
_MET_BY_PSRO = {"monte_carlo": 4.0, "razz_heuristic": 2.0, "ppo_razz_psro": 2.0, **{name: 0.5 for name in EXPLOITERS},
                "calling_station": 0.5, "random": 0.5}
CLONED_PSRO = {"teacher": "ppo_razz_psro", "hands": 100_000, "epochs": 40, "opponents": list(_MET_BY_PSRO),
               "weights": list(_MET_BY_PSRO.values())}
"""The razz flagship's imitation start (its ``cloned`` arm): the network fitted to ``ppo_razz_psro``'s play (the zoo's
best against Monte Carlo and the heuristic) over 100,000 hands against Monte Carlo, the heuristic, itself, the
exploiters and the baselines (40 epochs)."""
CALM_ARM = {"learning_rate": 1e-4}
"""Self-play with a third of the method's learning rate (Adam's state carried over): smaller steps for a last
iterate that cycled from stage 3 on."""
RIVALS_ARM = opponents_arm("razz_heuristic", {"ppo_razz_psro": 4.0})
"""The opponents arm with the rule's third selection opponent, ``ppo_razz_psro``, at Monte Carlo's weight: the half of
the tables that is not self-play meets every opponent the score reads."""


@dataclass(frozen=True)
class Game:
    """One game's agent: where its runs, kept stages and figures go (``runs/<name>``, ``releases/<name>``,
    ``docs/studies/<page>``), its rule's opponents (heads-up) or tables (six-handed), seeds and bar, and its arms (the
    first is stage 1's: a stage of another arm goes on from the stage before, from the stage ``begins`` names on)."""

    variant: str
    name: str
    arms: dict[str, dict[str, Any]]
    """Each arm's settings over the method's (a later stage may change these: ``batch_ppo.ADJUSTABLE``)."""
    acceptance_seeds: tuple[int, ...]
    selection_opponents: tuple[str, ...] = ()
    must_beat: tuple[str, ...] = ()
    must_hold: tuple[str, ...] = ()
    bar: float = 0.0
    """The score a candidate needs for the acceptance run, and the AIVAT lower bound it must then keep against each of
    ``must_beat`` (bb/100; heads-up)."""
    begins: dict[str, int] = dataclasses.field(default_factory=dict)
    """The stage an arm begins at, going on from the first arm's stage before it (default: 2)."""
    follows: dict[str, str] = dataclasses.field(default_factory=dict)
    """Arms whose chain before they begin is another arm's (default: the first arm's)."""
    selection_seeds: tuple[int, ...] = (41001, 41002)
    lbr_seed: int = 41003
    seats: int = 2
    selection_tables: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """A multi-way game's selection tables: each one's other seats (the candidate takes the one left)."""
    acceptance_tables: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """A multi-way game's acceptance tables, met only there."""
    comparison: str = ""
    """A multi-way game's agent played in the candidate's seat beside it (same seed: same deals and rotations)."""
    deals: int = 5000
    """``--deals``' default: duplicate deals of a selection match (heads-up) or table (multi-way), a seed"""
    acceptance_deals: int = 10_000
    """``--acceptance-deals``' default"""
    imitation: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    """Arms whose stage 1 goes on from an imitation start (stage 0, ``stage0-<arm>``) instead of fresh weights: each
    one's ``ImitationSettings`` fields (the opponents left out are the arm's; the seed is the training seed)."""
    page: str = ""
    """The rule's page, ``docs/studies/<page>.md``, and its figures' folder (default: ``name``); where games share
    one, each game's published files begin ``<name>-``."""

    @property
    def published(self) -> Path:
        """Where the measured figures are published (``seed<k>-stage<i>-acceptance.json`` among them, each
        :attr:`prefix` first)."""
        return ROOT / "docs" / "studies" / (self.page or self.name)

    @property
    def prefix(self) -> str:
        """What this game's published files begin with: ``<name>-`` on a shared page, else nothing."""
        return f"{self.name}-" if self.page else ""

    @property
    def release(self) -> Path:
        """Where ``--keep`` keeps the stages that go on (``seed<k>/stage<i>``: checkpoint, policy, state), committed."""
        return ROOT / "releases" / self.name

    @property
    def first_arm(self) -> str:
        return next(iter(self.arms))

    def arm_at(self, stage: int, arm: str | None) -> str:
        """The arm stage ``stage`` of a chain in ``arm`` trained in: before ``arm`` begins, the arm it follows
        (the first arm, unless :attr:`follows` names another)."""
        arm = arm or self.first_arm
        if stage >= self.begins.get(arm, 2):
            return arm
        return self.arm_at(stage, self.follows[arm]) if arm in self.follows else self.first_arm

    def start_arm(self, arm: str | None) -> str | None:
        """The arm whose imitation start (``stage0-<arm>``) a chain in ``arm`` goes on from at stage 1: its stage 1's
        arm's, or, where that arm has none and follows another, the other's (None: stage 1 starts from fresh
        weights)."""
        first = self.arm_at(1, arm)
        if first in self.imitation:
            return first
        return self.start_arm(self.follows[first]) if first in self.follows else None


HELD_OUT_TABLES = {"h1": ("board_bully", "board_bully", "calling_station", "rock", "monte_carlo"),
                   "h2": ("maniac", "maniac", "random", "calling_station", "razz_heuristic"),
                   "h3": ("monte_carlo", "monte_carlo", "razz_heuristic", "tag", "board_bully")}
"""The six-handed acceptance tables' other seats: each holds the held-out ``board_bully`` or a composition no
training weight makes likely."""


def six_handed(variant: str, name: str, zoo: dict[str, float], s2_last: str, acceptance_seed: int,
               teacher: str) -> Game:
    """A six-handed agent by ``docs/studies/six_handed_agents.md``'s rule: mixed tables with ``zoo`` in training,
    selection tables ``s1`` and ``s2`` (whose fifth seat is ``s2_last``), 1,000 deals a table and seed, and
    2,000 at each held-out table on ``acceptance_seed``, ``razz_heuristic`` in the candidate's seat beside it. Its
    ``cloned`` arm trains the same tables from an imitation of ``teacher`` at them (100,000 hands, 40 epochs); its
    ``drawn`` arm goes on from the cloned chain's stage 1 with the seats drawn every hand (:data:`DRAWN`); its
    ``gentle`` arm trains from the cloned chain's imitation start with those seats and smaller steps
    (:data:`GENTLE`)."""
    return Game(variant, name, arms={"mixed_tables": mixed_tables_arm(zoo), "cloned": mixed_tables_arm(zoo),
                                     "drawn": mixed_tables_arm(zoo, **DRAWN),
                                     "gentle": mixed_tables_arm(zoo, **GENTLE)},
                begins={"cloned": 1, "drawn": 2, "gentle": 1}, follows={"drawn": "cloned", "gentle": "cloned"},
                imitation={"cloned": {**CLONED, "teacher": teacher}},
                acceptance_seeds=(acceptance_seed,),
                seats=6, selection_tables={"s1": ("calling_station", "razz_heuristic", "rock", "tag", "check_raiser"),
                                           "s2": ("random", "maniac", "razz_heuristic", "monte_carlo", s2_last)},
                acceptance_tables=HELD_OUT_TABLES, comparison="razz_heuristic", deals=1000, acceptance_deals=2000,
                page="six_handed_agents")


GAMES = {
    "razz": Game("razz", "razz_flagship", selection_opponents=("razz_heuristic", "monte_carlo", "ppo_razz_psro"),
                 must_beat=("random", "calling_station", "razz_heuristic", "monte_carlo"),
                 must_hold=(*EXPLOITERS, "ppo_razz", "ppo_razz_pool", "ppo_razz_psro", "ppo_razz_multiway",
                            "qrdqn_razz"),
                 bar=5.0, arms={"self_play": {}, "opponents": opponents_arm("razz_heuristic"), "pool": POOL_ARM,
                       "calm": CALM_ARM, "rivals": RIVALS_ARM, "cloned": {}},
                 acceptance_seeds=(43001, 43002, 43003), begins={"pool": 4, "calm": 4, "rivals": 4, "cloned": 1},
                 imitation={"cloned": CLONED_PSRO}),
    "stud8": Game("stud8", "stud8_agent", selection_opponents=("stud8_heuristic", "monte_carlo"),
                  must_beat=("random", "calling_station", "stud8_heuristic", "monte_carlo"), must_hold=EXPLOITERS,
                  bar=0.0, arms={"opponents": opponents_arm("stud8_heuristic"),
                                 "cloned": opponents_arm("stud8_heuristic")},
                  acceptance_seeds=(44001,), begins={"cloned": 1}, imitation={"cloned": CLONED}),
    "action_razz": Game("action_razz", "action_razz_agent", selection_opponents=("razz_heuristic", "monte_carlo"),
                        must_beat=("random", "calling_station", "razz_heuristic", "monte_carlo"),
                        must_hold=EXPLOITERS, bar=0.0, arms={"opponents": opponents_arm("razz_heuristic"),
                                                             "cloned": opponents_arm("razz_heuristic")},
                        acceptance_seeds=(45001,), begins={"cloned": 1}, imitation={"cloned": CLONED}),
    "razz6": six_handed("razz", "razz_six_agent", {"ppo_razz_multiway": 2.0}, "ppo_razz_multiway", 46001,
                        teacher="razz_heuristic"),
    "stud6": six_handed("stud", "stud_six_agent", {}, "tag", 47001, teacher="monte_carlo"),
}
"""Every game the study trains an agent for. Razz is the flagship (issue 40: its bar is +5 on three fresh seeds,
and stage 1 is self-play); stud/8 and Action Razz (issue 41) must beat their baselines with the AIVAT lower bound
above 0 on one fresh seed, and train in the opponents arm from stage 1 (from fresh weights, or in the cloned arm from
an imitation of Monte Carlo). The six-handed razz and stud agents (issue
41, ``docs/studies/six_handed_agents.md``) train at mixed tables from stage 1 and are measured at six-handed
tables beside ``razz_heuristic`` in their seat."""
ARMS = tuple(dict.fromkeys(arm for game in GAMES.values() for arm in game.arms))


@dataclass
class Args:
    """Which seed's stage to train, and where."""

    game: str = limited("razz", choices=tuple(GAMES))
    """the game of the agent (razz: the heads-up flagship; stud8 and action_razz: issue 41's heads-up agents; razz6
    and stud6: its six-handed ones)"""
    seed: int = limited(1, minimum=0)
    """training seed"""
    stage: int = limited(1, minimum=1)
    """the stage to train (stage 1 starts from fresh weights; a later one from the stage before)"""
    arm: str | None = limited(None, choices=tuple(ARMS))
    """the tables of stages 2 on (default: the game's first arm, stage 1's): ``self_play`` (the method as selected),
    ``opponents`` (half the tables play Monte Carlo, the game's hand-crafted player, the exploiters and the
    baselines: :func:`opponents_arm`), ``pool`` (razz, from stage 4: half the tables play the learner's snapshots:
    :data:`POOL_ARM`), ``calm`` (razz, from stage 4: self-play with a third of the learning rate: :data:`CALM_ARM`),
    ``rivals`` (razz, from stage 4: the opponents arm with ``ppo_razz_psro``: :data:`RIVALS_ARM`), ``cloned``
    (stud8 and action_razz: the opponents arm from an imitation of Monte Carlo, :data:`CLONED`; razz: self-play
    from an imitation of ``ppo_razz_psro``, :data:`CLONED_PSRO`), ``mixed_tables`` (the six-handed games' first arm:
    :func:`mixed_tables_arm`), ``cloned`` there (from an imitation of the game's teacher), ``drawn`` (six-handed,
    from stage 2: the seats drawn every hand, :data:`DRAWN`) or ``gentle`` (six-handed, from the cloned imitation
    start: drawn seats and smaller steps, :data:`GENTLE`)"""
    stage_updates: int = limited(800, minimum=1)
    """updates per stage (800 x 32,768 steps: about an hour of one core)"""
    checkpoint_every: float = limited(15.0, above=0)
    """training CPU minutes between checkpoints"""
    device: str = limited("cpu", choices=("cpu", "cuda"))
    """``cuda``: the engine and the networks on a GPU (``CudaEngine``; ``scripts/gpu_session.sh``): another run than
    the CPU's, in another ``--output``"""
    output: str | None = None
    """where the seeds' folders go (``<output>/seed<k>/stage<i>``; default ``runs/<the game's study name>``)"""
    release: str | None = None
    """where ``--keep`` keeps finished stages and where a stage missing from ``--output`` is restored from (default
    ``releases/<the game's study name>``)"""
    keep: bool = False
    """keep the finished stage in ``--release`` (its checkpoint, policy and state, with their SHA-256), to commit"""
    select: bool = False
    """measure the finished stage on the selection seeds instead of training"""
    deals: int | None = limited(None, minimum=2)
    """duplicate deals of each selection match (a seed and an opponent) or six-handed table (a seed) (default: the
    game's: 5,000 heads-up, 1,000 six-handed)"""
    workers: int = limited(1, minimum=1)
    """worker processes of the selection matches and the LBR"""
    average: tuple[int, ...] | None = None
    """with ``--select`` or ``--lbr``: measure the equal mixture of this seed's finished stages of the ``--arm``
    chain (e.g. ``--average 2 3 4``), each ``final.pt`` sampled, played as one behaviour strategy (the ``mixture``
    agent), instead of one stage; its figures go to ``<output>/seed<k>/average-2-3-4``"""
    agent: str = ""
    """with ``--select``, ``--lbr`` or ``--accept``: measure this agent (a name or a model file) the same way instead
    of a stage, for scale or for a candidate trained elsewhere (``studies/razz_mccfr.py``'s ``policy.npz``; its
    selection opponents are those it is not); the figures are printed and saved in ``<output>/agents/<the agent>``
    (:func:`agent_folder`)"""
    threshold: float = limited(0.0, minimum=0)
    """with ``--agent`` (a sampled solver's policy file): play it thresholded, each probability below this one
    dropped and the rest renormalised (the page's thresholded ``mccfr`` arm: 0.15)"""
    lbr: bool = False
    """report LBR of the finished stage's policy, sampled and argmax, instead of training"""
    lbr_deals: int = limited(500, minimum=1)
    """duplicate deals of each LBR measurement"""
    accept: bool = False
    """take the finished stage (selection score at least the game's bar) through the acceptance run instead of
    training"""
    acceptance_seeds: tuple[int, ...] | None = None
    """the acceptance run's seeds, unused by any earlier one (default: the game's, as many as its rule takes)"""
    acceptance_deals: int | None = limited(None, minimum=2)
    """duplicate deals of each acceptance match (a seed and an opponent) or six-handed table (default: the game's:
    10,000 heads-up, 2,000 six-handed)"""
    recipe: str = ""
    """write the finished stage's chain as the zoo recipe of this name (``<output>/<name>.recipe.yaml``)"""


def resolved(args: Args) -> Args:
    """``args`` with the game's defaults filled in, and the arm checked against the game's."""
    game = GAMES[args.game]
    arm = args.arm or game.first_arm
    if arm not in game.arms:
        raise ConfigError(f"--arm {arm}: the {args.game} agent trains in {', '.join(game.arms)}")
    begins = game.begins.get(arm, 2)
    if arm != game.first_arm and args.stage < begins:
        before = game.arm_at(begins - 1, arm).replace('_', '-')
        where = f"the {before} arm's" if arm in game.follows else f"{before} in every arm"
        raise ConfigError(f"--arm {arm}: stages before {begins} are {where}; the arm begins at stage {begins}")
    if args.lbr and game.seats != 2:
        heads_up = ", ".join(key for key, other in GAMES.items() if other.seats == 2)
        raise ConfigError(f"--lbr: LBR is measured heads-up only ({heads_up}); the {args.game} agent plays at "
                          f"{game.seats} seats")
    return dataclasses.replace(args, arm=arm, output=args.output or f"runs/{game.name}",
                               release=args.release or str(game.release), deals=args.deals or game.deals,
                               acceptance_deals=args.acceptance_deals or game.acceptance_deals,
                               acceptance_seeds=args.acceptance_seeds or game.acceptance_seeds)


def trainer_settings(game: Game, seed: int, device: str = "cpu", arm: str | None = None) -> dict[str, Any]:
    """The trainer's settings of training seed ``seed`` on ``device`` in ``arm`` (default: stage 1's): the method's
    at the game's default table of its seats (1,000-chip stacks), the arm's tables; the learning rate constant (the
    run has no planned end)."""
    on = {} if device == "cpu" else {"device": device}  # a CPU run's settings as they were first written
    seats = {} if game.seats == 2 else {"num_seats": game.seats}  # and a heads-up run's
    return method_settings(METHOD, variant=game.variant, stacks=1000, total_steps=10**12, quiet=True, seed=seed,
                           **seats, **SETTINGS, **on, **game.arms[arm or game.first_arm])


def stage_folder(game: Game, output: str | Path, seed: int, stage: int, arm: str | None = None) -> Path:
    """The run folder of a seed's stage in a chain in ``arm`` (a stage of the game's first arm, the chain's stages
    before its arm begins among them, has no suffix)."""
    arm = game.arm_at(stage, arm)
    plain = arm == game.first_arm
    return Path(output) / f"seed{seed}" / (f"stage{stage}" if plain else f"stage{stage}-{arm}")


def combine(means: list[float], lows: list[float]) -> tuple[float, float]:
    """Independent equal-size measurements as one: their mean, and its 95% lower bound (the half-widths added in
    quadrature, over their count)."""
    count = len(means)
    mean = sum(means) / count
    return mean, mean - math.sqrt(sum((m - low) ** 2 for m, low in zip(means, lows))) / count


def pooled(results: list[Any]) -> dict[str, float]:
    """Independent equal-size matches as one: the mean of their win rates, raw and AIVAT, with half-widths added
    in quadrature (bb/100)."""
    raw, raw_low = combine([r.bb_per_100 for r in results], [r.ci95_low for r in results])
    aivat, aivat_low = combine([r.aivat_bb_per_100 for r in results], [r.aivat_ci95_low for r in results])
    return {"bb100": raw, "low": raw_low, "high": 2 * raw - raw_low,
            "aivat_bb100": aivat, "aivat_low": aivat_low, "aivat_high": 2 * aivat - aivat_low}


def played(player: str | dict[str, Any], seed: int, threshold: float = 0.0) -> dict[str, Any]:
    """The spec of ``player`` as the study measures it on ``seed``: a network's policy file (``.pt``) sampled, a
    sampled solver's (``.npz``) as it is or ``threshold``-ed, an agent as it plays by default, a spec as it says.

    >>> played("runs/x/final.pt", 7)
    {'type': 'runs/x/final.pt', 'seed': 7, 'deterministic': False}
    >>> played("runs/x/policy.npz", 7, 0.15)
    {'type': 'runs/x/policy.npz', 'seed': 7, 'threshold': 0.15}
    """
    if isinstance(player, dict):
        return {**player, "seed": seed}
    return {"type": player, "seed": seed, **({"deterministic": False} if player.endswith(".pt") else {}),
            **({"threshold": threshold} if threshold else {})}


def select(args: Args, player: str | dict[str, Any]) -> dict[str, Any]:
    """``player`` (a stage's policy file, sampled, an agent as it plays by default, or an agent spec; ``--agent``'s
    policy file as :func:`played` says) against each selection opponent it is not, on each selection seed, pooled,
    and its score."""
    from razz_env.evaluate.api import match

    game = GAMES[args.game]
    figures: dict[str, Any] = {}
    for opponent in (name for name in game.selection_opponents if name != player):
        results = []
        for seed in game.selection_seeds:
            results.append(match(played(player, seed, args.threshold), opponent, deals=args.deals, seed=seed,
                                 workers=args.workers, aivat=True, table={"variant": game.variant, "stacks": 1000}))
        figures[opponent] = {**pooled(results), "hands": sum(r.hands for r in results),
                             "aivat_reliable": all(r.aivat_reliable for r in results)}
    return {"policy": player, **({"threshold": args.threshold} if args.threshold else {}), "deals": args.deals,
            "seeds": list(game.selection_seeds), "opponents": figures,
            "score": min(item["aivat_low"] for item in figures.values())}


def agent_folder(args: Args) -> Path:
    """Where ``--agent``'s figures go: ``<output>/agents/`` and the agent's name or path, its ``/`` as ``-`` (each
    stage's ``policy.npz`` a folder of its own), ``-threshold<t>`` when played thresholded.

    >>> agent_folder(Args(agent="runs/razz_mccfr/seed1/stage2/policy.npz", threshold=0.15, output="out")).as_posix()
    'out/agents/runs-razz_mccfr-seed1-stage2-policy.npz-threshold0.15'
    """
    name = args.agent.strip("/").replace("/", "-") + (f"-threshold{args.threshold:g}" if args.threshold else "")
    return Path(args.output or f"runs/{GAMES[args.game].name}") / "agents" / name


def average_members(args: Args) -> tuple[list[str], Path]:
    """The policy files of ``--average``'s stages (each kept in ``--release``, else finished in ``--output``) and
    the mixture's folder."""
    game = GAMES[args.game]
    files = []
    for stage in args.average:
        places = [stage_folder(game, root, args.seed, stage, args.arm) / "final.pt" for root in (args.release,
                                                                                                  args.output)]
        found = next((path for path in places if path.is_file()), None)
        if found is None:
            raise ConfigError(f"--average: stage {stage} of seed {args.seed} has no final.pt "
                              f"({' nor '.join(map(str, places))}); train it first")
        files.append(str(found))
    name = "average-" + "-".join(str(stage) for stage in args.average)
    return files, Path(args.output) / f"seed{args.seed}" / name


def average_spec(members: list[str], deterministic: bool = False) -> dict[str, Any]:
    """The equal mixture of ``members`` (policy files, sampled or as their argmax) as one behaviour strategy."""
    return {"type": "mixture", "members": [{"type": path, "deterministic": deterministic} for path in members]}


SEATED = "candidate"
"""How the standings show the agent measured at a six-handed table (the comparison agent in its seat:
``seat_<name>``, so that a table already holding it tells the two apart)."""


def seated(spec: str | dict[str, Any], label: str, others: tuple[str, ...]) -> list[Any]:
    """A six-handed table's agents: ``spec`` shown as ``label``, then ``others``, a name met again shown with its
    count (``board_bully_2``): each row of the standings is one seat's."""
    agents: list[Any] = [{**({"type": spec} if isinstance(spec, str) else spec), "label": label}]
    for index, name in enumerate(others):
        count = others[:index + 1].count(name)
        agents.append(name if count == 1 else {"type": name, "label": f"{name}_{count}"})
    return agents


def table_figure(args: Args, spec: str | dict[str, Any], label: str, others: tuple[str, ...], seed: int,
                 deals: int, folder: Path) -> dict[str, float]:
    """``spec`` (shown as ``label``) at the table of ``others`` on ``seed``, a tournament of ``format: table``
    played into ``folder`` (resumed if there) with ``razz tournament``'s reports: ``deals`` duplicate deals, each
    once per rotation of the seats; its bb/100 against the field with the 95% CI, and its hands, from
    ``standings.csv``."""
    from razz_env.evaluate.api import tournament
    from razz_env.evaluate.report import write_reports

    config = {"name": folder.name, "format": "table", "variant": GAMES[args.game].variant, "stacks": 1000,
              "agents": seated(spec, label, others), "deals": deals, "block_deals": min(250, deals),
              "duplicate": True, "seed": seed, "workers": args.workers, "output": str(folder)}
    tournament(config, reports=lambda result: write_reports(result, folder, plots=False))
    with open(folder / "standings.csv", newline="", encoding="utf-8") as handle:
        row = next(row for row in csv.DictReader(handle) if row["agent"] == label)
    rate, half = float(row["bb_per_100"]), float(row["ci95"])
    return {"bb100": rate, "low": rate - half, "high": rate + half, "hands": int(row["hands"])}


def at_tables(args: Args, spec: str | dict[str, Any], tables: dict[str, tuple[str, ...]], seeds: list[int],
              deals: int, folder: Path) -> dict[str, Any]:
    """``spec`` at each of ``tables`` (a name: the other seats) on each of ``seeds`` (played into ``folder``), and
    the game's comparison agent in its seat on the same seeds (played once into ``<output>/heuristic``, for every
    stage): each one's figure a seed, and the seeds pooled (:func:`combine`)."""
    game = GAMES[args.game]
    measured = ((SEATED, spec, folder), (f"seat_{game.comparison}", game.comparison,
                                         Path(args.output) / "heuristic"))
    figures: dict[str, Any] = {}
    for table, others in tables.items():
        figures[table] = {"others": list(others)}
        for who, (label, agent, root) in zip(("agent", "heuristic"), measured):
            each = [table_figure(args, agent, label, others, seed, deals, root / f"{table}-seed{seed}-{deals}")
                    for seed in seeds]
            mean, low = combine([item["bb100"] for item in each], [item["low"] for item in each])
            figures[table][who] = {"bb100": mean, "low": low, "high": 2 * mean - low,
                                   "hands": sum(item["hands"] for item in each), "seeds": each}
    return figures


def select_at_tables(args: Args, player: str | dict[str, Any], folder: Path) -> dict[str, Any]:
    """``player`` at each of the game's selection tables on each selection seed, the comparison agent in its seat
    beside it, the seeds pooled; its score (the lowest pooled lower bound)."""
    game = GAMES[args.game]
    tables = at_tables(args, player, game.selection_tables, list(game.selection_seeds), args.deals, folder)
    return {"policy": player, "deals": args.deals, "seeds": list(game.selection_seeds), "tables": tables,
            "score": min(item["agent"]["low"] for item in tables.values())}


def local_best_response(args: Args, folder: Path, members: list[str] | None = None,
                        agent: str | None = None) -> dict[str, Any]:
    """LBR's lower bound (bb/100, 95% CI) on the stage's policy as it plays and as its argmax; with ``members``
    (policy files), on their mixture (:func:`average_spec`), of the members as they play and of their argmaxes;
    with ``agent`` (a policy file that plays either way), on it."""
    from razz_env.exploit.api import exploitability

    seed = GAMES[args.game].lbr_seed
    figures: dict[str, Any] = {}
    for play, deterministic in (("sampled", False), ("argmax", True)):
        spec = ({"type": agent or str(folder / "final.pt"), "deterministic": deterministic, "seed": seed,
                 **({"threshold": args.threshold} if args.threshold and not deterministic else {})}
                if members is None else {**average_spec(members, deterministic), "seed": seed})
        bound = exploitability(spec, "lbr", deals=args.lbr_deals, seed=seed, variant=GAMES[args.game].variant,
                               workers=args.workers, output=str(folder / f"lbr_{play}"), fresh=True)
        figures[play] = {"bb100": bound.bb_per_100, "low": bound.ci95_low, "high": bound.ci95_high,
                           "off_policy_actions": bound.off_policy_actions}
    return {"deals": args.lbr_deals, "seed": seed, **figures}


def used_acceptance_seeds(game: Game, output: Path) -> dict[int, str]:
    """Each seed an earlier acceptance run of the game used (in ``output``'s stage folders or published), and which
    file says so."""
    used: dict[int, str] = {}
    for path in [*output.glob("seed*/stage*/acceptance.json"), *output.glob("agents/*/acceptance.json"),
                 *game.published.glob(f"{game.prefix}*acceptance.json")]:
        for seed in json.loads(path.read_text(encoding="utf-8"))["seeds"]:
            used.setdefault(int(seed), str(path))
    return used


def measured_selection(folder: Path) -> dict[str, Any]:
    """The ``selection.json`` of the stage or agent measured in ``folder`` (``ConfigError`` if it has none)."""
    selection_path = folder / "selection.json"
    if not selection_path.is_file():
        raise ConfigError(f"--accept: no selection.json in {folder}; run --select first")
    return json.loads(selection_path.read_text(encoding="utf-8"))


def check_fresh_seeds(args: Args, game: Game) -> None:
    """``ConfigError`` unless ``--acceptance-seeds`` are as many different seeds as the rule takes, none used by an
    earlier acceptance run."""
    wanted = len(game.acceptance_seeds)
    if len(set(args.acceptance_seeds)) != len(args.acceptance_seeds) or len(args.acceptance_seeds) != wanted:
        raise ConfigError(f"--acceptance-seeds: {wanted} different seed(s), got {list(args.acceptance_seeds)}")
    used = used_acceptance_seeds(game, Path(args.output))
    spent = [seed for seed in args.acceptance_seeds if seed in used]
    if spent:
        raise ConfigError(f"--acceptance-seeds: {spent[0]} was used by an earlier acceptance run ({used[spent[0]]}); "
                          f"acceptance seeds are used once (the next unused: {max(used) + 1} on)")


def acceptance(args: Args, folder: Path, player: str | None = None) -> dict[str, Any]:
    """The acceptance run of the stage's policy (played as it learned), or of ``player`` (``--agent``, played as
    :func:`played` says) measured into ``folder``: every pairing on every seed, and whether it passes."""
    from razz_env.evaluate.api import match

    game = GAMES[args.game]
    score = measured_selection(folder)["score"]
    if score < game.bar:
        raise ConfigError(f"--accept: the stage's selection score is {score:+.1f}; the rule sends a candidate to "
                          f"acceptance at {game.bar:+.0f} or more")
    check_fresh_seeds(args, game)
    player = player or str(folder / "final.pt")
    rows = []
    for seed in args.acceptance_seeds:
        for opponent in (*game.must_beat, *game.must_hold):
            result = match(played(player, seed, args.threshold), opponent,
                           deals=args.acceptance_deals, seed=seed, workers=args.workers, aivat=True,
                           table={"variant": game.variant, "stacks": 1000})
            rule = "beat" if opponent in game.must_beat else "hold"
            passed = (result.aivat_ci95_low >= game.bar if rule == "beat" else result.aivat_ci95_high >= 0)
            rows.append({"seed": seed, "opponent": opponent, "rule": rule, "hands": result.hands,
                         "bb100": result.bb_per_100, "low": result.ci95_low, "high": result.ci95_high,
                         "aivat_bb100": result.aivat_bb_per_100, "aivat_low": result.aivat_ci95_low,
                         "aivat_high": result.aivat_ci95_high, "aivat_reliable": result.aivat_reliable,
                         "passed": passed})
    return {"policy": player, **({"threshold": args.threshold} if args.threshold else {}),
            "deals": args.acceptance_deals, "seeds": list(args.acceptance_seeds), "score": score, "rows": rows,
            "passed": all(row["passed"] for row in rows)}


def table_acceptance(args: Args, folder: Path, player: str | None = None) -> dict[str, Any]:
    """The six-handed acceptance run of the stage's policy (played as it learned), or of ``player`` (``--agent``)
    measured into ``folder``: each held-out table on each acceptance seed beside the comparison agent in its seat,
    and whether it passes (at every table the lower bound above 0 and the mean at least the comparison's)."""
    game = GAMES[args.game]
    selection = measured_selection(folder)
    behind = [table for table, item in selection["tables"].items()
              if item["agent"]["bb100"] < item["heuristic"]["bb100"]]
    if selection["score"] <= 0 or behind:
        raise ConfigError(f"--accept: the stage's selection score is {selection['score']:+.1f}"
                          f"{f' and its mean is below {game.comparison} at ' + ', '.join(behind) if behind else ''}"
                          f"; the rule sends a candidate to acceptance with a score above 0 and a mean at least "
                          f"{game.comparison}'s at every selection table")
    check_fresh_seeds(args, game)
    player = player or str(folder / "final.pt")
    spec = {key: value for key, value in played(player, 0, args.threshold).items() if key != "seed"}
    tables = at_tables(args, spec, game.acceptance_tables,
                       list(args.acceptance_seeds), args.acceptance_deals, folder / "acceptance")
    for item in tables.values():
        item["passed"] = item["agent"]["low"] > 0 and item["agent"]["bb100"] >= item["heuristic"]["bb100"]
    return {"policy": player, "deals": args.acceptance_deals, "seeds": list(args.acceptance_seeds),
            "score": selection["score"], "tables": tables, "passed": all(item["passed"] for item in tables.values())}


def figure(item: dict[str, Any], prefix: str = "") -> str:
    """A measured win rate as the results pages write it: ``+1.2 [-0.3, +2.7]`` (``prefix``: AIVAT's keys)."""
    return f"{item[prefix + 'bb100']:+.1f} [{item[prefix + 'low']:+.1f}, {item[prefix + 'high']:+.1f}]"


def table_crosstable(accepted: dict[str, Any], comparison: str) -> str:
    """The six-handed acceptance run as the results page's table: one row a table, the agent and the comparison
    agent in its seat."""
    lines = [f"| table | the five other seats | agent | {comparison} in the seat |", "|---|---|---|---|"]
    for table, item in accepted["tables"].items():
        lines.append(f"| {table} | {', '.join(item['others'])} | {figure(item['agent'])}"
                     f"{'' if item['passed'] else ' (fails)'} | {figure(item['heuristic'])} |")
    lines.append(f"verdict: {'passes' if accepted['passed'] else 'fails'} ({accepted['deals']:,} deals a table, "
                 f"seed {', '.join(map(str, accepted['seeds']))})")
    return "\n".join(lines)


def crosstable(accepted: dict[str, Any]) -> str:
    """The acceptance run as the results page's table: one row an opponent, one cell a seed."""
    seeds = accepted["seeds"]
    lines = [f"| opponent | rule | {' | '.join(f'seed {seed}' for seed in seeds)} |",
             f"|---|---|{'---|' * len(seeds)}"]
    for opponent in dict.fromkeys(row["opponent"] for row in accepted["rows"]):
        cells = [f"{figure(row, 'aivat_')}; raw {figure(row)}{'' if row['passed'] else ' (fails)'}"
                 for seed in seeds for row in accepted["rows"] if row["seed"] == seed and row["opponent"] == opponent]
        rule = next(row["rule"] for row in accepted["rows"] if row["opponent"] == opponent)
        lines.append(f"| {opponent} | {rule} | {' | '.join(cells)} |")
    lines.append(f"verdict: {'passes' if accepted['passed'] else 'fails'}")
    return "\n".join(lines)


def recipe(args: Args, rollout: int) -> dict[str, Any]:
    """The zoo recipe of the chain that made the stage: one ``ppo`` stage per stage, each going on from the one
    before (the first from its arm's imitation start, if it has one), with what each recorded (its CPU minutes, its
    checkpoint's SHA-256); the last stage's policy its product."""
    import hashlib

    game = GAMES[args.game]
    imitation = game.imitation.get(game.start_arm(args.arm))
    stages = []
    for stage in range(1, args.stage + 1):
        folder = stage_folder(game, args.output, args.seed, stage, args.arm)
        state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
        name = folder.name.replace("-", "_")
        stages.append({"name": name, "kind": "ppo", "config": state["settings"],
                       "steps": stage * args.stage_updates * rollout,
                       **({"continues": stages[-1]["name"]} if stages else
                          {"imitation": {**imitation, "seed": args.seed}} if imitation else {}),
                       "cpu_minutes": round(state["clock"][0] / 60, 1),
                       "checkpoint_sha256": hashlib.sha256((folder / "checkpoint.pt").read_bytes()).hexdigest()})
    return {"name": args.recipe, "product": f"@{stages[-1]['name']}/final.pt",
            "acceptance_seed": args.acceptance_seeds[0], "stages": stages}


def table_row(args: Args, folder: Path, selection: dict[str, Any]) -> str:
    """The results page's row of a measured stage."""
    state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    if "tables" in selection:  # six-handed: the agent; the comparison agent in its seat
        cells = [f"{figure(item['agent'])}; {figure(item['heuristic'])}" for item in selection["tables"].values()]
    else:
        cells = heads_up_cells(selection)
    stage = f"{args.stage}" if args.arm == GAMES[args.game].first_arm else f"{args.stage} ({args.arm})"
    return (f"| {args.seed} | {stage} | {state['steps']:,} | {state['clock'][0] / 60:.1f} | "
            f"{' | '.join(cells)} | {selection['score']:+.1f} |")


def bound_text(args: Args, bounds: dict[str, Any]) -> str:
    """LBR's bounds as the study prints them."""
    def signed(value: float | None) -> str:
        return "n/a" if value is None else f"{value:+.1f}"  # one deal has no CI

    return "LBR " + "; ".join(f"{play} {signed(bounds[play]['bb100'])} [{signed(bounds[play]['low'])}, "
                              f"{signed(bounds[play]['high'])}]" for play in ("sampled", "argmax")) + \
        f" bb/100 ({args.lbr_deals} deals, seed {GAMES[args.game].lbr_seed})"


def heads_up_cells(selection: dict[str, Any]) -> list[str]:
    """A heads-up selection's cells on the results page: AIVAT, then raw, against each opponent."""
    return [f"{figure(item, 'aivat_')}; raw {figure(item)}" for item in selection["opponents"].values()]


def measure_average(args: Args) -> None:
    """``--average``: the mixture of the seed's stages measured by the selection rule (``--select``) and LBR
    (``--lbr``), written to its folder as a stage's are."""
    if not (args.select or args.lbr) or args.accept or args.keep or args.recipe:
        raise ConfigError("--average: measures the mixture of finished stages with --select or --lbr (no training, "
                          "--accept, --keep or --recipe)")
    if any(stage < 1 for stage in args.average) or len(set(args.average)) != len(args.average):
        raise ConfigError(f"--average: expected distinct stage numbers from 1, got {' '.join(map(str, args.average))}")
    if GAMES[args.game].seats != 2:
        raise ConfigError(f"--average: measured heads-up only; the {args.game} agent plays at "
                          f"{GAMES[args.game].seats} seats")
    members, folder = average_members(args)
    folder.mkdir(parents=True, exist_ok=True)
    if args.lbr:
        bounds = local_best_response(args, folder, members)
        (folder / "lbr.json").write_text(json.dumps(bounds, indent=2) + "\n", encoding="utf-8")
        print(f"{folder.name} of seed {args.seed}: {bound_text(args, bounds)}")
    if args.select:
        shown = [str(Path(m).resolve().relative_to(ROOT)) if Path(m).resolve().is_relative_to(ROOT) else m
                 for m in members]  # the kept files by their place in the repository
        selection = {**select(args, average_spec(members)), "policy": average_spec(shown)}
        (folder / "selection.json").write_text(json.dumps(selection, indent=2) + "\n", encoding="utf-8")
        cells = heads_up_cells(selection)
        print(f"| {args.seed} | {folder.name} | | | {' | '.join(cells)} | {selection['score']:+.1f} |")


def measure_agent(args: Args) -> None:
    """``--agent``: measure an agent by the selection rule (``--select``), LBR (``--lbr``) or the acceptance run
    (``--accept``, its selection measured first), each printed and saved in :func:`agent_folder` as a stage's are
    in its folder."""
    game = GAMES[args.game]
    if args.keep or args.recipe or args.average:
        raise ConfigError("--agent: measures an agent made elsewhere (no --keep, --recipe or --average)")
    folder = agent_folder(args)
    if args.lbr:
        bounds = local_best_response(args, folder, agent=args.agent)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "lbr.json").write_text(json.dumps(bounds, indent=2) + "\n", encoding="utf-8")
        print(json.dumps(bounds, indent=2))
    if args.select:
        selection = select(args, args.agent) if game.seats == 2 else select_at_tables(args, args.agent, folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "selection.json").write_text(json.dumps(selection, indent=2) + "\n", encoding="utf-8")
        print(json.dumps(selection, indent=2))
    if args.accept:
        accepted = (acceptance(args, folder, args.agent) if game.seats == 2 else
                    table_acceptance(args, folder, args.agent))
        (folder / "acceptance.json").write_text(json.dumps(accepted, indent=2) + "\n", encoding="utf-8")
        print(crosstable(accepted) if game.seats == 2 else table_crosstable(accepted, game.comparison))


def main(args: Args) -> None:
    """Train the stage (or go on with it), or measure it for selection."""
    from razz_env.train.budgeted import BudgetedRun, Checkpoints, budget_spent, read_state, trainer_args
    from razz_env.train.kept import keep, restore

    if args.agent and not (args.select or args.lbr or args.accept):
        raise ConfigError("--agent: measures an agent by the selection rule, LBR or the acceptance run; give "
                          "--select, --lbr or --accept too")
    if args.threshold and not (args.agent.endswith(".npz") and 0 < args.threshold < 1):
        raise ConfigError(f"--threshold: plays a sampled solver's policy file (--agent ....npz) thresholded at a "
                          f"probability below 1; got --threshold {args.threshold:g}"
                          f"{f' with --agent {args.agent}' if args.agent else ' without --agent'}")
    args = resolved(args)
    game = GAMES[args.game]
    if args.agent:
        measure_agent(args)
        return
    if args.average:
        measure_average(args)
        return
    settings = trainer_settings(game, args.seed, args.device, args.arm)
    trainer = trainer_args(settings, Path(args.output))
    rollout = trainer.num_tables * trainer.num_steps  # the steps of one update, as the method's settings say
    for stage in range(max(args.stage - 1, 1), args.stage + 1):  # a stage kept in --release and not in --output
        arm = game.arm_at(stage, args.arm)
        if restore(stage_folder(game, args.release, args.seed, stage, arm),
                   stage_folder(game, args.output, args.seed, stage, arm),
                   trainer_settings(game, args.seed, args.device, arm), stage * args.stage_updates * rollout):
            print(f"restored stage {stage} of seed {args.seed} from {args.release}")
    folder = stage_folder(game, args.output, args.seed, args.stage, args.arm)
    earlier = stage_folder(game, args.output, args.seed, args.stage - 1, args.arm) if args.stage > 1 else None
    if earlier is not None and not budget_spent(earlier, float("inf"), (args.stage - 1) * args.stage_updates * rollout):
        raise ConfigError(f"--stage {args.stage}: stage {args.stage - 1} of seed {args.seed} is not finished "
                          f"({earlier}); train it first")
    start = game.start_arm(args.arm) if args.stage == 1 else None
    if start is not None:
        earlier = Path(args.output) / f"seed{args.seed}" / f"stage0-{start}"
    run = BudgetedRun(folder, settings, minutes=float("inf"), every=args.checkpoint_every * 60,
                      evaluator=Checkpoints(), max_steps=args.stage * args.stage_updates * rollout,
                      label=str(folder), start_from=earlier)
    measuring = args.select or args.lbr or args.accept or args.recipe or args.keep
    if measuring:
        if not run.done():
            flag = next(f"--{name}" for name in ("select", "lbr", "accept", "recipe", "keep") if getattr(args, name))
            raise ConfigError(f"{flag}: stage {args.stage} of seed {args.seed} is not finished ({folder}); train "
                              f"it first")
    if args.lbr:
        bounds = local_best_response(args, folder)
        (folder / "lbr.json").write_text(json.dumps(bounds, indent=2) + "\n", encoding="utf-8")
        print(f"seed {args.seed} stage {args.stage}: {bound_text(args, bounds)}")
    if args.select:
        player = str(folder / "final.pt")
        selection = (select(args, player) if game.seats == 2 else
                     select_at_tables(args, {"type": player, "deterministic": False}, folder / "selection"))
        (folder / "selection.json").write_text(json.dumps(selection, indent=2) + "\n", encoding="utf-8")
        print(table_row(args, folder, selection))
    if args.accept:
        accepted = acceptance(args, folder) if game.seats == 2 else table_acceptance(args, folder)
        (folder / "acceptance.json").write_text(json.dumps(accepted, indent=2) + "\n", encoding="utf-8")
        print(crosstable(accepted) if game.seats == 2 else table_crosstable(accepted, game.comparison))
    if args.recipe:
        from razz_env.recipes import write_recipe

        table = "heads-up" if game.seats == 2 else f"{game.seats}-handed"
        path = write_recipe(Path(args.output), recipe(args, rollout),
                            f"{args.recipe}: {table} {game.variant}, studies/razz_flagship.py --game {args.game} "
                            f"--seed {args.seed} --stage {args.stage} --arm {args.arm} "
                            f"(docs/studies/{game.page or game.name}.md)")
        print(f"wrote {path}")
    if args.keep:
        kept = stage_folder(game, args.release, args.seed, args.stage, args.arm)
        for name, digest in keep(folder, kept).items():
            print(f"{kept / name}  SHA-256 {digest}")
        print(f"kept stage {args.stage} of seed {args.seed} in {kept}: commit it (git add {kept})")
    if measuring:
        return
    if run.done():
        print(f"{folder}: finished already ({folder / 'final.pt'})")
        return
    if start is not None and read_state(folder) is None:
        from razz_env.train.batch_imitation import IMITATION_RECORD, imitation_stage
        from razz_env.train.imitation import ImitationSettings

        imitation_stage(earlier, trainer_settings(game, args.seed, args.device, start),
                        ImitationSettings(**game.imitation[start], seed=args.seed))
        fitted = json.loads((earlier / IMITATION_RECORD).read_text(encoding="utf-8"))
        print(f"{earlier}: {fitted['decisions']:,} decisions of {fitted['teacher']} fitted, held-out agreement "
              f"{fitted['epochs_run'][-1]['held_out_agreement']:.3f} ({fitted['cpu_seconds'] / 60:.1f} CPU min)")
    run.run()


if __name__ == "__main__":
    run_script(main, Args, __doc__)

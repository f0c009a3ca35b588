"""PPO with action masks on the batched engine, in one file (CleanRL's ``ppo.py`` style), on the CPU or a GPU.

The environment (``BatchEngine`` on the CPU, ``razz_env.batch.cuda_engine.CudaEngine`` on ``--device cuda``) and the
networks live on one device: observations, masks, rewards and actions stay torch tensors there. Heads-up by
default, or 3 to 8 seats (``--num-seats``). A share of the tables (``--self-play-fraction``) plays the learner's
current network in every seat, and every seat's decisions are training data; the other tables play opponents
(``--opponents``, shared as ``--opponent-weights`` say: any registered agent or model file that acts in batch and
states its policy), and only the learner seat's decisions there are training data; the learner's seat rotates
across tables and hands. At a multi-way opponent table one opponent sits in every other seat, or with
``--mixed-tables`` each seat its own (a mixture of tables, seats rotated: what a multi-way agent should meet). An
opponent that reads only the legal actions (``random``, ``calling_station``) has its stated policy read once for
every legality mask and drawn from on the device; one that reads the seat's view or vector (``monte_carlo``,
``razz_heuristic``, the exploiters, a trained model) states its policy at each step for the tables where it acts,
from what that seat may see, and the trainer draws from it (``--device cpu`` only: the GPU engine keeps no views).

Returns are per (table, seat): a seat's reward is its payoff in big bets when its hand ends, and the other seats'
decisions in between are part of the environment (:func:`seat_gae`). Saves ``final.pt`` in ``--output`` (read by
:mod:`razz_env.agents.torch_policy`, which plays it in ``razz tournament``).

    razz ppo --output runs/batch_ppo --total-steps 5000000          # CPU
    razz ppo --device cuda --num-tables 16384 --output runs/gpu     # GPU

On cuda there are no per-step host copies: the engine reads the actions from and writes the vectors into the
rollout's tensors in place, checks the actions' legality once a rollout, and the host reads the logged scalars
once per ``--log-every`` updates (the learning-rate schedule is computed on the host).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from torch import nn

from razz_env.agents.registry import AgentSpecError, make_agent
from razz_env.agents.torch_policy import FORMAT, VERSION, build_mlp
from razz_env.encoding import BATCHED_ENCODERS
from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.encoding.interface import ObservationBatch, Observer, declaration_of, seating_problem
from razz_env.engine.checks import check_fields, limited
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.settings import flag_name
from razz_env.engine.table import Table
from razz_env.engine.variants import VARIANTS

BASELINES = ("random", "calling_station")
"""The default ``--opponents``: registered agents that observe only the legal actions."""
MAGNETS = ("uniform", "moving", "ema")
WRITTEN = tuple(encoder.name for encoder in BATCHED_ENCODERS)
"""The encodings an opponent may read vectors in (the batched engine writes them: ``flat`` for the learner)."""
POOL_DRAW = 8
"""Snapshots a rollout's pool tables are dealt among (drawn afresh each rollout): one network pass each a step."""
MASKED = -1e9
"""The logit of an illegal id in training: finite, so the entropy stays finite, and its probability is exactly 0."""


@dataclass
class Args:
    """Table, opponents, PPO settings and output of a batched PPO run."""

    variant: str = limited("razz", choices=tuple(VARIANTS))
    """the game (any variant of the batched engine)"""
    num_seats: int = limited(2, minimum=2, maximum=8)
    """seats a table: heads-up, or a multi-way table where the learner sits in one seat (rotating each hand) among
    opponents, or in every seat at a self-play table"""
    stacks: int = limited(1000, minimum=1)
    """starting stack of every seat, in chips (default: the table of razz tournament, match and razz play, 1000);
    the saved policy plays at this table only"""
    device: str = limited("cpu", choices=("cpu", "cuda"))
    """``cpu`` (BatchEngine) or ``cuda`` (CudaEngine); the networks run there too"""
    seed: int = 1
    """seeds the deals, the networks, the sampling and the baselines (on the CPU a seed repeats a run exactly)"""
    total_steps: int = limited(2_000_000, minimum=1)
    """engine steps (decisions at all tables, both seats and baselines included) to train for"""
    num_tables: int = limited(1024, minimum=1)
    """tables played in lockstep"""
    num_steps: int = limited(32, minimum=1)
    """steps per table in each rollout"""
    learning_rate: float = limited(3e-4, above=0)
    """Adam's learning rate"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 0"""
    gamma: float = limited(1.0, minimum=0, maximum=1)
    """discount between a seat's decisions"""
    gae_lambda: float = limited(0.95, minimum=0, maximum=1)
    """GAE's lambda"""
    num_minibatches: int = limited(8, minimum=1)
    """minibatches per epoch"""
    update_epochs: int = limited(4, minimum=1)
    """epochs over each rollout"""
    norm_adv: bool = True
    """normalise the advantages per minibatch"""
    clip_coef: float = limited(0.2, above=0)
    """the surrogate's clipping"""
    clip_vloss: bool = True
    """clip the value loss as PPO's paper does"""
    target_kl: float = limited(0.0, minimum=0)
    """stop an update's epochs at the first minibatch whose approximate KL from the rollout's policy passes 1.5 times
    this (Stable-Baselines3's rule; 0: never), so that no update moves the policy far. It cannot make one step
    smaller: from a fitted start (an imitation) a fresh Adam's first step moves every weight by about the learning
    rate, so take a small one too. Each minibatch then reads one number back from the device"""
    ent_coef: float = limited(0.01, minimum=0)
    """entropy bonus"""
    vf_coef: float = limited(0.5, minimum=0)
    """value loss weight"""
    max_grad_norm: float = limited(0.5, above=0)
    """gradient clipping"""
    hidden: tuple[int, ...] = (256, 256)
    """hidden layer widths of the actor and of the critic"""
    activation: str = limited("tanh", choices=("tanh", "relu"))
    """``tanh`` or ``relu``"""
    self_play_fraction: float = limited(0.5, minimum=0, maximum=1)
    """share of the tables where the current network plays both seats"""
    opponents: tuple[str, ...] = BASELINES
    """the agents at the other tables: registered names or model files that act in batch and state their policy
    (those reading the seat's view or vector, such as ``monte_carlo``, on the CPU only), each named once"""
    opponent_weights: tuple[float, ...] = ()
    """each opponent's share of the other tables, in ``--opponents``' order (empty: equal shares)"""
    mixed_tables: bool = False
    """at a multi-way opponent table, each other seat its own opponent (the shares then count seats, and the log's
    figure is per table kind, not per opponent); without it one opponent sits in every other seat of a table"""
    seat_draw: str = limited("fixed", choices=("fixed", "hand"))
    """with ``--mixed-tables``: ``fixed``, each seat keeps the opponent dealt it at the start (in weighted round
    robin, so a few layouts repeat table after table: 13 for the six-handed studies' weights); ``hand``, every
    hand each other seat draws its opponent anew (see ``--seat-concentration``)"""
    seat_concentration: float = limited(0.0, minimum=0)
    """with ``--seat-draw hand``: 0, each seat drawn by ``--opponent-weights``; above 0, every hand each mixed table
    first draws its own weights from a Dirichlet whose parameters are the weights scaled to sum to this, then its
    seats from them (small: tables of few kinds, two or three of one opponent common)"""
    pool_fraction: float = limited(0.0, minimum=0, maximum=1)
    """share of the tables where the learner plays a frozen snapshot of itself (after the self-play tables)"""
    snapshot_every: int = limited(50, minimum=1)
    """updates between snapshots joining the pool (the first is the untrained network)"""
    max_snapshots: int = limited(0, minimum=0)
    """snapshots kept, the newest (0: all of them, as fictitious play averages over every past policy)"""
    magnet_coef: float = limited(0.0, minimum=0)
    """alpha: weight of KL(policy || magnet) in the policy loss (magnetic mirror descent; 0: plain PPO)"""
    magnet: str = limited("uniform", choices=MAGNETS)
    """the magnet: ``uniform`` over the legal ids (the KL is then minus the entropy, plus a constant), ``moving``
    (a frozen copy of the actor, renewed every ``--magnet-every`` updates) or ``ema`` (an exponential moving
    average of the actor's weights, ``--magnet-ema`` of the way to them each update: Maidment et al., 2026)"""
    magnet_every: int = limited(100, minimum=1)
    """updates between renewals of a moving magnet"""
    magnet_ema: float = limited(0.01, minimum=0, maximum=1)
    """the share of the way an ``ema`` magnet's weights move to the actor's each update"""
    regularisation_halflife: int = limited(0, minimum=0)
    """updates over which ``--ent-coef`` and ``--magnet-coef`` halve (0: constant): a regularised equilibrium's
    bias shrinks as they do"""
    kl_coef: float = limited(0.0, minimum=0)
    """1/eta: weight of KL(policy || the rollout's policy), mirror descent's proximal term (0: none; with it,
    ``--clip-coef`` may be set high so that the KL alone keeps the step small)"""
    output: str = "runs/batch_ppo"
    """folder for ``final.pt`` and ``log.jsonl``"""
    force: bool = False
    """write into a non-empty output folder"""
    log_every: int = limited(10, minimum=1)
    """updates between log lines"""
    torch_threads: int = limited(1, minimum=1)
    """torch CPU threads (1: the fastest on a shared 2-core machine)"""
    quiet: bool = False
    """no log lines on stdout"""


def check_args(args: Args, name: Callable[[str], str] = flag_name) -> None:
    """Refuse settings the trainer cannot run, naming the setting as ``name`` writes it (a flag, or a config's key)
    (``ConfigError``): each field's declared limits, then the rules that join several."""
    check_fields(args, name)
    if args.mixed_tables and args.num_seats == 2:
        raise ConfigError(f"{name('mixed_tables')}: mixes opponents at a table of 3 or more seats; heads-up, a table's "
                          f"one other seat is its opponent ({name('num_seats')} 2)")
    if args.seat_draw != "fixed" and not args.mixed_tables:
        raise ConfigError(f"{name('seat_draw')} {args.seat_draw}: draws the seats of mixed tables; add "
                          f"{name('mixed_tables')}")
    if args.seat_concentration and args.seat_draw != "hand":
        raise ConfigError(f"{name('seat_concentration')}: draws each hand's table weights; add {name('seat_draw')} "
                          f"hand")
    if args.device == "cuda" and not torch.cuda.is_available():
        raise ConfigError(f"{name('device')} cuda: torch sees no CUDA device (a CPU build of torch, or no GPU)")
    check_opponents(args, name)
    if args.self_play_fraction + args.pool_fraction > 1.0:
        raise ConfigError(f"{name('pool_fraction')}: {args.pool_fraction} with {name('self_play_fraction')} "
                          f"{args.self_play_fraction} is more than every table")
    if args.self_play_fraction + args.pool_fraction < 1.0 and not args.opponents:
        raise ConfigError(f"{name('opponents')}: none given, but {name('self_play_fraction')} and "
                          f"{name('pool_fraction')} leave tables to baselines")
    rollout = args.num_tables * args.num_steps
    if rollout % args.num_minibatches:
        raise ConfigError(f"{name('num_minibatches')}: {args.num_minibatches} does not divide a rollout's {rollout} "
                          f"decisions ({name('num_tables')} {args.num_tables} x {name('num_steps')} {args.num_steps}); "
                          f"choose a divisor, e.g. {_nearest_divisor(rollout, args.num_minibatches)}")


def _nearest_divisor(total: int, near: int) -> int:
    """The divisor of ``total`` closest to ``near`` (the larger of two as close)."""
    small = [d for d in range(1, math.isqrt(total) + 1) if total % d == 0]
    return min({*small, *(total // d for d in small)}, key=lambda d: (abs(d - near), -d))


# ---------------------------------------------------------------------------------------------- the environment


class DeviceEngine:
    """The batched engine behind torch tensors on ``device``: ``BatchEngine`` (CPU, zero-copy ``from_numpy``) or
    ``CudaEngine`` (GPU, zero-copy ``__cuda_array_interface__``); the only code that knows which."""

    def __init__(self, config: HandConfig, num_tables: int, seed: int, device: str, views: bool = False) -> None:
        from razz_env.encoding.encoders import FlatEncoder

        self.device = torch.device(device)
        encoder = FlatEncoder(config)
        self.size = encoder.size
        if self.device.type == "cuda":
            from razz_env.batch.cuda_engine import CudaEngine

            self.engine: Any = CudaEngine(config, num_tables, seed=seed, encoder=encoder)
        else:
            from razz_env.batch import BatchEngine

            self.engine = BatchEngine(config, num_tables, seed=seed, encoder=encoder, views=views)

    def _tensor(self, array: Any) -> torch.Tensor:
        """A device array of the engine as a tensor on the device, without a copy."""
        if self.device.type == "cuda":
            return torch.as_tensor(array, device=self.device)
        return torch.from_numpy(np.asarray(array))

    def read(self, vectors: torch.Tensor, masks: torch.Tensor, actor: torch.Tensor) -> None:
        """Write the acting seats' vectors, masks (bool) and seats into the given tensors."""
        self.engine.observe(out=vectors if self.device.type == "cuda" else vectors.numpy())
        self.read_turn(masks, actor)

    def read_turn(self, masks: torch.Tensor, actor: torch.Tensor) -> None:
        """Write the acting seats' masks (bool) and seats into the given tensors."""
        if self.device.type == "cuda":
            masks.copy_(self._tensor(self.engine.masks) != 0)
            actor.copy_(self._tensor(self.engine.actor))
        else:
            np.not_equal(self.engine.masks, 0, out=masks.numpy())
            np.copyto(actor.numpy(), self.engine.actor)

    def step(self, actions: torch.Tensor, vectors: torch.Tensor, masks: torch.Tensor, actor: torch.Tensor,
             payoffs: torch.Tensor, finished: torch.Tensor) -> None:
        """Play ``actions`` (int64, one per table) and write the payoffs (chips), finished flags and the new acting
        seats' vectors, masks and seats into the given tensors. On cuda the engine reads the actions and writes the
        vectors in place, and nothing waits for the host (:meth:`check` reports a refused id once a rollout)."""
        if self.device.type == "cuda":
            result = self.engine.step(actions, out=vectors, check=False)
            payoffs.copy_(self._tensor(result.payoffs))
            finished.copy_(self._tensor(result.finished) != 0)
        else:
            result = self.engine.step(actions.numpy(), out=vectors.numpy())
            np.copyto(payoffs.numpy(), result.payoffs)
            np.not_equal(result.finished, 0, out=finished.numpy())
        self.read_turn(masks, actor)

    def check(self) -> None:
        """Raise for an illegal id an unchecked GPU step refused (the CPU engine checks every step)."""
        if self.device.type == "cuda":
            self.engine.check()


# ---------------------------------------------------------------------------------------------- the baselines


def check_opponents(args: Args, name: Callable[[str], str] = flag_name) -> None:
    """``ConfigError`` (naming the setting) unless each of ``args.opponents`` is named once, is an agent that acts in
    batch, states its policy and plays at the run's table from what the trainer can give it (the legal actions on
    either device; the seat's view or ``flat`` vector on the CPU), and the weights fit them."""
    label = name("opponents")
    repeated = sorted({opponent for opponent in args.opponents if args.opponents.count(opponent) > 1})
    if repeated:
        raise ConfigError(f"{label}: {', '.join(repeated)} named more than once; name each opponent once and give "
                          f"its share with {name('opponent_weights')}")
    config = training_table(args).hand_config()
    for opponent in args.opponents:
        try:
            agent = make_agent(opponent, seed=0)
        except (AgentSpecError, TypeError, ValueError) as err:  # the registry's refusals of a spec
            raise ConfigError(f"{label}: {err}") from None
        declared = declaration_of(agent)
        if not declared.states_policy or not declared.acts_in_batch:
            raise ConfigError(f"{label}: {opponent!r} states no policy or does not act in batch (its declaration: "
                              f"states_policy {declared.states_policy}, acts_in_batch {declared.acts_in_batch}); the "
                              f"batched trainer draws from an opponent's stated policy, many tables at once")
        problem = seating_problem(agent, args.variant, args.num_seats)
        if problem is not None:
            raise ConfigError(f"{label}: {problem}")
        if declared.observes and args.device == "cuda":
            raise ConfigError(f"{label}: {opponent!r} reads the seat's {' and '.join(declared.observes)}, which only "
                              f"the CPU engine gives; on {name('device')} cuda the opponents are those that read the "
                              f"legal actions alone, such as {' and '.join(BASELINES)}")
        if declared.encoding not in (None, *WRITTEN) and "vector" in declared.observes:
            raise ConfigError(f"{label}: {opponent!r} reads {declared.encoding!r} vectors; the trainer's engine "
                              f"writes {', '.join(map(repr, WRITTEN))} ones")
        try:
            Observer(agent, config)  # the table it was trained at, the width of the vectors it reads
        except ConfigError as err:
            raise ConfigError(f"{label}: {err}") from None
    weights = args.opponent_weights
    if weights and len(weights) != len(args.opponents):
        raise ConfigError(f"{name('opponent_weights')}: {len(weights)} weights for {len(args.opponents)} opponents "
                          f"({', '.join(args.opponents)}); give one each, or none for equal shares")
    if not all(math.isfinite(w) and w > 0 for w in weights):
        raise ConfigError(f"{name('opponent_weights')}: expected positive numbers, got "
                          f"{', '.join(str(w) for w in weights)}")


class Opponents:
    """The agents at the tables the learner does not share with itself, each drawn from its stated policy: the
    policies of those reading only the legal actions are read once into a table on the device
    (:func:`baseline_policies`); the others are asked on the host at each step, for the tables where they act, with
    what those seats may see (a seeded agent's policy depends only on that: a run repeats). One reading vectors of
    another encoding than the trainer's ``flat`` (``flat8``: a multi-way zoo agent) gets them from the engine in its
    own (``config``: the table's)."""

    def __init__(self, names: tuple[str, ...], seed: int, device: torch.device,
                 config: HandConfig | None = None) -> None:
        from razz_env.encoding import make_encoder

        self.agents = [make_agent(name, seed=seed) for name in names]
        self.reads = [declaration_of(agent).observes for agent in self.agents]
        self.on_host = [k for k, reads in enumerate(self.reads) if reads]
        self.view_readers = [k for k in self.on_host if "view" in self.reads[k]]
        self.encoders = {k: make_encoder(encoding, config) for k in self.on_host if "vector" in self.reads[k]
                         and (encoding := declaration_of(self.agents[k]).encoding) not in (None, "flat")}
        self.policies = baseline_policies(self.agents, device)

    @property
    def views(self) -> bool:
        """Whether an opponent reads the seats' views or another encoding (the engine must keep every decision)."""
        return bool(self.view_readers or self.encoders)

    def actions(self, opponent: torch.Tensor, acting: torch.Tensor, masks: torch.Tensor, vectors: torch.Tensor,
                actor: torch.Tensor, engine: Any) -> torch.Tensor:
        """An id per table: drawn from its opponent's stated policy where ``acting`` (that opponent is to act; the
        other rows' ids are to be discarded). ``engine``: the CPU engine, whose views the host opponents read."""
        chosen = baseline_actions(self.policies, opponent, masks)
        if not self.on_host:
            return chosen
        here = (acting & (opponent >= 0)).numpy()
        which = opponent.numpy()
        seen = np.flatnonzero(here & np.isin(which, self.view_readers))  # one views build a step for all readers
        views = engine.seat_views(seen) if len(seen) else None
        for k in self.on_host:
            if "view" in self.reads[k]:
                among = np.flatnonzero(which[seen] == k)
                rows = seen[among]
            else:
                rows = np.flatnonzero(here & (which == k))
            if not len(rows):
                continue
            read = engine.observe_as(self.encoders[k]) if k in self.encoders else vectors.numpy()
            batch = ObservationBatch(actor.numpy()[rows], masks.numpy()[rows].astype(np.int8),
                                     views=views.take(among) if "view" in self.reads[k] else None,
                                     vectors=read[rows] if "vector" in self.reads[k] else None)
            stated = torch.as_tensor(np.asarray(self.agents[k].action_probabilities_batch(batch)),
                                     dtype=torch.float32)
            chosen[torch.from_numpy(rows)] = torch.multinomial(stated, 1).squeeze(1)
        return chosen


def baseline_policies(agents: tuple[Any, ...], device: torch.device) -> torch.Tensor:
    """What each of ``agents`` (registered names or agents) that observes only the legal actions plays at every
    legality mask: their stated policies, asked once, float32 on ``device``, indexed ``[agent, *mask, action]`` (the
    all-illegal mask, and every mask of an agent that reads more, uniform, never used). The trainer draws from these
    on the device: the baselines play by their own code."""
    masks = np.array(list(itertools.product((0, 1), repeat=NUM_ACTIONS)), dtype=np.int8)
    table = np.full((len(agents), len(masks), NUM_ACTIONS), 1.0 / NUM_ACTIONS)
    for i, spec in enumerate(agents):
        agent = make_agent(spec)
        if not declaration_of(agent).observes:
            table[i, 1:] = agent.action_probabilities_batch(ObservationBatch(np.zeros(len(masks) - 1), masks[1:]))
    return torch.as_tensor(table.reshape(len(agents), *(2,) * NUM_ACTIONS, NUM_ACTIONS), dtype=torch.float32,
                           device=device)


def baseline_actions(policies: torch.Tensor, opponent: torch.Tensor, masks: torch.Tensor,
                     generator: torch.Generator | None = None) -> torch.Tensor:
    """A legal id per row of ``masks`` (bool (N, 5)) drawn from the policy of the row's baseline ``opponent`` (rows
    of another role draw from baseline 0's, to be discarded), int64."""
    stated = policies[(opponent.clamp(min=0), *masks.long().unbind(dim=1))]
    return torch.multinomial(stated, 1, generator=generator).squeeze(1)


# ---------------------------------------------------------------------------------------------- the advantages


class SeatReturns(NamedTuple):
    """GAE per decision: ``advantages``, ``returns`` (advantage + value) and ``valid`` (the decision has a learning
    signal: its seat's hand ended or the seat acts again, within the rollout or at its end)."""

    advantages: torch.Tensor
    returns: torch.Tensor
    valid: torch.Tensor


def seat_gae(actor: torch.Tensor, values: torch.Tensor, payoffs: torch.Tensor, finished: torch.Tensor,
             next_actor: torch.Tensor, next_value: torch.Tensor, gamma: float, gae_lambda: float) -> SeatReturns:
    """GAE over each (table, seat)'s own decisions: why a two-seat table is two sequences, not one.

    ``actor`` (N, T): the seat deciding at step ``i`` of table ``t``, ``values`` (N, T) its value estimate,
    ``payoffs`` (N, T, S) what step ``i`` paid each seat (non-zero when the hand ended there), ``finished`` (N, T)
    bool. The reward of a seat's decision is the sum of its payoffs from that step until its next decision (the
    other seat's decisions in between are the environment's); when a hand ends in between (``finished``), the
    seat's next decision is in a new hand and nothing is bootstrapped across.

    At the rollout's end, the seat acting then (``next_actor``) is bootstrapped with ``next_value``, the value
    of its pending decision. A seat not acting then whose hand is still on is bootstrapped with the value of its
    own last decision: that decision's TD error is zero, so its earlier decisions are truncated there as any
    rollout is; that last decision itself has no learning signal, and ``valid`` leaves it out of the update.
    Every seat dealt in decides in every hand (the bring-in cannot fold, and a hand ends only when all but one seat
    have folded, each by deciding), so no hand's payoff falls to the previous hand's decision; only a seat all-in
    from its ante would not, and the trainer's table (equal stacks of many antes) has none.
    """
    steps, tables = actor.shape
    seats = payoffs.shape[2]
    rows = torch.arange(tables, device=actor.device)
    ahead_value = torch.zeros(tables, seats, dtype=values.dtype, device=values.device)
    ahead_value[rows, next_actor] = next_value
    ahead_adv = torch.zeros_like(ahead_value)
    has_next = torch.zeros(tables, seats, dtype=torch.bool, device=actor.device)
    has_next[rows, next_actor] = True
    reward = torch.zeros_like(ahead_value)
    done = torch.zeros_like(has_next)
    advantages, valid = torch.zeros_like(values), torch.zeros_like(finished)
    for i in range(steps - 1, -1, -1):
        reward += payoffs[i].to(values.dtype)
        done |= finished[i][:, None]
        seat = actor[i]
        r, d, follow = reward[rows, seat], done[rows, seat], has_next[rows, seat]
        bootstrap = (follow & ~d).to(values.dtype)
        delta = r + gamma * ahead_value[rows, seat] * bootstrap - values[i]
        adv = delta + gamma * gae_lambda * bootstrap * ahead_adv[rows, seat]
        ok = d | follow
        adv = torch.where(ok, adv, torch.zeros_like(adv))
        advantages[i], valid[i] = adv, ok
        ahead_value[rows, seat], ahead_adv[rows, seat] = values[i], adv
        has_next[rows, seat] = True
        reward[rows, seat], done[rows, seat] = 0.0, False
    return SeatReturns(advantages, advantages + values, valid)


# ---------------------------------------------------------------------------------------------- the networks


def layer_init(layer: nn.Linear, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Linear:
    """CleanRL's orthogonal initialisation of a linear layer."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """The actor (``build_mlp``: what ``final.pt`` stores) and a critic of the same hidden widths."""

    def __init__(self, size: int, hidden: tuple[int, ...], activation: str) -> None:
        super().__init__()
        self.layers = [size, *hidden, NUM_ACTIONS]
        self.actor = build_mlp(self.layers, activation)
        self.critic = build_mlp([size, *hidden, 1], activation)
        for network, last_std in ((self.actor, 0.01), (self.critic, 1.0)):
            linears = [m for m in network if isinstance(m, nn.Linear)]
            for layer in linears[:-1]:
                layer_init(layer)
            layer_init(linears[-1], last_std)

    def value(self, x: torch.Tensor) -> torch.Tensor:
        """The critic's estimate (big bets) of the acting seat's payoff."""
        return self.critic(x).squeeze(-1)

    def masked_logits(self, x: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        """The actor's logits with the illegal ids at :data:`MASKED`."""
        return self.actor(x).masked_fill(~masks, MASKED)


# ---------------------------------------------------------------------------------------------- training


def prepare_output(args: Args, resuming: bool = False) -> Path:
    """The output folder, created; ``ConfigError`` for a non-empty one without ``--force`` (a resumed run goes on
    writing in its own)."""
    out = Path(args.output)
    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not (args.force or resuming):
        raise ConfigError(f"--output {out}: exists and is not empty; pass --force to write into it, or choose "
                          "another folder")
    out.mkdir(parents=True, exist_ok=True)
    return out


POOL = -2
"""The opponent index of a table where the learner plays a snapshot of itself (-1: self-play, 0...: a baseline)."""
MIXED = -3
"""The kind of a multi-way table whose other seats each hold their own opponent (``mixed_tables``)."""


def opponent_weights(args: Args) -> tuple[float, ...]:
    """Each of ``--opponents``' weights (left out: equal)."""
    return tuple(args.opponent_weights or (1.0,) * len(args.opponents))


def table_roles(args: Args, device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Per table: its kind (-1: self-play, :data:`POOL`: a snapshot, 0...: that opponent, :data:`MIXED`: mixed
    opponents), per table and seat the agent there when the learner is elsewhere (the same encoding), and the
    learner's first seat (rotating across tables). The opponents take the last tables (with ``mixed_tables``, their
    seats, table by table) in weighted round-robin order (equal weights: 0, 1, 2, 0, 1, 2...), so each one's share
    is its weight's to within a table (a seat)."""
    tables, seats = args.num_tables, args.num_seats
    self_play = round(args.self_play_fraction * tables) if args.opponents else tables
    pooled = round((args.self_play_fraction + args.pool_fraction) * tables) if args.opponents else tables
    kind = torch.full((tables,), -1, dtype=torch.int64)
    kind[self_play:pooled] = POOL
    weights = opponent_weights(args)
    if args.mixed_tables:
        kind[pooled:] = MIXED
        at_seat = kind[:, None].repeat(1, seats)
        at_seat[self_play:pooled] = POOL
        at_seat[pooled:] = torch.tensor(weighted_round_robin(weights, (tables - pooled) * seats),
                                        dtype=torch.int64).reshape(tables - pooled, seats)
    else:
        kind[pooled:] = torch.tensor(weighted_round_robin(weights, tables - pooled), dtype=torch.int64)
        at_seat = kind[:, None].repeat(1, seats)
    return kind.to(device), at_seat.to(device), (torch.arange(tables) % seats).to(device)


def seat_shares(weights: tuple[float, ...], device: torch.device) -> torch.Tensor:
    """The opponents' ``weights`` as shares summing to 1 (float64, on ``device``): what :func:`draw_seats` reads."""
    share = torch.tensor(weights, dtype=torch.float64, device=device)
    return share / share.sum()


def draw_seats(share: torch.Tensor, tables: int, seats: int, concentration: float) -> torch.Tensor:
    """(``tables``, ``seats``) opponent indices, each drawn by ``share`` (:func:`seat_shares`; ``concentration``
    above 0: by each table's own shares, drawn from a Dirichlet with the parameters ``share`` scaled to sum to it),
    from the generator of ``share``'s device, on that device (a GPU run reads nothing back).

    >>> _ = torch.manual_seed(0)
    >>> draw_seats(seat_shares((1.0, 0.0), torch.device("cpu")), 2, 3, 0.0).tolist()
    [[0, 0, 0], [0, 0, 0]]
    """
    if concentration:
        share = torch.distributions.Dirichlet((share * concentration).expand(tables, -1)).sample()
        share = share.clamp_min(1e-12)  # a Dirichlet draw of tiny parameters may underflow to zeros
    return torch.multinomial(share.expand(tables, -1), seats, replacement=True)


def weighted_round_robin(weights: tuple[float, ...], count: int) -> list[int]:
    """``count`` indices of ``weights``, each taken in turn as often as its weight says (smooth weighted round
    robin: the one with the most credit goes next).

    >>> weighted_round_robin((1.0, 1.0, 1.0), 7)
    [0, 1, 2, 0, 1, 2, 0]
    >>> weighted_round_robin((3.0, 1.0), 8)
    [0, 0, 1, 0, 0, 0, 1, 0]
    """
    credit, total, order = [0.0] * len(weights), sum(weights), []
    for _ in range(count):
        credit = [c + w for c, w in zip(credit, weights)]
        pick = max(range(len(weights)), key=lambda k: (credit[k], -k))
        credit[pick] -= total
        order.append(pick)
    return order


class SnapshotPool:
    """Frozen copies of the actor the learner plays at the pool's tables: the newest ``max_snapshots`` (0: all)."""

    def __init__(self, max_snapshots: int) -> None:
        self.max_snapshots = max_snapshots
        self.networks: list[nn.Module] = []

    def add(self, actor: nn.Module) -> None:
        """A frozen copy of ``actor`` joins (the oldest leaves when the pool is full)."""
        frozen = copy.deepcopy(actor).requires_grad_(False)
        self.networks.append(frozen)
        if self.max_snapshots and len(self.networks) > self.max_snapshots:
            self.networks.pop(0)

    def deal(self, tables: int, device: torch.device) -> tuple[list[nn.Module], torch.Tensor]:
        """Up to :data:`POOL_DRAW` snapshots drawn without replacement and each table's index among them."""
        count = min(POOL_DRAW, len(self.networks))
        drawn = torch.randperm(len(self.networks))[:count].tolist()
        return [self.networks[k] for k in drawn], (torch.arange(tables, device=device) % count)

    def state(self) -> list[dict[str, torch.Tensor]]:
        """The snapshots' weights, oldest first (what a checkpoint keeps)."""
        return [network.state_dict() for network in self.networks]

    def load(self, actor: nn.Module, states: list[dict[str, torch.Tensor]]) -> None:
        """Snapshots of ``actor``'s shape with the weights ``states`` (a checkpoint's)."""
        self.networks = []
        for weights in states:
            self.add(actor)
            self.networks[-1].load_state_dict(weights)


def pool_actions(networks: list[nn.Module], which: torch.Tensor, rows: torch.Tensor, obs: torch.Tensor,
                 masks: torch.Tensor, chosen: torch.Tensor) -> torch.Tensor:
    """``chosen`` with each row in ``rows`` replaced by an id drawn from its snapshot ``networks[which[row]]``."""
    out = chosen.clone()
    for k, network in enumerate(networks):
        index = torch.nonzero(rows & (which == k)).squeeze(1)
        if len(index):
            logits = network(obs[index]).masked_fill(~masks[index], MASKED)
            out[index] = torch.distributions.Categorical(logits=logits).sample()
    return out


def magnet_log_probs(magnet: nn.Module | None, obs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """The magnet's log-probabilities (N, 5): a network's masked softmax, or uniform over the legal ids (None);
    0 at the illegal ids, where the KL's weight is zero."""
    if magnet is None:
        legal = masks.sum(dim=1, keepdim=True).float()
        return torch.where(masks, -legal.log(), 0.0)
    return torch.where(masks, torch.log_softmax(magnet(obs).masked_fill(~masks, MASKED), dim=1), 0.0)


def training_table(args: Args) -> Table:
    """The table the run trains at (the one its policy then plays at)."""
    return Table(args.variant, num_seats=args.num_seats, stacks=args.stacks)


WHERE = ("output", "force")
"""Settings of where a run writes, not of what it learns: a policy file leaves them out, so that one run made in two
folders saves the same bytes."""


def save_policy(path: Path, agent: Agent, args: Args, steps: int, actor: nn.Module | None = None) -> None:
    """Write the actor's weights (or ``actor``'s, of the same shape) and the plain-data metadata
    :mod:`razz_env.agents.torch_policy` reads."""
    network = agent.actor if actor is None else actor
    state = {key: value.detach().cpu().clone() for key, value in network.state_dict().items()}
    torch.save({"format": FORMAT, "version": VERSION, "variant": args.variant, "num_seats": args.num_seats,
                "stacks": args.stacks, "table": training_table(args).to_dict(), "encoding": "flat",
                "layers": list(agent.layers),
                "activation": args.activation, "state_dict": state, "steps": steps,
                "args": {key: value for key, value in dataclasses.asdict(args).items() if key not in WHERE}}, path)


@dataclass
class Progress:
    """Where a run stands after an update: what a hook reads and a checkpoint keeps."""

    update: int
    steps: int
    agent: Agent
    optimizer: torch.optim.Optimizer
    pool: SnapshotPool
    magnet: nn.Module | None
    last: dict[str, Any]


CHECKPOINT_FORMAT = "razz-batch-ppo-checkpoint"


def save_checkpoint(path: Path, progress: Progress, args: Args) -> None:
    """Everything :func:`train` needs to go on from ``progress`` (``resume=path``), written atomically."""
    state = {"format": CHECKPOINT_FORMAT, "args": dataclasses.asdict(args), "update": progress.update,
             "steps": progress.steps, "agent": progress.agent.state_dict(),
             "optimizer": progress.optimizer.state_dict(), "pool": progress.pool.state(),
             "magnet": None if progress.magnet is None else progress.magnet.state_dict(),
             "torch_rng": torch.get_rng_state()}
    partial = path.with_name(path.name + ".partial")
    torch.save(state, partial)
    partial.replace(path)


ADJUSTABLE = ("opponents", "opponent_weights", "seat_draw", "seat_concentration", "self_play_fraction",
              "pool_fraction", "snapshot_every", "max_snapshots", "ent_coef", "regularisation_halflife", "magnet_coef",
              "kl_coef", "total_steps", "learning_rate", "target_kl")
"""Settings a run may change when it goes on from another run's checkpoint (a later stage: :func:`carry_over`): what
the learner plays against, how strongly it is regularised and how large its steps are (Adam's state carries over,
its learning rate is the new run's); never the table, the networks, the optimizer's kind or the rollout's shape."""


def read_checkpoint(path: Path) -> dict[str, Any]:
    """A checkpoint file's contents; ``ConfigError`` for a damaged file or another kind."""
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # noqa: BLE001 - any unreadable file is one clear error
        raise ConfigError(f"checkpoint {path}: unreadable ({type(err).__name__}: {' '.join(str(err).split())[:200]})")\
            from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise ConfigError(f"checkpoint {path}: not a {CHECKPOINT_FORMAT} file")
    return state


def changed_settings(written: dict[str, Any], args: Args) -> list[str]:
    """The settings of ``args`` that differ from those a checkpoint was ``written`` with (a setting added since then
    had its default; where a run writes and what it prints do not count)."""
    settings, defaults = dataclasses.asdict(args), dataclasses.asdict(Args())
    return sorted(k for k in settings if k not in ("output", "force", "quiet", "log_every")
                  and json.dumps(settings[k]) != json.dumps(written.get(k, defaults[k])))


def load_checkpoint(path: Path, args: Args) -> dict[str, Any]:
    """A checkpoint of a run with these settings; ``ConfigError`` for another run's or a damaged file."""
    state = read_checkpoint(path)
    differ = changed_settings(state["args"], args)
    if differ:
        raise ConfigError(f"checkpoint {path}: written by a run with other settings ({', '.join(differ)})")
    return state


def carry_over(source: Path, target: Path, args: Args) -> None:
    """Copy the checkpoint ``source`` to ``target`` as a checkpoint of a run with ``args``, which goes on from it:
    the other run's settings may differ in :data:`ADJUSTABLE` ones only (``ConfigError`` naming any other)."""
    state = read_checkpoint(source)
    fixed = [k for k in changed_settings(state["args"], args) if k not in ADJUSTABLE]
    if fixed:
        raise ConfigError(f"checkpoint {source}: written by a run with other {', '.join(fixed)}; a run going on from "
                          f"it may change only {', '.join(ADJUSTABLE)}")
    state["args"] = dataclasses.asdict(args)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    torch.save(state, partial)
    partial.replace(target)


def train(args: Args, hook: Callable[[Progress], bool] | None = None, resume: Path | None = None) -> dict[str, Any]:
    """Train as ``args`` say, save ``final.pt``; returns steps (in all), wall seconds and steps/s (of this call),
    the output path and the last log line's figures.

    ``hook(progress)`` runs after every update (measure, checkpoint); True stops the run there. ``resume``: a
    checkpoint (:func:`save_checkpoint`) of a run with the same settings to go on from: the networks, optimizer,
    pool, magnet and torch's generator are restored, and the engine deals new hands (seeded by the update).
    """
    check_args(args)
    saved = load_checkpoint(resume, args) if resume is not None else None
    out = prepare_output(args, resuming=saved is not None)
    torch.set_num_threads(args.torch_threads)
    device = torch.device(args.device)
    kind, at_seat, learner_seat = table_roles(args, device)
    has_opponents = bool((at_seat >= 0).any())
    config = training_table(args).hand_config()
    opponents = Opponents(args.opponents if has_opponents else (), args.seed, device, config)
    torch.manual_seed(args.seed)
    big_bet = float(config.big_bet)
    T, N, S = args.num_tables, args.num_steps, args.num_seats
    rollout = N * T
    updates = max(1, -(-args.total_steps // rollout))
    first = saved["update"] + 1 if saved else 1
    env = DeviceEngine(config, args.num_tables, args.seed + (first - 1) * 7919, args.device, views=opponents.views)
    agent = Agent(env.size, args.hidden, args.activation).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    pool = SnapshotPool(args.max_snapshots)
    magnet = copy.deepcopy(agent.actor).requires_grad_(False) if args.magnet != "uniform" else None
    if saved:
        agent.load_state_dict(saved["agent"])
        optimizer.load_state_dict(saved["optimizer"])
        if not args.anneal_lr:  # the saved state holds the learning rate of the run it came from
            optimizer.param_groups[0]["lr"] = args.learning_rate
        pool.load(agent.actor, saved["pool"])
        if magnet is not None:
            magnet.load_state_dict(saved["magnet"])
        torch.set_rng_state(saved["torch_rng"])
    if args.pool_fraction and not pool.networks:  # a new run, or one going on from a stage without a pool
        pool.add(agent.actor)
    drawing = kind == MIXED if args.seat_draw == "hand" else None
    if drawing is not None:  # the mixed tables' first seats; each step draws again for those whose hands ended
        shares = seat_shares(opponent_weights(args), device)
        at_seat = torch.where(drawing[:, None], draw_seats(shares, T, S, args.seat_concentration), at_seat)

    obs = torch.zeros((N + 1, T, env.size), dtype=torch.float32, device=device)
    masks = torch.zeros((N + 1, T, NUM_ACTIONS), dtype=torch.bool, device=device)
    actor = torch.zeros((N + 1, T), dtype=torch.int64, device=device)
    actions = torch.zeros((N, T), dtype=torch.int64, device=device)
    logprobs = torch.zeros((N, T), device=device)
    old_logp = torch.zeros((N, T, NUM_ACTIONS), device=device) if args.kl_coef else None
    magnet_logp = torch.zeros((N, T, NUM_ACTIONS), device=device) if args.magnet_coef else None
    values = torch.zeros((N, T), device=device)
    trained = torch.zeros((N, T), dtype=torch.bool, device=device)
    payoffs = torch.zeros((N, T, S), dtype=torch.int64, device=device)
    finished = torch.zeros((N, T), dtype=torch.bool, device=device)
    pooled = kind == POOL
    has_pool = bool(pooled.any())  # read once: a per-update read would wait for the GPU
    rows = torch.arange(T, device=device)
    env.read(obs[N], masks[N], actor[N])  # each rollout starts where the last one ended
    slots = len(args.opponents) + 3  # the opponents, the mixed tables, self-play, the pool
    vs_sum = torch.zeros(slots, dtype=torch.float64, device=device)
    vs_hands = torch.zeros_like(vs_sum)
    slot = torch.where(kind >= 0, kind, torch.where(pooled, slots - 1, torch.where(kind == MIXED, slots - 3,
                                                                                     slots - 2)))

    minibatch = rollout // args.num_minibatches
    log_path = out / "log.jsonl"
    if not saved:
        log_path.write_text("", encoding="utf-8")
    began = time.perf_counter()
    last: dict[str, Any] = {}
    steps = start_steps = saved["steps"] if saved else 0
    for update in range(first, updates + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - (update - 1.0) / updates)
        obs[0], masks[0], actor[0] = obs[N], masks[N], actor[N]
        snapshots, which = pool.deal(T, device) if has_pool else ([], pooled)
        with torch.no_grad():
            for i in range(N):
                logits = agent.masked_logits(obs[i], masks[i])
                values[i] = agent.value(obs[i])
                learner = torch.distributions.Categorical(logits=logits).sample()
                chosen = learner
                mine = (kind == -1) | (actor[i] == learner_seat)
                if has_opponents:
                    there = at_seat[rows, actor[i]]  # the opponent at the acting seat
                    chosen = torch.where(there >= 0, opponents.actions(there, ~mine, masks[i], obs[i], actor[i],
                                                                       env.engine), learner)
                if snapshots:
                    chosen = pool_actions(snapshots, which, pooled & ~mine, obs[i], masks[i], chosen)
                chosen = torch.where(mine, learner, chosen)
                actions[i], trained[i] = chosen, mine
                logp_all = torch.log_softmax(logits, dim=1)
                logprobs[i] = logp_all.gather(1, chosen[:, None]).squeeze(1)
                if old_logp is not None:
                    old_logp[i] = torch.where(masks[i], logp_all, 0.0)
                if magnet_logp is not None:
                    magnet_logp[i] = magnet_log_probs(magnet, obs[i], masks[i])
                env.step(chosen, obs[i + 1], masks[i + 1], actor[i + 1], payoffs[i], finished[i])
                won = payoffs[i].gather(1, learner_seat[:, None]).squeeze(1).to(torch.float64) / big_bet
                vs_sum.index_add_(0, slot, torch.where(finished[i], won, 0.0))
                vs_hands.index_add_(0, slot, finished[i].to(torch.float64))
                learner_seat = torch.where(finished[i], (learner_seat + 1) % S, learner_seat)
                if drawing is not None:  # the mixed tables whose hands ended seat new opponents
                    at_seat = torch.where((finished[i] & drawing)[:, None],
                                          draw_seats(shares, T, S, args.seat_concentration), at_seat)
            env.check()
            next_value = agent.value(obs[N])
            gae = seat_gae(actor[:N], values, payoffs.float() / big_bet, finished, actor[N], next_value,
                           args.gamma, args.gae_lambda)
        steps += rollout
        flat = {"old_logp": None if old_logp is None else old_logp.reshape(rollout, -1),
                "magnet_logp": None if magnet_logp is None else magnet_logp.reshape(rollout, -1)}
        decay = 0.5 ** ((update - 1) / args.regularisation_halflife) if args.regularisation_halflife else 1.0
        stats = optimise(agent, optimizer, args, obs[:N].reshape(rollout, -1), masks[:N].reshape(rollout, -1),
                         actions.reshape(-1), logprobs.reshape(-1), values.reshape(-1), gae, trained.reshape(-1),
                         minibatch, **flat, decay=decay)
        if has_pool and update % args.snapshot_every == 0:
            pool.add(agent.actor)
        if args.magnet == "moving" and update % args.magnet_every == 0:
            magnet.load_state_dict(agent.actor.state_dict())
        elif args.magnet == "ema":
            with torch.no_grad():
                for kept, current in zip(magnet.parameters(), agent.actor.parameters()):
                    kept.lerp_(current, args.magnet_ema)
        if update % args.log_every == 0 or update == updates:
            last = log_line(args, update, steps, steps - start_steps, time.perf_counter() - began, stats, vs_sum,
                            vs_hands)
            vs_sum.zero_()
            vs_hands.zero_()
            with log_path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(last) + "\n")
            if not args.quiet:
                print(" ".join(f"{k}={v}" for k, v in last.items()), flush=True)
        if hook is not None and hook(Progress(update, steps, agent, optimizer, pool, magnet, last)):
            break
    seconds = time.perf_counter() - began
    save_policy(out / "final.pt", agent, args, steps)
    return {"steps": steps, "seconds": seconds, "steps_per_second": (steps - start_steps) / seconds,
            "output": str(out / "final.pt"), "last": last}


def minibatches(size: int, minibatch: int, epochs: int, device: torch.device) -> Iterator[torch.Tensor]:
    """The rows of each minibatch of ``epochs`` shuffled passes over ``size`` rows (a last part short of
    ``minibatch`` is left out).

    >>> [len(rows) for rows in minibatches(10, 4, 2, torch.device("cpu"))]
    [4, 4, 4, 4]
    """
    for _ in range(epochs):
        order = torch.randperm(size, device=device)
        for start in range(0, size - minibatch + 1, minibatch):
            yield order[start:start + minibatch]


def optimise(agent: Agent, optimizer: torch.optim.Optimizer, args: Args, obs: torch.Tensor, masks: torch.Tensor,
             actions: torch.Tensor, logprobs: torch.Tensor, values: torch.Tensor, gae: SeatReturns,
             trained: torch.Tensor, minibatch: int, old_logp: torch.Tensor | None = None,
             magnet_logp: torch.Tensor | None = None, decay: float = 1.0) -> dict[str, torch.Tensor]:
    """PPO's clipped updates over the rollout's trained, valid decisions (others weigh zero); the mean losses.

    With ``args.magnet_coef`` the loss adds alpha KL(policy || magnet) (``magnet_logp``: the magnet's log-probabilities
    per decision), with ``args.kl_coef`` it adds KL(policy || the rollout's policy) (``old_logp``): the two terms of
    magnetic mirror descent (Sokota et al., 2023). The entropy and magnet weights are multiplied by ``decay``
    (``--regularisation-halflife``). With ``args.target_kl`` the epochs stop at the first minibatch whose approximate
    KL passes 1.5 times it (before its step), and ``optimizer_steps`` counts the steps taken."""
    weight = (trained & gae.valid.reshape(-1)).float()
    advantages, returns = gae.advantages.reshape(-1), gae.returns.reshape(-1)
    totals = {name: torch.zeros((), device=obs.device) for name in ("policy_loss", "value_loss", "entropy",
                                                                     "approx_kl", "clipfrac", "magnet_kl")}
    rounds = 0
    for index in minibatches(len(obs), minibatch, args.update_epochs, obs.device):
        w = weight[index]
        count = w.sum().clamp(min=1.0)
        logits = agent.masked_logits(obs[index], masks[index])
        logp_all = torch.log_softmax(logits, dim=1)
        newlogprob = logp_all.gather(1, actions[index, None]).squeeze(1)
        probs = logp_all.exp()
        entropy = -(probs * logp_all).sum(dim=1)
        logratio = newlogprob - logprobs[index]
        ratio = logratio.exp()
        approx_kl = (((ratio - 1) - logratio) * w).sum().detach() / count
        if args.target_kl and float(approx_kl) > 1.5 * args.target_kl:
            break
        adv = advantages[index]
        if args.norm_adv:
            mean = (adv * w).sum() / count
            std = (((adv - mean) ** 2 * w).sum() / count).sqrt()
            adv = (adv - mean) / (std + 1e-8)
        pg_loss = (torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef))
                   * w).sum() / count
        legal = masks[index]
        if magnet_logp is not None:
            magnet_kl = (torch.where(legal, probs * (logp_all - magnet_logp[index]), 0.0).sum(dim=1) * w).sum() \
                / count
            pg_loss = pg_loss + args.magnet_coef * decay * magnet_kl
            totals["magnet_kl"] += magnet_kl.detach()
        if old_logp is not None:
            step_kl = (torch.where(legal, probs * (logp_all - old_logp[index]), 0.0).sum(dim=1) * w).sum() / count
            pg_loss = pg_loss + args.kl_coef * step_kl
        new_value = agent.value(obs[index])
        unclipped = (new_value - returns[index]) ** 2
        if args.clip_vloss:
            clipped = values[index] + (new_value - values[index]).clamp(-args.clip_coef, args.clip_coef)
            v_loss = 0.5 * (torch.max(unclipped, (clipped - returns[index]) ** 2) * w).sum() / count
        else:
            v_loss = 0.5 * (unclipped * w).sum() / count
        entropy_loss = (entropy * w).sum() / count
        loss = pg_loss - args.ent_coef * decay * entropy_loss + args.vf_coef * v_loss
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
        optimizer.step()
        with torch.no_grad():
            totals["policy_loss"] += pg_loss
            totals["value_loss"] += v_loss
            totals["entropy"] += entropy_loss
            totals["approx_kl"] += approx_kl
            totals["clipfrac"] += (((ratio - 1.0).abs() > args.clip_coef).float() * w).sum() / count
        rounds += 1
    if magnet_logp is None:
        del totals["magnet_kl"]
    stats = {name: total / rounds for name, total in totals.items()}
    if args.target_kl:
        stats["optimizer_steps"] = torch.tensor(rounds)
    return stats


def log_line(args: Args, update: int, steps: int, played: int, seconds: float, stats: dict[str, torch.Tensor],
             vs_sum: torch.Tensor, vs_hands: torch.Tensor) -> dict[str, Any]:
    """One log record (the only host reads of a run): the steps in all, ``played`` of them in ``seconds`` since
    this process began (a resumed run's earlier steps are not its own), losses and the learner's bb/100 per
    opponent since the last record (``self_play`` and ``pool`` when tables play them)."""
    line: dict[str, Any] = {"update": update, "steps": steps, "seconds": round(seconds, 2),
                            "steps_per_second": round(played / seconds)}
    line.update({name: round(float(value), 5) for name, value in stats.items()})
    totals, hands = vs_sum.tolist(), vs_hands.tolist()
    if args.mixed_tables:
        line["bb100_vs_mixed_tables"] = round(100.0 * totals[-3] / hands[-3], 2) if hands[-3] else None
    else:
        for name, total, count in zip(args.opponents, totals, hands):
            line[f"bb100_vs_{name}"] = round(100.0 * total / count, 2) if count else None
    if args.pool_fraction:
        line["bb100_vs_pool"] = round(100.0 * totals[-1] / hands[-1], 2) if hands[-1] else None
    return line


def run(args: Args) -> int:
    """``razz ppo``: train and print where ``final.pt`` went (a bad setting raises ``ConfigError``)."""
    result = train(args)
    print(f"{result['steps']} steps in {result['seconds']:.1f} s ({result['steps_per_second']:,.0f} steps/s); "
          f"wrote {result['output']}")
    return 0

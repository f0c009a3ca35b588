"""The unit of work: one block of deals for one lineup, played in lockstep, sums out.

:func:`run_task` is a pure function of (config, task) (:mod:`razz_env.evaluate.tasks`): it builds the agents,
deals ``task.deals`` decks from the task's seed, plays every deal once per seat
permutation (duplicate) or once (plain), and returns per-lineup-position sums of
big bets won. All tables of a block advance together, so each agent gets one
batched call per step (one network forward pass for learned agents), not one per
table. A broken agent (raises, exceeds its time, picks an illegal action or tries to
exit: :mod:`razz_env.evaluate.containment`) ends the task with an error record instead of an exception; an
agent's ``counters()`` (LBR's off-policy actions, say) are recorded with the block's sums
(:mod:`razz_env.evaluate.block_sums`).

When the batched engine can play the lineup (:func:`batch_problem`) and no agent reads
the seat view one decision at a time (:func:`one_at_a_time`), the block is played on it
(:func:`play_deals_batched`, ``config.engine``: ``auto``, ``scalar`` or ``batch``): each agent
gets one :class:`~razz_env.encoding.interface.ObservationBatch` per step for every table where it
acts, with the same decks, the same decisions and the same results as the scalar engine.

An agent with ``hand_over`` (:class:`~razz_env.encoding.interface.HandOutcome`) is told how each of its hands ended
on both engines alike: after the step at which the hand ends (before the next decisions), the hands ending at one
step in dealing order, each numbered by the order of the agent's ``reset`` calls.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from razz_env.encoding.actions import ACTION_NAMES, NUM_ACTIONS, mask_for, to_engine
from razz_env.encoding.interface import (
    Agent,
    Observation,
    ObservationBatch,
    Observer,
    act_batch,
    action_probabilities,
    declaration_of,
    hand_outcome,
    hand_over_hook,
)
from razz_env.engine.config import HandConfig
from razz_env.engine.dealing import shuffled_deck
from razz_env.engine.errors import ConfigError
from razz_env.engine.record import to_record
from razz_env.engine.state import HandState
from razz_env.evaluate.aivat import aivat, policy_violations
from razz_env.evaluate.block_sums import AIVAT_DIGITS, summarise_tables
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.containment import (
    AgentFailure,
    DecisionTimeout,
    ProcessExitRefused,
    failure_of,
    timeout_message,
    with_time_limit,
)
from razz_env.evaluate.policy_fit import FitSums
from razz_env.evaluate.tasks import Task, make_agents, seat_permutations


def _blamed(config: TournamentConfig, task: Task, failure: AgentFailure) -> tuple[int, str]:
    """Who failed and how: an agent whose target's stated policy failed it (LBR) blames that target when it is
    its opponent (same type), never itself."""
    position = failure.position
    spec = config.agents[task.lineup[position]]
    if failure.target_fault and len(task.lineup) == 2 and isinstance(spec, Mapping):
        other = 1 - position
        target, opponent = spec.get("target"), config.agents[task.lineup[other]]
        if _type_of(target) is not None and _type_of(target) == _type_of(opponent):
            return other, f"its stated policy, as {config.labels[task.lineup[position]]}'s target: {failure.message}"
    return position, failure.message


def _type_of(spec: Any) -> str | None:
    if isinstance(spec, str):
        return spec
    return spec.get("type") if isinstance(spec, Mapping) else None


def _counters(players: Sequence[Agent]) -> dict[str, dict[str, int]]:
    """What agents count while they play (``counters()``, e.g. LBR's off-policy actions), by lineup position."""
    found = {}
    for position, player in enumerate(players):
        counters = getattr(player, "counters", None)
        if callable(counters):
            try:
                found[str(position)] = {str(k): int(v) for k, v in dict(counters()).items()}
            except (Exception, SystemExit) as err:  # noqa: BLE001 - any agent bug must be contained and reported
                raise failure_of(position, "counters: ", err) from None
    return found


@dataclass
class _ScalarReplay:
    """One seating of a deal played on the scalar engine: the hand, and the lineup position at each seat."""

    deal: int
    hand: HandState
    positions: tuple[int, ...]
    policies: list[np.ndarray | None] | None = None
    """With ``stated``: per decision, the acting agent's stated policy, or None where it states none that varies."""
    corrected: list[float] | None = None
    """With ``stated``: the AIVAT payoffs per seat (:func:`razz_env.evaluate.aivat.aivat`)."""

    @property
    def payoffs(self) -> list[int]:
        """Chips each seat won or lost."""
        return self.hand.payoffs


@dataclass
class _BatchReplay:
    """One seating of a deal played on the batched engine: only its payoffs (and with ``stated`` its AIVAT payoffs)
    are kept."""

    deal: int
    positions: tuple[int, ...]
    payoffs: list[int]
    corrected: list[float] | None = None


def _limited(call: Callable[[], Any], position: int, decisions: int, timeout: float | None, what: str = "") -> Any:
    """``call()`` (the agent at ``position`` on ``decisions`` decisions, ``what`` its method, named in an error) within
    ``timeout`` seconds a decision; :class:`AgentFailure` if it raises or runs late."""
    try:
        return with_time_limit(call, None if timeout is None else timeout * decisions, position, decisions)
    except DecisionTimeout:
        raise AgentFailure(position, "timeout", what + timeout_message(timeout, decisions)) from None
    except (Exception, SystemExit) as err:  # noqa: BLE001 - any agent bug must be contained and reported
        raise failure_of(position, what, err) from None


def _ask(agent: Agent, position: int, observations: list[Observation], timeout: float | None) -> list[Any]:
    """The agent's ids for ``observations`` (one batched call); :class:`AgentFailure` if it raises or runs late."""
    ids = _limited(lambda: act_batch(agent, observations), position, len(observations), timeout)
    if len(ids) != len(observations):
        raise AgentFailure(position, "exception", f"returned {len(ids)} actions for {len(observations)} decisions")
    return ids


def states_varying_policy(agent: Agent) -> bool:
    """Whether ``agent`` states a policy that is not always the one-hot of its action: what AIVAT asks for (a
    deterministic agent's decisions have no action correction, stated or not)."""
    declared = declaration_of(agent)
    return declared.states_policy and not declared.deterministic


def _stated(agent: Agent, position: int, observations: Sequence[Observation], timeout: float | None) -> np.ndarray:
    """The agent's stated policy at each observation, asked before it acts (as :func:`_ask`, same time limit)."""
    return _limited(lambda: action_probabilities(agent, observations), position, len(observations), timeout,
                    "action_probabilities: ")


def _checked_policies(position: int, seats: Sequence[int], policies: np.ndarray, masks: np.ndarray,
                      taken: np.ndarray) -> np.ndarray:
    """The stated policies when each is a distribution over its legal ids that gives the id taken a chance
    (``act`` must draw from ``action_probabilities``), else the :class:`AgentFailure` of the first that is not."""
    bad = policy_violations(policies, masks, taken)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        ids = np.flatnonzero(masks[row]).tolist()
        raise AgentFailure(position, "policy", f"seat {seats[row]}: action_probabilities "
                           f"{np.round(policies[row], 6).tolist()} is not a distribution over the legal ids {ids} "
                           f"that gives the action taken ({int(taken[row])}) a chance; act must draw from it")
    return policies


def _decide(agent: Agent, position: int, tables: list[_ScalarReplay], observer: Observer, timeout: float | None,
            stated: bool = False, fit: FitSums | None = None) -> None:
    observations = [observer(t.hand, t.hand.actor) for t in tables]
    policies = _stated(agent, position, observations, timeout) if stated and states_varying_policy(agent) else None
    ids = _ask(agent, position, observations, timeout)
    legal_now = [t.hand.legal_actions() for t in tables]
    checked = np.array([_checked_id(position, t.hand.actor, action_id, mask_for(legal))
                        for t, action_id, legal in zip(tables, ids, legal_now)], dtype=np.int64)
    if policies is not None:
        masks = np.array([mask_for(legal) for legal in legal_now]).reshape(len(tables), NUM_ACTIONS)
        _checked_policies(position, [t.hand.actor for t in tables], policies, masks, checked)
        if fit is not None:
            fit.add(position, policies, checked)
    for row, (table, action_id, legal) in enumerate(zip(tables, checked.tolist(), legal_now)):
        if stated:
            table.policies.append(None if policies is None else policies[row])
        table.hand.act(to_engine(action_id, legal))


def _checked_id(position: int, seat: int, action_id: Any, mask: np.ndarray) -> int:
    """``action_id`` as an int when ``mask`` allows it, else :class:`AgentFailure` naming the seat and the legal ids."""
    try:
        index = int(action_id)
    except Exception as err:  # noqa: BLE001 - whatever the agent returned (inf, None, text) is its bug
        raise AgentFailure(position, "illegal", f"seat {seat}: {err}") from None
    if not (0 <= index < NUM_ACTIONS and mask[index]):
        legal = ", ".join(f"{i} ({ACTION_NAMES[i]})" for i in np.flatnonzero(mask).tolist())
        raise AgentFailure(position, "illegal",
                           f"seat {seat}: agent: action {index!r} is not legal now; legal ids: {legal}")
    return index


def _observer(agent: Agent, position: int, hand_config: HandConfig) -> Observer:
    """The agent's observer; an agent that asks for an unknown encoding or part is a broken agent."""
    try:
        return Observer(agent, hand_config)
    except ValueError as err:
        raise AgentFailure(position, "exception", str(err)) from None


def _deal_tables(hand_config: HandConfig, seats: int, deals: int, seed: str, duplicate: bool,
                 first_deal: int) -> list[tuple[int, list[int], tuple[int, ...]]]:
    """(deal, deck, lineup position per seat) for every table: each deal's deck once per seat permutation."""
    deck_rng = random.Random(seed)
    decks = [shuffled_deck(deck_rng, cards=hand_config.variant.deck) for _ in range(deals)]
    return [(deal, deck, rotation) for deal, deck in enumerate(decks)
            for rotation in seat_permutations(seats, duplicate, first_deal + deal)]


def _reset_players(players: Sequence[Agent], seatings: Sequence[tuple[int, ...]],
                   variant: str) -> list[tuple[int, ...]]:
    """Every agent's ``reset`` for every table it sits at, tables in order; :class:`AgentFailure` if one raises.

    Returns, per table and seat, the hand's number among its agent's resets (what ``hand_over`` is told)."""
    counts: dict[int, int] = {}
    numbers = []
    for positions in seatings:
        for seat, position in enumerate(positions):
            try:
                players[position].reset(seat, len(positions), variant)
            except (Exception, SystemExit) as err:  # noqa: BLE001 - any agent bug must be contained and reported
                raise failure_of(position, "reset: ", err) from None
        agents = [id(players[position]) for position in positions]
        numbers.append(tuple(counts.get(agent, 0) + agents[:seat].count(agent) for seat, agent in enumerate(agents)))
        for agent in agents:
            counts[agent] = counts.get(agent, 0) + 1
    return numbers


def _tell_hands_over(players: Sequence[Agent], ended: Sequence[tuple[HandState, tuple[int, ...], tuple[int, ...]]]
                     ) -> None:
    """Tell every agent with ``hand_over`` how each ``(hand, positions, numbers)`` ended for its seats, hands in
    order; :class:`AgentFailure` if one raises."""
    for hand, positions, numbers in ended:
        for seat, position in enumerate(positions):
            hook = hand_over_hook(players[position])
            if hook is not None:
                try:
                    hook(hand_outcome(hand, seat, numbers[seat]))
                except (Exception, SystemExit) as err:  # noqa: BLE001 - any agent bug must be contained
                    raise failure_of(position, "hand_over: ", err) from None


def play_deals(
    players: Sequence[Agent],
    hand_config: HandConfig,
    deals: int,
    seed: str,
    duplicate: bool = True,
    timeout: float | None = 2.0,
    first_deal: int = 0,
    stated: bool = False,
    fit: FitSums | None = None,
) -> list[_ScalarReplay]:
    """Play ``deals`` decks with ``players[i]`` at lineup position ``i``, all tables in lockstep.

    Returns the finished tables; raises :class:`AgentFailure` for a broken agent. With ``stated``, each table
    also keeps the stated policy of every decision (:func:`states_varying_policy`; asked before the agent acts)
    and its AIVAT payoffs; ``fit`` collects the stated policies and the ids taken
    (:mod:`razz_env.evaluate.policy_fit`).
    """
    seats = len(players)
    observers = [_observer(player, position, hand_config) for position, player in enumerate(players)]
    tables = [_ScalarReplay(deal, HandState(hand_config, deck=deck), rotation, [] if stated else None)
              for deal, deck, rotation in _deal_tables(hand_config, seats, deals, seed, duplicate, first_deal)]
    numbers = _reset_players(players, [t.positions for t in tables], hand_config.variant.name)
    active = list(range(len(tables)))
    told = any(hand_over_hook(player) is not None for player in players)
    while active:
        if told:
            _tell_hands_over(players, [(tables[i].hand, tables[i].positions, numbers[i]) for i in active
                                       if tables[i].hand.is_over])
        active = [i for i in active if not tables[i].hand.is_over]
        waiting: dict[int, list[_ScalarReplay]] = {}
        for table in (tables[i] for i in active):
            waiting.setdefault(table.positions[table.hand.actor], []).append(table)
        for position, group in waiting.items():
            _decide(players[position], position, group, observers[position], timeout, stated, fit)
    if stated:
        for table in tables:
            table.corrected = aivat(table.hand, table.policies).corrected.tolist()
    return tables


def batch_problem(players: Sequence[Agent], hand_config: HandConfig) -> str | None:
    """Why ``players`` cannot play ``hand_config`` on the batched engine, or None when they can.

    The batched engine (:mod:`razz_env.batch`, numba) gives each decision its mask, the seat views as arrays
    (:class:`~razz_env.engine.seat_views.SeatViews`) and one encoding's vectors, and needs two seats with more
    than the ante (else a hand ends before any decision).
    """
    from razz_env.encoding import BATCHED_ENCODERS, make_encoder

    encodings = set()
    for player in players:
        try:
            declared = declaration_of(player)
        except ValueError as err:
            return str(err)
        if declared.encoding is not None:
            encodings.add(declared.encoding)
    if len(encodings) > 1:
        return f"the agents read different encodings ({', '.join(sorted(encodings))}); the batched engine writes one"
    for encoding in encodings:
        try:
            encoder = make_encoder(encoding, hand_config)
        except ValueError as err:
            return str(err)
        if type(encoder) not in BATCHED_ENCODERS:
            known = ", ".join(cls.name for cls in BATCHED_ENCODERS)
            return f"encoding {encoding!r} is not one the batched engine writes ({known})"
    ante = hand_config.stakes.ante
    if sum(stack > ante for stack in hand_config.stacks) < 2:
        return (f"stacks {list(hand_config.stacks)} leave fewer than two seats with more than the ante ({ante}): "
                "hands end before any decision")
    try:
        import razz_env.batch  # noqa: F401 - only whether the extra is installed
    except ImportError:
        return "the batched engine needs numba: pip install 'razz-env[batch]'"
    return None


def one_at_a_time(players: Sequence[Agent]) -> list[str]:
    """The players that read the seat view one decision at a time (no ``act_batch``): ``engine: auto`` seats
    a lineup holding one on the scalar engine, whose views cost no more than one built from arrays."""
    return [player.name for player in players
            if "view" in (declared := declaration_of(player)).observes and not declared.acts_in_batch]


def play_deals_batched(
    players: Sequence[Agent],
    hand_config: HandConfig,
    deals: int,
    seed: str,
    duplicate: bool = True,
    timeout: float | None = 2.0,
    first_deal: int = 0,
    records: bool = False,
    stated: bool = False,
    fit: FitSums | None = None,
) -> list[_ScalarReplay] | list[_BatchReplay]:
    """:func:`play_deals` on the batched engine, for players with no :func:`batch_problem` (else ``ValueError``).

    The same decks and seatings, the same ``reset`` calls and, at every step, the same ``act_batch`` calls
    (same agents, same order, equal masks and vectors), so agents that decide alike (a seeded random agent
    draws the same numbers) give the same payoffs, and a broken agent the same :class:`AgentFailure`.
    Returns each table's payoffs; with ``records``, the scalar tables of :func:`play_deals` instead, each hand
    replayed on the scalar engine from its deck and the ids chosen. With ``stated``, each table's AIVAT payoffs
    too, scored while it plays (:class:`razz_env.batch.aivat.AivatScorer`: the scalar estimator's figures), and
    ``fit`` collects the same stated policies and ids as on the scalar engine.
    """
    problem = batch_problem(players, hand_config)
    if problem is not None:
        raise ValueError(f"play_deals_batched: {problem}")
    from razz_env.batch import BatchEngine

    seats = len(players)
    observers = [_observer(player, position, hand_config) for position, player in enumerate(players)]
    dealt = _deal_tables(hand_config, seats, deals, seed, duplicate, first_deal)
    numbers = _reset_players(players, [rotation for _, _, rotation in dealt], hand_config.variant.name)
    told = any(hand_over_hook(player) is not None for player in players)
    if not dealt:
        return []
    encoder = next((o.encoder for o in observers if o.encoder is not None), None)
    engine = BatchEngine(hand_config, len(dealt), seed=0, encoder=encoder, views=any(o.view for o in observers),
                         decks=np.array([deck for _, deck, _ in dealt], dtype=np.int64))
    positions = np.array([rotation for _, _, rotation in dealt], dtype=np.int64).reshape(len(dealt), seats)
    payoffs = np.zeros((len(dealt), seats), dtype=np.int64)
    corrected = np.zeros((len(dealt), seats))
    lengths = np.zeros(len(dealt), dtype=np.int64)
    taken: list[np.ndarray] = []
    scorer = None
    if stated:
        from razz_env.batch.aivat import AivatScorer

        scorer = AivatScorer(engine)
    vectors = None if encoder is None else np.empty((len(dealt), encoder.size), dtype=np.float32)
    rows = np.arange(len(dealt))
    if vectors is not None:
        engine.observe(vectors)  # then each step writes the next vectors in the same pass (step(out=...))
    while len(rows):
        masks, actor = engine.masks, engine.actor
        actions = masks.argmax(axis=1).astype(np.int64)  # tables whose deal is over play out a throwaway hand
        step_policies = np.full((len(dealt), NUM_ACTIONS), np.nan) if stated else None
        acting = positions[rows, actor[rows]]
        _, first = np.unique(acting, return_index=True)
        for position in acting[np.sort(first)].tolist():
            group = rows[acting == position]
            group_masks = masks[group]
            group_masks.flags.writeable = False
            observer = observers[position]
            group_seats = actor[group]
            observations = ObservationBatch(group_seats, group_masks,
                                            engine.seat_views(group) if observer.view else None,
                                            vectors[group] if observer.encoder is not None else None)
            asks = stated and states_varying_policy(players[position])
            group_policies = _stated(players[position], position, observations, timeout) if asks else None
            ids = _ask(players[position], position, observations, timeout)
            actions[group] = _checked_ids(position, group_seats.tolist(), ids, group_masks)
            if group_policies is not None:
                step_policies[group] = _checked_policies(position, group_seats.tolist(), group_policies,
                                                         group_masks, actions[group])
                if fit is not None:
                    fit.add(position, group_policies, actions[group])
        result = engine.step(actions, out=vectors) if scorer is None else scorer.step(actions, step_policies, rows,
                                                                                       out=vectors)
        if records or told:
            taken.append(actions.astype(np.int8))
        done = rows[result.finished[rows] == 1]
        if told:
            _tell_hands_over(players, [(_replayed(hand_config, dealt[t][1], [step[t] for step in taken]),
                                        dealt[t][2], numbers[t]) for t in done.tolist()])
        payoffs[done] = result.payoffs[done]
        if scorer is not None:
            corrected[done] = scorer.corrected[done]
        lengths[done] = len(taken)
        rows = rows[result.finished[rows] == 0]
    kept = corrected.tolist() if stated else [None] * len(dealt)
    if not records:
        return [_BatchReplay(deal, rotation, payoffs[t].tolist(), kept[t])
                for t, (deal, _, rotation) in enumerate(dealt)]
    steps = np.array(taken, dtype=np.int8).reshape(len(taken), len(dealt))
    return [_ScalarReplay(deal, _replayed(hand_config, deck, steps[:lengths[t], t].tolist()), rotation,
                          corrected=kept[t]) for t, (deal, deck, rotation) in enumerate(dealt)]


def _replayed(hand_config: HandConfig, deck: Sequence[int], ids: Sequence[int]) -> HandState:
    """The hand ``deck`` deals, played on the scalar engine by the action ids ``ids`` (a batched table's)."""
    hand = HandState(hand_config, deck=deck)
    for action_id in ids:
        hand.act(to_engine(int(action_id), hand.legal_actions()))
    return hand


def _checked_ids(position: int, seats: Sequence[int], ids: Sequence[Any], masks: np.ndarray) -> np.ndarray:
    """The agent's ids as integers when each is legal at its table (one mask row each), else the
    :class:`AgentFailure` of the first that is not, as :func:`play_deals` raises it."""
    try:
        array = np.asarray(ids)
    except Exception:  # noqa: BLE001 - whatever the agent returned, it is checked one by one below
        array = None
    if array is not None and array.dtype.kind in "iu" and array.shape == (len(masks),):
        inside = (array >= 0) & (array < NUM_ACTIONS)
        if inside.all() and masks[np.arange(len(masks)), array].all():
            return array
    return np.array([_checked_id(position, seat, action_id, mask)
                     for seat, action_id, mask in zip(seats, ids, masks)], dtype=np.int64)


def _play(players: Sequence[Agent], hand_config: HandConfig, config: TournamentConfig, task: Task,
          fit: FitSums | None = None) -> list[_ScalarReplay] | list[_BatchReplay]:
    """The task's tables: on the batched engine when ``config.engine`` allows it (``auto``: when no agent reads the
    seat view one decision at a time); with ``config.aivat`` each carries its AIVAT payoffs and ``fit`` collects
    the stated policies."""
    args = (players, hand_config, task.deals, task.seed, config.duplicate, config.decision_timeout,
            task.block * config.block_deals)
    if config.engine != "scalar":
        problem = batch_problem(players, hand_config)
        if problem is None and (config.engine == "batch" or not one_at_a_time(players)):
            return play_deals_batched(*args, records=config.records, stated=config.aivat, fit=fit)
        if config.engine == "batch":
            raise ConfigError(f"engine: batch: {problem}")
    return play_deals(*args, stated=config.aivat, fit=fit)


def run_task(config: TournamentConfig, task: Task) -> dict[str, Any]:
    """Play one task: sums per lineup position (or an ``error`` entry), tagged with the config and block.

    With ``config.records`` the result also carries ``records``: every hand's record, with the
    agents' display names as its ``players``; with ``config.aivat``, the AIVAT sums and the policy fit's
    (:data:`~razz_env.evaluate.policy_fit.FIT_FIELDS`).
    """
    seats = len(task.lineup)
    hand_config = config.hand_config()
    block = _block_fields(config, task)
    started = time.perf_counter()
    fit = FitSums(seats) if config.aivat else None
    try:
        with ProcessExitRefused():
            agents = make_agents(config.agents, task.lineup, task.seed, (config.output,))
            players = [agents[index] for index in task.lineup]
            tables = _play(players, hand_config, config, task, fit)
            counters = _counters(players)
    except AgentFailure as failure:
        return failed_block(config, task, failure)
    corrected = [[round(v, AIVAT_DIGITS) for v in t.corrected] for t in tables] if config.aivat else None
    result = {**block, **summarise_tables(tables, seats, task.deals, hand_config.big_bet, corrected),
              "seconds": round(time.perf_counter() - started, 3)}
    if fit is not None:
        result.update(fit.fields())
    if counters:
        result["counters"] = counters
    if config.records:
        labels = config.labels
        result["records"] = [to_record(t.hand, players=[labels[task.lineup[p]] for p in t.positions])
                             for t in tables]
    return result


def _block_fields(config: TournamentConfig, task: Task) -> dict[str, Any]:
    return {"task_id": task.task_id, "config": config.config_id, "lineup": list(task.lineup), "block": task.block,
            "deals": task.deals, "seed": task.seed}


def failed_block(config: TournamentConfig, task: Task, failure: AgentFailure) -> dict[str, Any]:
    """The result of ``task`` ended by ``failure``: the block's fields and an ``error`` naming the agent to blame."""
    position, message = _blamed(config, task, failure)
    return {**_block_fields(config, task), "error": {
        "agent": task.lineup[position], "kind": failure.kind, "message": message}}



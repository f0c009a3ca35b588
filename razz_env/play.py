"""``razz play``: a person plays stud games at the terminal against agents from the zoo.

The person sees exactly what a player in their seat would: their own down cards, every
up card, the pot and stacks (:func:`razz_env.engine.text.render_hand` with ``viewer=seat``),
the opponents' actions as they happen, and the showdown. Each decision prompts with the
legal actions by short key (``f`` fold, ``c`` check/call, ``b`` complete/bet/raise,
``i`` bring in, ``B`` big bet), by action id (0-4, as in :mod:`razz_env.encoding.actions`)
or by name; anything else re-prompts. End of input, Ctrl-C or ``q`` quits cleanly.
The hand loop runs directly on :class:`~razz_env.engine.state.HandState`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from razz_env.encoding.actions import ACTION_NAMES, ENGINE_TO_ID, to_engine
from razz_env.encoding.agent_specs import agent_spec_from_text
from razz_env.encoding.interface import Observer, hand_outcome, hand_over_hook, seating_problem
from razz_env.engine.actions import AGGRESSIVE, Action
from razz_env.engine.checks import limited
from razz_env.engine.config import STREET_NAMES, HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.presets import PRESETS
from razz_env.engine.state import HandState, HistoryEntry
from razz_env.engine.text import render_hand
from razz_env.engine.variants import VARIANTS

KEYS = {
    Action.FOLD: "f",
    Action.CHECK: "c",
    Action.CALL: "c",
    Action.BRING_IN: "i",
    Action.COMPLETE: "b",
    Action.BET: "b",
    Action.RAISE: "b",
    Action.BET_BIG: "B",
}
QUIT_WORDS = ("q", "quit", "exit")
DEFAULT_OPPONENTS = ("razz_heuristic", "minirazz_cfr", "calling_station")
"""Without ``opponents``: the first of these that is registered and plays the variant heads-up (the seven-card
games get razz_heuristic, MiniRazz the solved policy once it is in the zoo)."""


def default_opponent(variant: str) -> str:
    """The first of :data:`DEFAULT_OPPONENTS` registered and able to sit heads-up at ``variant``."""
    from razz_env.agents.registry import AgentSpecError, make_agent

    for name in DEFAULT_OPPONENTS:
        try:
            agent = make_agent(name, seed=0)
        except (AgentSpecError, OSError, ValueError):  # not in this install, or its files are missing
            continue
        if seating_problem(agent, variant, 2) is None:
            return name
    return DEFAULT_OPPONENTS[-1]


def action_label(hand: HandState, action: Action) -> str:
    """The action with the chips it puts in or raises to, e.g. ``"call 5"``, ``"raise to 20"``."""
    if action in AGGRESSIVE:
        return f"{action} to {hand.bets[hand.actor] + hand.chips_for(action)}"
    if action in (Action.CALL, Action.BRING_IN):
        return f"{'call' if action is Action.CALL else 'bring in'} {hand.chips_for(action)}"
    return str(action)


def parse_choice(text: str, legal: Sequence[Action]) -> Action | None:
    """The legal action ``text`` names (key, action id or name), else ``None``.

    >>> parse_choice(" C ", (Action.FOLD, Action.CALL)), parse_choice("2", (Action.CHECK, Action.BET))
    (<Action.CALL: 2>, <Action.BET: 5>)
    >>> parse_choice("raise", (Action.FOLD, Action.CALL)) is None, parse_choice("check_call", (Action.CHECK,))
    (True, <Action.CHECK: 1>)
    """
    text = text.strip()
    for action in legal:
        if text == KEYS[action]:
            return action
    lowered = text.lower().replace("-", "_").replace(" ", "_")
    for action in legal:
        if lowered == str(action) or (lowered == KEYS[action] and text != "B"):  # "B" only ever means bet_big
            return action
    if lowered.isdigit() or lowered in ACTION_NAMES:
        try:
            return to_engine(int(lowered) if lowered.isdigit() else ACTION_NAMES.index(lowered), legal)
        except ValueError:
            return None
    return None


def ask_action(hand: HandState, input_fn: Callable[[str], str], output_fn: Callable[[str], Any]) -> Action | None:
    """Prompt until the person names a legal action; ``None`` when they quit or input ends."""
    legal = hand.legal_actions()
    options = ", ".join(f"[{KEYS[a]}/{ENGINE_TO_ID[a]}] {action_label(hand, a)}" for a in legal)
    prompt = f"your move: {options} > "
    while True:
        try:
            text = input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            return None
        if text.strip().lower() in QUIT_WORDS:
            return None
        action = parse_choice(text, legal)
        if action is not None:
            return action
        keys = "/".join(KEYS[a] for a in legal)
        output_fn(f"{text.strip()!r} is not a legal move now: type {keys}, an action id, or q to quit")


def _announce(hand: HandState, entry: HistoryEntry, street: int, names: dict[int, str],
              output_fn: Callable[[str], Any]) -> int:
    """Print one action, then a header if it moved the hand to a new street; returns the street shown."""
    amount = f" {entry.amount}" if entry.amount else ""
    output_fn(f"  {names[entry.seat]} {entry.action}{amount}")
    if not hand.is_over and hand.street != street:
        output_fn(f"-- {STREET_NAMES[hand.street]} street --")
    return hand.street


PROJECT_STACK = 1000
"""Chips per seat when no opponent says otherwise: the table every shipped agent was trained and measured at."""


def _opponents_stack(opponents: Sequence[str | dict[str, Any]]) -> int | None:
    """The starting stack the shipped trained opponents were trained at (their manifest tables), else ``None``."""
    try:
        from razz_env.agents.sb3_zoo import manifest, zoo_table
    except ImportError:
        return None
    names = [spec if isinstance(spec, str) else spec.get("type") for spec in opponents]
    stacks = {zoo_table(name).stacks[0] for name in names if isinstance(name, str) and name in manifest()}
    if len(stacks) > 1:
        shown_stacks = ", ".join(map(str, sorted(stacks)))
        raise ConfigError(f"--stack: the opponents were trained at different stacks ({shown_stacks}); give the one "
                          f"to play")
    return stacks.pop() if stacks else None


def play_cli(
    variant: str = "razz",
    opponents: Sequence[str | dict[str, Any]] | None = None,
    seat: int = 0,
    hands: int = 1,
    seed: int | None = None,
    input_fn: Callable[[str], str] = input,
    output_fn: Callable[[str], Any] = print,
    stack: int | None = None,
    rules: str = "house",
) -> int:
    """Play ``hands`` hands of ``variant`` at the terminal against ``opponents`` (agent specs).

    The person sits at ``seat``; the opponents (default one, :func:`default_opponent`) fill the other
    seats in order. ``seed`` fixes the deals and the agents' own randomness. Every seat starts each hand with
    ``stack`` chips (default: the stack the shipped trained opponents were trained at, else
    :data:`PROJECT_STACK`) at the variant's stakes (1/2/5/10; MiniRazz 1/1/2/4); the chips won or lost are
    totalled across hands. ``rules``: the rule preset (``house``, ``wsop_2022``, ``wsop_2023``, ``wsop_2024``).
    Returns 0 (also after quitting early); bad arguments raise :class:`ConfigError`.
    """
    from razz_env.agents.registry import AgentSpecError, make_agent

    if opponents is None:
        opponents = [default_opponent(variant)]
    num_seats = len(opponents) + 1
    if not opponents:
        raise ConfigError("--opponents: name at least one opponent")
    if not 0 <= seat < num_seats:
        raise ConfigError(f"--seat: expected 0-{num_seats - 1} with {len(opponents)} opponent(s), got {seat}")
    if hands < 1:
        raise ConfigError(f"--hands: expected at least 1, got {hands}")
    if stack is None:
        stack = _opponents_stack(opponents) or PROJECT_STACK
    elif stack < 1:
        raise ConfigError(f"--stack: expected a positive number of chips, got {stack}")
    config = HandConfig.create(variant, num_seats=num_seats, stacks=stack, rules=rules)
    rng = random.Random(seed)
    others = [s for s in range(num_seats) if s != seat]
    try:
        agents = {s: make_agent(spec, seed=rng.randrange(2**31)) for s, spec in zip(others, opponents)}
    except (AgentSpecError, ValueError, TypeError) as err:
        raise ConfigError(str(err)) from None
    for agent in agents.values():
        problem = seating_problem(agent, variant, num_seats)
        if problem:
            raise ConfigError(problem)
    observers = {s: Observer(agent, config) for s, agent in agents.items()}
    names = {seat: "you"} | {s: f"seat {s} ({a.name})" for s, a in agents.items()}
    totals = [0] * num_seats
    played = 0
    output_fn(f"{config.variant.title}: you are seat {seat} of {num_seats}, {stack} chips each; keys f/c/b/i/B, "
              f"q quits")
    for number in range(1, hands + 1):
        hand = HandState(config, seed=rng.randrange(2**63))
        for s, agent in agents.items():
            agent.reset(s, num_seats, variant)
        output_fn(f"\n=== hand {number} of {hands} ===")
        street = hand.street
        output_fn(f"-- {STREET_NAMES[street]} street --")
        while not hand.is_over:
            actor = hand.actor
            if actor == seat:
                output_fn(render_hand(hand, viewer=seat))
                action = ask_action(hand, input_fn, output_fn)
                if action is None:
                    output_fn("quitting: the hand in progress is abandoned")
                    _totals(totals, played, names, output_fn)
                    return 0
            else:
                action = to_engine(agents[actor].act(observers[actor](hand, actor)), hand.legal_actions())
            street = _announce(hand, hand.act(action), street, names, output_fn)
        output_fn(render_hand(hand, viewer=seat))
        for s, agent in agents.items():
            hook = hand_over_hook(agent)
            if hook is not None:
                hook(hand_outcome(hand, s, number - 1))
        payoffs = hand.payoffs or [0] * num_seats
        totals = [t + p for t, p in zip(totals, payoffs)]
        played += 1
        mine = payoffs[seat]
        output_fn(f"you {'win' if mine > 0 else 'lose' if mine < 0 else 'break even'} {abs(mine)} this hand")
        _totals(totals, played, names, output_fn)
    return 0


def _totals(totals: list[int], played: int, names: dict[int, str], output_fn: Callable[[str], Any]) -> None:
    parts = ", ".join(f"{names[s]} {t:+d}" for s, t in enumerate(totals))
    output_fn(f"running totals after {played} hand{'s' if played != 1 else ''}: {parts}")


@dataclass(frozen=True)
class Args:
    """``razz play``'s settings (its flags; :func:`run`)."""

    variant: str = limited("razz", choices=tuple(VARIANTS))
    """the game"""
    opponents: tuple[str, ...] | None = None
    """one agent per other seat: a name (razz agents lists them), module:Class from your own code, or a mapping
    with options like '{"type": "mybots:MyBot", "aggression": 2}' (default: one razz_heuristic in the seven-card
    games, the solved minirazz_cfr in MiniRazz where it plays, else calling_station)"""
    seat: int = 0
    """your seat"""
    hands: int = 1
    """hands to play"""
    seed: int | None = None
    """seed of the deals and the agents' randomness (default: random)"""
    stack: int | None = None
    """every seat's chips at the start of each hand (default: the table the shipped trained opponents were trained
    at, 1000)"""
    rules: str = limited("house", choices=tuple(PRESETS))
    """the rule preset (docs/rules.md, Rule presets)"""


def run(args: Args) -> int:
    """``razz play``: the opponents' specs read, then :func:`play_cli`."""
    opponents = args.opponents and [agent_spec_from_text("--opponents", text) for text in args.opponents]
    return play_cli(args.variant, opponents, args.seat, args.hands, args.seed, stack=args.stack, rules=args.rules)

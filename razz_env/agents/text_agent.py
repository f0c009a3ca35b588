"""Any text-in, text-out callable (a language model's completion function) as an agent (``docs/llm.md``).

:class:`TextAgent` renders each decision as a prompt (:func:`razz_env.encoding.text.render`), calls the callable
and reads its reply (:func:`razz_env.encoding.text.read_reply`). A reply that names no legal action gets one retry,
the prompt with a correction line appended; a second failure falls back to checking when that is free, else
folding (the bring-in when it is the forced first decision). ``stats`` counts decisions, retries and fallbacks, so
a benchmark can report them. With ``memory``, the prompt begins with how the agent's last hands ended (told by the
harness's ``hand_over``: chips won or lost, and the cards shown at a showdown), so a model can read its opponents.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from razz_env.agents.base import BaseAgent, Declaration, Observation
from razz_env.encoding.interface import HandOutcome
from razz_env.encoding.text import correction, read_reply, render
from razz_env.engine.cards import cards_str
from razz_env.engine.checks import as_int


@dataclass
class TextStats:
    """What a :class:`TextAgent` has done: its ``decisions``, the ``retries`` among them (a first reply not read)
    and the ``fallbacks`` (a second one not read either)."""

    decisions: int = 0
    retries: int = 0
    fallbacks: int = 0


class TextAgent(BaseAgent):
    """A text-in, text-out callable as an agent: render, call, read; one retry, then check or fold.

    ``complete`` takes the prompt (a str) and returns the reply (a str); what it raises propagates, as the agent's
    failure. ``instruction``: end the prompt with the line asking for one word. ``memory``: begin it with how the
    last ``memory`` hands ended (:func:`outcome_line`; 0, the default, tells nothing). The agent draws nothing at
    random, so a deterministic callable makes a deterministic agent; it states no policy. It pickles (and so plays in a
    harness's worker processes) only if ``complete`` does; ``stats`` counts this instance's decisions, so a copy
    played in a worker process counts there, not here (``docs/llm.md``, where it plays).

    >>> from razz_env.engine.config import HandConfig
    >>> from razz_env.engine.state import HandState
    >>> from razz_env.encoding.interface import observe
    >>> agent = TextAgent(lambda prompt: "Complete.")
    >>> agent.act(observe(HandState(HandConfig.create("razz"), seed=1), 0)), agent.stats
    (2, TextStats(decisions=1, retries=0, fallbacks=0))
    """

    name = "text"
    declaration = Declaration(observes=("view",))

    def __init__(self, complete: Callable[[str], str], name: str | None = None, *, instruction: bool = True,
                 memory: int = 0) -> None:
        if not callable(complete):
            raise TypeError(f"TextAgent: complete must be a callable taking the prompt (str) and returning the reply "
                            f"(str), got {type(complete).__name__}")
        super().__init__(name)
        self.complete = complete
        self.instruction = instruction
        self.memory = as_int("TextAgent: memory", memory, minimum=0)
        self.recent: deque[str] = deque(maxlen=self.memory)
        self.stats = TextStats()
        if self.memory:  # only then is it told: a harness watches for hands ending only for agents with the hook
            self.hand_over = self._remember

    def _remember(self, outcome: HandOutcome) -> None:
        """Keep how the hand ended (the last ``memory`` hands are kept)."""
        self.recent.append(outcome_line(outcome))

    def act(self, observation: Observation) -> int:
        """The action the callable's reply names; after an unread reply one retry, then the fallback."""
        self.stats.decisions += 1
        prompt = render(observation, instruction=self.instruction)
        if self.recent:
            prompt = "How your last hands ended (the latest last):\n" + "\n".join(self.recent) + "\n\n" + prompt
        reply = self._ask(prompt)
        reading = read_reply(reply, observation)
        if reading.action is None:
            self.stats.retries += 1
            reading = read_reply(self._ask(f"{prompt}\n\n{correction(reply, reading.problem, observation)}"),
                                 observation)
        if reading.action is None:
            self.stats.fallbacks += 1
            return self.give_up(observation, observation.view.to_call)
        return reading.action

    def _ask(self, prompt: str) -> str:
        reply = self.complete(prompt)
        if not isinstance(reply, str):
            raise TypeError(f"agent {self.name!r}: its callable returned {type(reply).__name__}, not the reply text "
                            f"(str)")
        return reply


def outcome_line(outcome: HandOutcome) -> str:
    """One line of how a hand ended for the agent's seat.

    >>> outcome_line(HandOutcome(hand=2, seat=1, payoffs=(-9, 9), showdown=True, shown=((0, 4, 8), (1, 5, 13))))
    'Hand 3: you (seat 1) won 9 chips; showdown: seat 0 showed Ac 2c 3c, seat 1 showed Ad 2d 4d.'
    >>> outcome_line(HandOutcome(hand=0, seat=0, payoffs=(-1, 1), showdown=False, shown=(None, None)))
    'Hand 1: you (seat 0) lost 1 chip; no showdown.'
    """
    chips = outcome.payoffs[outcome.seat]
    amount = f"{abs(chips)} chip{'s' * (abs(chips) != 1)}"
    result = "broke even" if chips == 0 else f"{'won' if chips > 0 else 'lost'} {amount}"
    shown = ", ".join(f"seat {seat} showed {cards_str(cards)}" for seat, cards in enumerate(outcome.shown)
                      if cards is not None)
    ended = f"showdown: {shown}" if outcome.showdown else "no showdown"
    return f"Hand {outcome.hand + 1}: you (seat {outcome.seat}) {result}; {ended}."

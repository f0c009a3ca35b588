"""``razz_v0``: stud games (razz, action razz, stud, stud8, MiniRazz) as a PettingZoo AEC environment.

The versioned module, as PettingZoo names its games: ``from razz_env import razz_v0``, then
``razz_v0.env(**options)`` (wrapped, see "Wrappers") or ``razz_v0.raw_env(**options)``;
``razz_env.env()`` and ``razz_env.raw_env()`` are the same two. The name keeps ``_v0`` as long as
the same options, seed and actions give the same observations and rewards.

One episode is one hand of any variant of :data:`~razz_env.engine.variants.VARIANTS`: the four
seven-card games, and MiniRazz (``minirazz``, ``minirazz_tiny``, ``minirazz_small``,
``minirazz_large``: razz on a 12-, 6- or 8-card deck with two or three streets, small enough to
solve exactly). Agents are ``player_0`` .. ``player_{n-1}`` (``player_i``
sits in seat ``i``; seats are numbered clockwise). The rules engine
(:class:`razz_env.engine.state.HandState`) plays the game; the environment
(:mod:`razz_env.envs.aec`) only translates actions, observations and rewards.

Actions
-------
``Discrete(5)``; at any decision each id names at most one engine action:

===  ==============  ==============================================================
id   name            engine action
===  ==============  ==============================================================
0    ``fold``        fold (masked when there is nothing to call, unless ``allow_open_fold``)
1    ``check_call``  check, or call (an all-in call for less when short)
2    ``bet_raise``   complete (first street), bet or raise: always the fixed-limit size
3    ``bring_in``    post the bring-in (first street, the forced seat only)
4    ``bet_big``     stud/stud8 with an open pair on 4th street: open for the big bet
===  ==============  ==============================================================

Observations
------------
``observe(agent)`` returns ``{"observation": float32 vector, "action_mask": int8 (5,)}``.
The mask is exact: it is 1 exactly for the ids legal now for that agent, all zero
for an agent that is not to act and for every agent once the hand is over.
``observation_space(agent)`` and ``action_space(agent)`` return the same cached
objects on every call. The vector holds only what the agent may see (its own down
cards, every up card, dead cards, chips and the public betting), never another
seat's down cards, not even after showdown. Seats are relative to the observer:
position 0 is the agent itself, then clockwise. ``N`` = ``max_players`` (default
``num_seats``; extra positions stay zero, so one network can serve several
table sizes); ``S`` = ``history_slots`` (default ``N + cap * (N - 1)``, at most
16; a longer betting round keeps its last ``S`` decisions and sets
``history_overflow``). Chips are divided by the big bet (``config.big_bet``, the bet of the
first big-bet street: 5th street in seven-card stud, 3rd street in MiniRazz).
``env.unwrapped.describe_observation()`` returns every slice by name. The default
``encoding="flat"`` for the default 2-player table (N = 2, S = 6):

====================  =============  =======  ======================================================================
piece                 shape          slice    description
====================  =============  =======  ======================================================================
``own_down``          52             0:52     own down cards, one-hot by card id (rank * 4 + suit)
``own_up``            52             52:104   own up cards, one-hot by card id (rank * 4 + suit)
``up_cards``          (N, 52)        104:208  every seat's up cards by relative seat (0 = observer, then clockwise;
                                              positions beyond the table are zero), one-hot by card id (rank * 4 +
                                              suit)
``dead_cards``        52             208:260  up cards of folded seats, one-hot by card id (rank * 4 + suit)
``community``         52             260:312  the community 7th-street card once dealt, one-hot by card id (rank * 4
                                              + suit)
``stacks``            N              312:314  chips behind per relative seat / big bet
``round_bets``        N              314:316  chips put in this betting round per relative seat / big bet
``contributed``       N              316:318  chips put in this hand (antes included) per relative seat / big bet
``pot``               1              318:319  all chips put in so far / big bet
``to_call``           1              319:320  chips the observer must add to call (at most its stack; 0 once over) /
                                              big bet
``bet_size``          1              320:321  this street's fixed bet and raise size / big bet
``street``            5              321:326  street one-hot, 3rd to 7th
``bet_count``         6              326:332  bets and raises this round, one-hot 0-4; the last bin is 5+
``live``              N              332:334  seat has not folded, by relative seat
``all_in``            N              334:336  seat is live with no chips behind, by relative seat
``bring_in``          N              336:338  the seat that was forced to bring in, relative one-hot
``to_act``            N              338:340  the seat to act, relative one-hot (all zero once the hand is over)
``big_bet_open``      1              340:341  stud open pair on 4th street: the first bet may be the big bet
``history``           (5, S, N + 9)  341:671  every decision by street (3rd-7th) and order: relative seat one-hot
                                              (N), action one-hot (fold, check, call, bring_in, complete, bet,
                                              bet_big, raise), chips put in / big bet; a street longer than S keeps
                                              its last S
``history_overflow``  5              671:676  street had more than S decisions (oldest not shown)
====================  =============  =======  ======================================================================

``encoding="ranks"`` (razz, action razz and MiniRazz) has the same pieces with rank
counts (13, A to K, 0-4; MiniRazz 6, A to 6, 0-2) in place of each card one-hot: suits
never matter at a lowball showdown.

``encoding="flat8"`` and ``"ranks8"`` (padded) have one layout for every table size of
a variant, so one network plays 2 to 8 handed: N = 8 and S = 16 whatever the table,
a ``seated`` piece (N, just before ``live``) that is 1 for the positions holding a seat
at this table (a folded seat stays seated; positions beyond the table are 0), and chip
bounds of eight times the largest stack; ``max_players`` and ``history_slots`` are fixed.
Razz "flat8" is 2,068 floats at every seat count (heads-up "flat": 676). A model trained on one
declares every seat count of its variant (``razz_env.agents.sb3_agent.trained_seat_counts``).

In MiniRazz the card pieces are one-hots over its 12 cards (the deck in card-id order) and
``street``, ``history`` and ``history_overflow`` have one entry per street (2), so the default
heads-up table (cap 2, S = 4) has a 188-float vector; ``describe_observation()`` gives its slices.

Rewards
-------
0 until the hand ends; then each agent's net chips (won minus put in) divided by
the big bet, summing to zero. ``last()`` returns the reward accumulated since the
agent last acted (PettingZoo's ``_cumulative_rewards``); after the hand every
agent is terminated and is stepped once with ``None``, in seat order, and its
``last()`` observation shows the final table (stacks after the pots are paid).
The reward reaches every agent whoever's action ended the hand.

Illegal actions
---------------
``step`` with an id that is not legal (masked) raises ``ValueError`` naming the
agent, the action and the legal ids, and changes nothing. To end the hand with a
penalty instead, as PettingZoo's board games do, wrap the raw environment::

    from pettingzoo.utils.wrappers import TerminateIllegalWrapper
    env = TerminateIllegalWrapper(raw_env(), illegal_reward=-1)

``action_space(agent).sample()`` draws a legal id when ``agent`` is to act (random
checkers, RLlib's among them, sample it and step), any id otherwise;
``sample(mask=observation["action_mask"])`` works as usual
(:class:`razz_env.envs.spaces.LegalDiscrete`).

Wrappers
--------
``env()`` wraps ``raw_env()`` in PettingZoo's ``OrderEnforcingWrapper`` (a subclass,
:class:`~razz_env.envs.aec.LeanOrderEnforcingWrapper`, whose ``last()`` asks the raw environment in one
call instead of five trips through the wrapper's ``__getattr__``; same checks, same
results): it refuses ``step``/``observe``/``last`` before ``reset``. PettingZoo's
classic games also add ``AssertOutOfBoundsWrapper``; it is left out because
``raw_env`` already refuses every id outside the mask with a ``ValueError``, and
each wrapper layer taxes every attribute access (``benchmarks/bench_env.py``
measures both). Use ``raw_env()`` for the fastest loop.

Options (keyword arguments, kept across ``reset``)
--------------------------------------------------
The table, as the keywords of :class:`razz_env.Table` (or ``table``, a ``Table``, instead of them):
``variant`` (``"razz"``, ``"action_razz"``, ``"stud"``, ``"stud8"``, ``"minirazz"``,
``"minirazz_tiny"``, ``"minirazz_small"``, ``"minirazz_large"``), ``num_seats``
(2-8, as many as the deck can deal to; default the length of a ``stacks`` list or 2),
``stacks`` (200, or one per seat; every hand starts from them),
``ante``, ``bring_in``, ``small_bet``, ``big_bet`` (default the variant's: 1, 2, 5, 10 in
the seven-card games, 1, 1, 2, 4 in MiniRazz), ``street_bets`` (one size per street, e.g.
five for 3rd to 7th street, replacing small/big), ``raise_cap`` (bets and raises a round, default the
variant's: 4, MiniRazz 2; ``0`` for no cap), ``heads_up_uncapped`` (False),
``open_pair_big_bet`` (stud and stud8, default on), ``bring_in_tie_break`` and ``later_street_tie_break``
(``"suit"`` or ``"position"``: equal door cards, equal later boards), ``heads_up_tournament_uncapped`` (False),
``chip`` (the smallest chip, 1), ``rules`` (the preset: ``"house"``, ``"wsop_2022"``, ``"wsop_2023"`` or
``"wsop_2024"``, whose values the rule options left out take). The environment's own:
``allow_open_fold`` (False),
``encoding`` (``"flat"``, ``"ranks"``, or the padded ``"flat8"``, ``"ranks8"``),
``max_players``, ``history_slots``, ``render_mode`` (``"human"`` prints,
``"ansi"`` returns the table as text, ``"rgb_array"`` as an (H, W, 3) uint8 picture)
and ``viewer`` (agent name or seat whose down cards the render shows; default the
agent to act).

``reset(seed=...)`` deals a new hand; the same seed deals the same cards, and
later unseeded resets continue that sequence (numpy integer seeds are accepted).
``reset(options=...)`` may give ``{"deck": [card ints]}`` (every card of the variant's deck, 52
or MiniRazz's 12) or ``{"cards": [[card ints] per seat]}`` to deal a chosen hand (cards from
:func:`razz_env.engine.cards.parse_cards`). Because the agents may play any line, explicit cards
must list all the cards of every seat (seven, MiniRazz three), in dealing order; where the deck
cannot give every seat its last card (stud at 8 seats), who gets one depends on who folds: give a
deck. A short or long card list, a card outside the deck, a repeated card or a bad seed raise
``ConfigError`` naming the problem, and the environment is left as it was; other keys are ignored
with a warning (PettingZoo's API test passes one).

Pickling
--------
Everything pickles (``pickle`` and ``cloudpickle``): the factories (``env``, ``raw_env``,
``razz_env.env``, a ``functools.partial`` or a lambda of them, as RLlib's ``register_env``
needs) and the environments themselves, fresh, reset or mid-hand: an unpickled copy
continues the hand exactly as the original would (the deck order and the seeded
generator travel with it).

Example
-------
>>> import random
>>> from razz_env import razz_v0
>>> env = razz_v0.env(variant="razz", num_seats=3)
>>> env.reset(seed=42)
>>> chooser = random.Random(0)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = chooser.choice(observation["action_mask"].nonzero()[0].tolist())
...     env.step(action)
>>> env.agents
[]
"""

from __future__ import annotations

from razz_env.envs.aec import env, raw_env
from razz_env.envs.registration import register_envs

__all__ = ["env", "raw_env"]

register_envs()  # the Gymnasium ids, in whatever order gymnasium and razz_env were imported

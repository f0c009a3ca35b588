"""A heads-up razz-family game as a flattened public tree, with private cards as a vector.

In stud every private fact is a seat's down cards; everything else (up cards, the
tie-break coins of :mod:`razz_env.solve.cards`, the betting) is public. :func:`build_game`
lays the *public* tree out breadth first as numpy arrays -- ``parent``, ``kind``
(chance/decision/terminal), ``player``, ``action`` (the id of the edge from the parent,
:mod:`razz_env.encoding.actions`), ``street``, ``chance_prob`` (of a public deal), level
offsets -- and keeps each seat's possible down cards (``model.private``, ``P`` of them) as
the last axis of every per-node quantity. A history of the full game is a public node plus
one holding per seat; an information set is a decision node plus the actor's holding
(``infoset[d, x]``). At terminal ``t`` (``terminal_nodes[t]``) seat 0 wins ``terminal_stake[t]``
chips after a fold (negative when it folded), or that many times +1/0/-1 at a showdown
(``terminal_showdown[t]``). Chance weights live at the leaves: ``terminal_matrix[t, x, y]`` is
seat 0's payoff at terminal ``t`` times the probability of dealing its public cards with
holdings ``x`` and ``y``, so a vectorised sweep (:mod:`razz_env.solve.sweep`) needs no
per-history loop.

>>> game = build_game("minirazz_tiny")
>>> game.counts()["information_sets"], game.keys()[0]
(6108, 's1 [2]A vs A low A:s0 : ')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

import numpy as np

from razz_env.encoding.actions import FOLD, NUM_ACTIONS
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.hand_value import evaluator
from razz_env.engine.order import bring_in_seat, strongest_seat, weakest_seat
from razz_env.engine.presets import SUIT, TIE_BREAK_OPTIONS
from razz_env.engine.variants import Variant, get_variant
from razz_env.solve.betting import Betting, Stakes, Turn
from razz_env.solve.cards import CardModel, DealWeights, card_model, coin_ranks, concrete_boards
from razz_env.solve.keys import key_head, key_tail

CHANCE, DECISION, TERMINAL = 0, 1, 2
DEFAULT_MAX_NODES = 4_000_000
"""Public nodes :func:`build_game` builds before refusing (about 1 GB of arrays at six holdings)."""
ESTIMATED_PUBLIC_NODES = {"minirazz_large": 33_000_000}
"""Public nodes of a preset's rank game at its default table, where known only by sampling (docs/solving.md):
checked against ``max_nodes`` before building, so a tree too large is refused at once rather than minutes in."""
NODE_BYTES = 250


def solver_stakes(config: HandConfig) -> Stakes:
    """The table's stakes as the tree reads them, or ``ConfigError`` saying why the solver cannot play it."""
    variant = config.variant
    name = variant.name
    if not variant.low_board or tuple(variant.showdown) != ("razz",):
        raise ConfigError(f"solve: {name} is not a razz-family game (lowball boards, one ace-to-five low pot); "
                          "the solver plays minirazz, minirazz_tiny, minirazz_small and minirazz_large")
    if config.num_seats != 2:
        raise ConfigError(f"solve: the solver plays heads-up (2 seats), got {config.num_seats}")
    late_downs = [number for number, street in zip(variant.street_numbers[1:], variant.streets[1:]) if street.down]
    if late_downs:
        raise ConfigError(f"solve: {name} deals down cards after the first street (street {late_downs[0]}); the "
                          "solver needs every down card dealt on the first street")
    if 2 * variant.cards_per_seat > len(variant.deck):
        raise ConfigError(f"solve: the {name} deck ({len(variant.deck)} cards) cannot deal both seats "
                          f"{variant.cards_per_seat} cards each")
    cap = config.raise_cap_for(2)
    if cap is None:
        raise ConfigError("solve: the solver needs a raise cap (rules.raise_cap, and heads_up_uncapped and "
                          "heads_up_tournament_uncapped off)")
    for name in TIE_BREAK_OPTIONS:
        if getattr(config.rules, name) != SUIT:
            raise ConfigError(f"solve: the solver breaks equal door cards and boards by suit; got {name}='position'")
    if config.stakes.chip != 1:
        raise ConfigError(f"solve: the solver splits pots to the single chip; got chip={config.stakes.chip}")
    stakes = Stakes(config.stakes.ante, config.stakes.bring_in,
                    tuple(config.bet_size(n) for n in variant.street_numbers), cap)
    need = stakes.most_put_in()
    if min(config.stacks) < need:
        raise ConfigError(f"solve: stacks must hold at least {need} chips (the ante and every street capped), so "
                          f"nobody can be all in; got {list(config.stacks)}")
    return stakes


def as_config(game: str | Variant | HandConfig) -> HandConfig:
    """A :class:`HandConfig` from a variant name, a variant or a config (default stakes and stacks)."""
    if isinstance(game, HandConfig):
        return game
    if isinstance(game, str):
        game = get_variant(game)
    if not isinstance(game, Variant):
        raise ConfigError(f"solve: expected a variant name, a Variant or a HandConfig, got {type(game).__name__}")
    return HandConfig.create(game)


class Public(NamedTuple):
    """What everyone sees at a decision: each seat's up tokens (dealing order), the coins, the betting (key letters)."""

    boards: tuple[tuple[int, ...], tuple[int, ...]]
    coins: dict[int, int]
    actions: str


@dataclass(slots=True)
class _Pending:
    """A node being built: its public state."""

    kind: int
    parent: int
    action: int
    prob: float
    street: int
    boards: tuple[tuple[int, ...], tuple[int, ...]]
    public: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    coins: tuple[tuple[int, int], ...]
    deal: int
    put: int
    actions: tuple[str, ...]
    round: Turn | None = None
    payoff: float = 0.0


class Game:
    """The flattened public tree of one table (see the module docstring); build it with :func:`build_game`."""

    def __init__(self, config: HandConfig, model: CardModel, stakes: Stakes, nodes: list[_Pending],
                 levels: list[int], deal_weights: np.ndarray, showdown: dict[int, np.ndarray],
                 tails: list[str], public: list[Public]) -> None:
        self.config = config
        self.variant = config.variant
        self.model = model
        self.suited = model.suited
        self.stakes = stakes
        self.big_bet = config.big_bet
        self.num_private = len(model.private)
        n = len(nodes)
        self.num_nodes = n
        self.parent = np.fromiter((p.parent for p in nodes), np.int64, n)
        self.kind = np.fromiter((p.kind for p in nodes), np.int8, n)
        self.action = np.fromiter((p.action for p in nodes), np.int8, n)
        self.street = np.fromiter((self.variant.street_numbers[p.street] for p in nodes), np.int8, n)
        self.chance_prob = np.fromiter((p.prob for p in nodes), np.float64, n)
        self.deal = np.fromiter((p.deal for p in nodes), np.int32, n)
        self.player = np.fromiter((p.round.actor if p.kind == DECISION else -1 for p in nodes), np.int8, n)
        self.level_starts = np.array(levels, dtype=np.int64)
        self.deal_weights = deal_weights
        self.decision_nodes = np.flatnonzero(self.kind == DECISION)
        self.dindex = np.full(n, -1, dtype=np.int64)
        self.dindex[self.decision_nodes] = np.arange(len(self.decision_nodes))
        self.decision_player = self.player[self.decision_nodes].astype(np.int64)
        self.legal = np.zeros((len(self.decision_nodes), NUM_ACTIONS), dtype=bool)
        below = self.parent >= 0
        kids = np.flatnonzero(below & (self.kind[np.maximum(self.parent, 0)] == DECISION))
        self.legal[self.dindex[self.parent[kids]], self.action[kids]] = True
        self.decision_pot = np.fromiter((2 * p.put + sum(p.round.bets) for p in nodes if p.kind == DECISION),
                                        np.int64, len(self.decision_nodes))
        self.terminal_nodes = np.flatnonzero(self.kind == TERMINAL)
        self.terminal_stake = np.fromiter((nodes[t].payoff for t in self.terminal_nodes.tolist()), np.float64,
                                          len(self.terminal_nodes))
        self.terminal_showdown = self.action[self.terminal_nodes] != FOLD
        matrices = np.empty((len(self.terminal_nodes), self.num_private, self.num_private))
        for t, node in enumerate(self.terminal_nodes.tolist()):
            p = nodes[node]
            weights = deal_weights[p.deal]
            matrices[t] = p.payoff * (showdown[p.deal] * weights if p.action != FOLD else weights)
        self.terminal_matrix = matrices
        deals = deal_weights[self.deal[self.decision_nodes]]
        self.possible = np.where(self.decision_player[:, None] == 0, deals.sum(axis=2) > 0, deals.sum(axis=1) > 0)
        self.infoset = np.full(self.possible.shape, -1, dtype=np.int64)
        self.infoset[self.possible] = np.arange(int(self.possible.sum()))
        self.num_infosets = int(self.possible.sum())
        self.infoset_decision, self.infoset_private = np.nonzero(self.possible)
        self._tails = tails
        self.public = public
        self._index: dict[str, int] | None = None

    # ------------------------------------------------------------------ sizes and keys

    def counts(self) -> dict[str, int]:
        """Sizes: public nodes, histories of the full game (public node x holdings with a chance), infosets."""
        nonzero = (self.deal_weights > 0).sum(axis=(1, 2))
        per_node = np.where(self.deal > 0, nonzero[self.deal], 1)
        decisions = int(per_node[self.decision_nodes].sum())
        terminals = int(per_node[self.terminal_nodes].sum())
        return {
            "public_nodes": self.num_nodes,
            "public_decision_nodes": len(self.decision_nodes),
            "histories": int(per_node.sum()),
            "decision_histories": decisions,
            "terminal_histories": terminals,
            "chance_histories": int(per_node.sum()) - decisions - terminals,
            "information_sets": self.num_infosets,
        }

    def infoset_key(self, decision: int, private: int) -> str:
        """The readable key of information set (decision node index ``decision``, actor holding ``private``)."""
        seat = int(self.decision_player[decision])
        return key_head(self.model, seat, self.model.private[private]) + self._tails[decision]

    def keys(self) -> list[str]:
        """Every information set's key, in information-set id order."""
        return [self.infoset_key(d, x) for d, x in zip(self.infoset_decision.tolist(), self.infoset_private.tolist())]

    def infoset_index(self, key: str) -> int:
        """The information-set id of ``key``; ``KeyError`` naming the game when it has none."""
        if self._index is None:
            self._index = {k: i for i, k in enumerate(self.keys())}
        try:
            return self._index[key]
        except KeyError:
            raise KeyError(f"{self.describe()} has no information set {key!r}") from None

    def hand_cards(self, decision: int, private: int) -> list[list[int]]:
        """Cards (ids, each seat's in dealing order) of a hand at information set (``decision``, ``private``).

        The actor holds ``private``, the boards show the node's up cards with suits that agree with
        its coins, and the opponent holds the first holding the deal allows beside it.
        """
        boards = self.board_cards(decision)
        downs = self.down_cards(decision, private, boards)
        hands = []
        for who in (0, 1):
            held, board = list(downs[who]), boards[who]
            start = 0
            for street in self.variant.streets:
                if start >= len(board):
                    break
                held.extend(board[start:start + street.up])
                start += street.up
            hands.append(held)
        return hands

    def board_cards(self, decision: int) -> list[list[int]]:
        """Each seat's up cards at ``decision`` (ids, dealing order), suited to agree with its coins."""
        public = self.public[decision]
        return concrete_boards(self.model, public.boards, public.coins)

    def down_cards(self, decision: int, private: int, boards: list[list[int]]) -> list[list[int]]:
        """Each seat's down cards (ids) when the actor of ``decision`` holds ``private`` beside ``boards``:
        the lowest free suits, the opponent holding the first holding the deal allows."""
        seat = int(self.decision_player[decision])
        weights = self.deal_weights[self.deal[self.decision_nodes[decision]]]
        row = weights[private] if seat == 0 else weights[:, private]
        partners = np.flatnonzero(row > 0)
        if not partners.size:
            raise ValueError(f"{self.describe()}: no deal gives the actor of decision {decision} holding {private}")
        used = {card for board in boards for card in board}
        holdings = {seat: self.model.private[private], 1 - seat: self.model.private[int(partners[0])]}
        downs: list[list[int]] = [[], []]
        for who in (seat, 1 - seat):
            for token in holdings[who]:
                card = next(c for c in self.token_cards(token) if c not in used)
                used.add(card)
                downs[who].append(card)
        return downs

    def token_cards(self, token: int) -> list[int]:
        """The card ids a token stands for (one card in the suited game, a rank's suits in the rank game)."""
        model = self.model
        if model.suited:
            return [model.cards[token]]
        return [model.cards[token] - model.low_suit + suit for suit in model.suits]

    def describe(self) -> str:
        """One line naming the game: variant, rank or suited, stakes."""
        s = self.stakes
        bets = "/".join(str(b) for b in s.bets)
        return (f"{self.variant.name} ({'suited' if self.suited else 'rank'} game, ante {s.ante}, bring-in "
                f"{s.bring_in}, bets {bets}, cap {s.cap})")

    def identity(self) -> dict[str, Any]:
        """What fixes the tree: variant, mode, stakes and sizes (saved with a policy, compared on load)."""
        s = self.stakes
        return {"variant": self.variant.name, "suited": self.suited, "ante": s.ante, "bring_in": s.bring_in,
                "bets": list(s.bets), "raise_cap": s.cap, "information_sets": self.num_infosets,
                "public_nodes": self.num_nodes}

    def to_mbb(self, chips: float) -> float:
        """Chips per hand as milli-big-bets per hand (thousandths of the table's big bet)."""
        return 1000.0 * chips / self.big_bet


def build_game(game: str | Variant | HandConfig = "minirazz", *, suited: bool = False,
               max_nodes: int = DEFAULT_MAX_NODES) -> Game:
    """The public tree of a heads-up razz-family table: a variant name (default stakes, 200-chip stacks) or a config.

    ``suited=False`` (default) deals ranks with removal weights and tie-break coins (exact, see
    :mod:`razz_env.solve.cards`); ``suited=True`` deals every card (only small decks are feasible).
    ``ConfigError`` for a table the solver cannot play or a tree over ``max_nodes`` public nodes.
    """
    config = as_config(game)
    stakes = solver_stakes(config)
    estimate = ESTIMATED_PUBLIC_NODES.get(game) if isinstance(game, str) else None
    if estimate is not None and estimate > max_nodes:
        raise ConfigError(f"solve: the {game} tree has about {estimate / 1e6:.0f} million public nodes (estimated, "
                          f"docs/solving.md), about {estimate * NODE_BYTES / 1e9:.0f} GB of arrays: beyond max_nodes "
                          f"{max_nodes:,}, so it is not built; solve minirazz, minirazz_small or minirazz_tiny")
    model = card_model(config.variant, suited)
    return _Builder(config, model, stakes, max_nodes).build()


class _Builder:
    """Breadth-first construction of a :class:`Game`."""

    def __init__(self, config: HandConfig, model: CardModel, stakes: Stakes, max_nodes: int) -> None:
        self.config, self.model, self.stakes, self.max_nodes = config, model, stakes, max_nodes
        self.betting = Betting(config)
        variant = config.variant
        self.streets = variant.streets
        self.value = evaluator("razz", variant.hand_size)
        self.chance = DealWeights(model)
        self.weights: list[np.ndarray] = [np.ones((len(model.private),) * 2)]
        self.deal_ids: dict[tuple, int] = {}
        self.showdown: dict[int, np.ndarray] = {}
        ups = [street.up for street in self.streets]
        self.more_up = [any(ups[k + 1:]) for k in range(len(ups))]

    def build(self) -> Game:
        root = _Pending(CHANCE, -1, -1, 1.0, 0, ((), ()), (), (), 0, self.stakes.ante, ())
        nodes, levels = [root], [0]
        level = [0]
        while level:
            levels.append(len(nodes))
            following = []
            for index in level:
                for child in self.expand(nodes[index], index):
                    following.append(len(nodes))
                    nodes.append(child)
                    if len(nodes) > self.max_nodes:
                        raise ConfigError(
                            f"solve: the {self.config.variant.name} tree ({'suited' if self.model.suited else 'rank'} "
                            f"game) has more than {self.max_nodes:,} public nodes; pass a larger max_nodes to build "
                            f"it (memory grows about {NODE_BYTES} bytes a node per holding)")
            level = following
        public = [Public(node.boards, dict(node.coins), "/".join(node.actions)) for node in nodes
                  if node.kind == DECISION]
        tails = [key_tail(self.model, p.boards[node.round.actor], p.boards[1 - node.round.actor], p.coins, p.actions)
                 for p, node in zip(public, (node for node in nodes if node.kind == DECISION))]
        return Game(self.config, self.model, self.stakes, nodes, levels, np.stack(self.weights), self.showdown,
                    tails, public)

    def expand(self, node: _Pending, index: int) -> list[_Pending]:
        if node.kind == CHANCE:
            return self.deal(node, index)
        if node.kind == DECISION:
            return self.bet(node, index)
        return []

    def deal(self, node: _Pending, index: int) -> list[_Pending]:
        """The public outcomes of dealing street ``node.street``: up cards, then any tie-break coin."""
        model, k = self.model, node.street
        up = self.streets[k].up
        options = list(combinations_with_replacement(range(len(model.cards)), up))
        shown = [0] * len(model.cards)
        for board in node.boards:
            for t in board:
                shown[t] += 1
        parent_total = float(self.weights[node.deal].sum()) if node.deal else 1.0
        children = []
        for new0 in options:
            for new1 in options:
                counts = list(shown)
                for t in new0 + new1:
                    counts[t] += 1
                if any(c > model.copies[t] for t, c in enumerate(counts)):
                    continue
                flips = coin_ranks(model, node.boards, (new0, new1), self.more_up[k])
                for outcome in ((0,), (1,)) if flips else ((),):
                    coins = node.coins + tuple(zip(flips, outcome))
                    public = node.public + ((new0, new1),)
                    deal = self.deal_id(public, len(coins))
                    total = float(self.weights[deal].sum())
                    if total == 0.0:
                        continue
                    boards = (node.boards[0] + new0, node.boards[1] + new1)
                    first = self.opener(k, boards, new0, new1, dict(coins))
                    children.append(_Pending(DECISION, index, -1, total / parent_total, k, boards, public, coins,
                                             deal, node.put, node.actions + ("",), self.betting.open(k, first)))
        return children

    def deal_id(self, public: tuple, coins: int) -> int:
        key = (public, coins)
        found = self.deal_ids.get(key)
        if found is None:
            found = self.deal_ids[key] = len(self.weights)
            self.weights.append(self.chance.matrix([group for street in public for group in street], coins))
        return found

    def opener(self, k: int, boards: Sequence[Sequence[int]], new0: Sequence[int], new1: Sequence[int],
               coins: dict[int, int]) -> int:
        """Who acts first on street ``k``: the engine's bring-in or best-board rule on suited cards."""
        cards = concrete_boards(self.model, boards, coins)
        if k == 0:
            if len(new0) == 1:
                return bring_in_seat([cards[0][0], cards[1][0]], True)
            return weakest_seat(cards, True)
        return strongest_seat(cards, True)

    def bet(self, node: _Pending, index: int) -> list[_Pending]:
        state = node.round
        children = []
        last = node.street == len(self.streets) - 1
        for action in state.legal:
            actions = node.actions[:-1] + (node.actions[-1] + state.letter(action),)
            after = state.act(action)
            common = dict(parent=index, action=action, prob=1.0, street=node.street, boards=node.boards,
                          public=node.public, coins=node.coins, deal=node.deal, actions=actions)
            if after is not None:
                children.append(_Pending(DECISION, put=node.put, round=after, **common))
                continue
            bets = state.put_in(action)
            if action == FOLD:
                folder = state.actor
                lost = node.put + bets[folder]
                children.append(_Pending(TERMINAL, put=node.put, payoff=-lost if folder == 0 else lost, **common))
                continue
            if bets[0] != bets[1]:
                raise RuntimeError(f"solve: a round closed with unequal bets {bets} (no all-in can happen)")
            put = node.put + bets[0]
            if last:
                self.showdown_signs(node.deal, node.boards)
                children.append(_Pending(TERMINAL, put=put, payoff=float(put), **common))
            else:
                common["street"] = node.street + 1
                children.append(_Pending(CHANCE, put=put, **common))
        return children

    def showdown_signs(self, deal: int, boards: Sequence[Sequence[int]]) -> None:
        """Seat 0's result (+1 win, 0 split, -1 loss) for each pair of holdings, once per final deal."""
        if deal in self.showdown:
            return
        model, value = self.model, self.value
        private = model.private
        cards = [[model.cards[t] for t in board] for board in boards]
        values0 = [value([model.cards[t] for t in held] + cards[0]) for held in private]
        values1 = [value([model.cards[t] for t in held] + cards[1]) for held in private]
        self.showdown[deal] = np.sign(np.subtract.outer(values0, values1)).astype(np.float64)

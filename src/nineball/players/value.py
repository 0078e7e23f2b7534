"""The learned win probability: a shipped model of P(the player to act wins the game).

The model is a forest of gradient-boosted regression trees on the features of
:mod:`nineball.players.features`, trained by ``nineball train-value`` (LightGBM,
:mod:`nineball.dataset.value`) and shipped as ``value.json`` beside this module: plain JSON
(its version, the features' names, the training seed and data size, the held-out figures, and
each tree's splits and leaves), evaluated here with numpy alone, so playing needs no LightGBM and
loading runs no pickled code.

The chance of the game is learned; the chance of the match follows from it
(:func:`match_win_probability`): the current game won or lost with the learned chance, every
later game won by its breaker with the rate the training games showed, the breaks going as the
match's break rule says.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from nineball.errors import InvalidInputError
from nineball.game import BreakRule, MatchState, Seat
from nineball.game.position import Position
from nineball.players._kernels import forest_leaves
from nineball.players.features import feature_names, features

__all__ = [
    "VALUE_FORMAT",
    "VALUE_VERSION",
    "SeatChances",
    "Standing",
    "ValueModel",
    "load_value_model",
    "match_win_probability",
    "shipped_value_model",
]

VALUE_FORMAT = "nineball-value-model"
"""The ``format`` field of a model file."""

VALUE_VERSION = 1
"""The version of the file's layout: a change of meaning raises it."""

SHIPPED = "value.json"
"""The shipped model's file name, in :mod:`nineball.players`."""


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ValueModel:
    """A trained forest, ready to evaluate.

    The trees are flattened into one set of node arrays: a leaf points to itself (feature 0,
    threshold +inf), so every tree is walked ``depth`` steps, in one compiled loop
    (:func:`~nineball.players._kernels.forest_leaves`).
    """

    features: tuple[str, ...]
    """The features' names, in the vector's order (must be :func:`feature_names`)."""
    seed: int
    """The training seed."""
    games: int
    """Games in the training data (held-out ones excluded)."""
    positions: int
    """Positions in the training data."""
    breaker_wins: float
    """The share of the training games the breaker won (the later games' chance)."""
    meta: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """Everything else the file records: the players, the library, the held-out figures."""
    roots: NDArray[np.int64] = field(repr=False)
    """Each tree's root node."""
    feature: NDArray[np.int64] = field(repr=False)
    """Each node's feature (0 for a leaf)."""
    threshold: NDArray[np.float64] = field(repr=False)
    """Each node's split: a feature at or below it goes left (+inf for a leaf)."""
    left: NDArray[np.int64] = field(repr=False)
    right: NDArray[np.int64] = field(repr=False)
    value: NDArray[np.float64] = field(repr=False)
    """Each leaf's value (log-odds; 0 for a split)."""
    depth: int
    """The deepest leaf's depth: the steps that take every tree to a leaf."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ValueModel:
        """Build a model from a file's JSON.

        Raises:
            InvalidInputError: not a model file, another version, or trees that do not hold
                together.
        """
        if data.get("format") != VALUE_FORMAT:
            raise InvalidInputError(f"not a {VALUE_FORMAT} file: format {data.get('format')!r}")
        if data.get("version") != VALUE_VERSION:
            raise InvalidInputError(
                f"value model version {data.get('version')!r}, this nineball reads {VALUE_VERSION}"
            )
        names = tuple(data["features"])
        nodes = _Nodes()
        roots: list[int] = []
        for k, tree in enumerate(data["trees"]):
            roots.append(nodes.add(k, tree, len(names)))
        return cls(
            features=names,
            seed=int(data["seed"]),
            games=int(data["games"]),
            positions=int(data["positions"]),
            breaker_wins=float(data["breaker_wins"]),
            meta={k: v for k, v in data.items() if k != "trees"},
            roots=np.asarray(roots, dtype=np.int64),
            feature=np.asarray(nodes.feature, dtype=np.int64),
            threshold=np.asarray(nodes.threshold, dtype=np.float64),
            left=np.asarray(nodes.left, dtype=np.int64),
            right=np.asarray(nodes.right, dtype=np.int64),
            value=np.asarray(nodes.value, dtype=np.float64),
            depth=nodes.depth,
        )

    @property
    def trees(self) -> int:
        """How many trees the forest has."""
        return int(self.roots.shape[0])

    def raw(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The forest's sums (log-odds) for rows of features, shape ``(n, len(features))``.

        Raises:
            InvalidInputError: the rows have the wrong width or hold a NaN.
        """
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != len(self.features):
            raise InvalidInputError(
                f"features of shape {x.shape!r}, the model takes (n, {len(self.features)})"
            )
        if np.isnan(x).any():
            raise InvalidInputError("features hold a NaN")
        out = np.empty(x.shape[0], dtype=np.float64)
        chunk = 4096
        for start in range(0, x.shape[0], chunk):
            out[start : start + chunk] = self._leaves(x[start : start + chunk]).sum(axis=1)
        return out

    def _leaves(self, rows: NDArray[np.float64]) -> NDArray[np.float64]:
        """Each tree's leaf value for each row (:func:`.forest_leaves`)."""
        return forest_leaves(
            np.ascontiguousarray(rows), self.roots, self.feature, self.threshold, self.left,
            self.right, self.value, self.depth,
        )  # fmt: skip

    def probability(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """P(the player to act wins the game) for rows of features."""
        return 1.0 / (1.0 + np.exp(-self.raw(x)))

    def game_win(self, position: Position) -> float:
        """P(the player to act in ``position`` wins the game in progress).

        Raises:
            InvalidInputError: the match is over (see :func:`nineball.players.features.features`).
        """
        leaves = self._leaves(features(position)[None, :])[0]
        return float(1.0 / (1.0 + math.exp(-float(leaves.sum()))))

    def game_wins(self, positions: Sequence[Position]) -> NDArray[np.float64]:
        """:meth:`game_win` of many positions, the forest walked once for all of them."""
        if not positions:
            return np.empty(0, dtype=np.float64)
        return self.probability(np.stack([features(p) for p in positions]))

    def match_win(self, position: Position) -> float:
        """P(the player to act in ``position`` wins the match); 1 or 0 once it is over."""
        state = position.state
        if state.is_over:
            return 1.0 if state.winner == state.to_act else 0.0
        return match_win_probability(state, self.game_win(position), self.breaker_wins)

    def seat_chances(self, position: Position) -> SeatChances:
        """Each seat's chance of the game in progress and of the match, the forest walked once.

        Raises:
            InvalidInputError: the match is over, or a position that cannot be played (see
                :func:`nineball.players.features.features`).
        """
        state = position.state
        game = self.game_win(position)
        match = match_win_probability(state, game, self.breaker_wins)
        return SeatChances.of(state.to_act, game, match)


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatChances:
    """The chances of both seats at one position: index 0 is the first player, 1 the second."""

    game: tuple[float, float]
    """P(each seat wins the game in progress)."""
    match: tuple[float, float]
    """P(each seat wins the match)."""

    @classmethod
    def of(cls, to_act: Seat, game: float, match: float) -> SeatChances:
        """From the chances of the player to act (``to_act``) of the game and the match."""
        if to_act is Seat.FIRST:
            return cls(game=(game, 1.0 - game), match=(match, 1.0 - match))
        return cls(game=(1.0 - game, game), match=(1.0 - match, match))

    def of_seat(self, seat: Seat) -> tuple[float, float]:
        """P(``seat`` wins the game, the match)."""
        return self.game[seat], self.match[seat]

    def to_json(self) -> dict[str, list[float]]:
        """``{"game": [p0, p1], "match": [p0, p1]}``, rounded to 4 places."""
        return {
            "game": [round(p, 4) for p in self.game],
            "match": [round(p, 4) for p in self.match],
        }


@dataclass(slots=True)
class _Nodes:
    """The forest's nodes as they are read: each tree's splits, then its leaves.

    A leaf points to itself on both sides.
    """

    feature: list[int] = field(default_factory=list)
    threshold: list[float] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    right: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    depth: int = 0

    def add(self, k: int, tree: Mapping[str, Any], features: int) -> int:
        """Append tree ``k``; its root's index.

        Raises:
            InvalidInputError: arrays of the wrong lengths, or indices out of range.
        """
        splits = len(tree["feature"])
        leaves = len(tree["leaf"])
        if leaves != splits + 1 or not (
            len(tree["threshold"]) == len(tree["left"]) == len(tree["right"]) == splits
        ):
            raise InvalidInputError(f"tree {k}: {splits} splits and {leaves} leaves")
        base = len(self.feature)

        def node(child: int) -> int:
            if 0 <= child < splits:
                return base + child
            if 0 <= ~child < leaves:
                return base + splits + ~child
            raise InvalidInputError(f"tree {k}: child {child!r} out of range")

        for n in range(splits):
            f = int(tree["feature"][n])
            if not 0 <= f < features:
                raise InvalidInputError(f"tree {k}: feature {f!r} out of range")
            self.feature.append(f)
            self.threshold.append(float(tree["threshold"][n]))
            self.left.append(node(int(tree["left"][n])))
            self.right.append(node(int(tree["right"][n])))
            self.value.append(0.0)
        for leaf in range(leaves):
            here = base + splits + leaf
            self.feature.append(0)
            self.threshold.append(math.inf)
            self.left.append(here)
            self.right.append(here)
            self.value.append(float(tree["leaf"][leaf]))
        self.depth = max(self.depth, int(tree.get("depth", splits)))
        return base


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """The match as the player to act stands in it."""

    mine: int
    """Games the player to act has won."""
    theirs: int
    """Games the opponent has won."""
    race: int
    """Games the player to act needs."""
    their_race: int
    """Games the opponent needs."""
    breaking: bool
    """The player to act broke the game in progress."""
    winner_breaks: bool
    """The winner of a game breaks the next (else the breaks alternate, D12)."""

    @classmethod
    def of(cls, state: MatchState) -> Standing:
        """The standing of the player to act in ``state``."""
        me = state.to_act
        config = state.config
        return cls(
            mine=state.score[me],
            theirs=state.score[me.other],
            race=config.race_of(me),
            their_race=config.race_of(me.other),
            breaking=state.game.breaker == me,
            winner_breaks=config.breaks is BreakRule.WINNER,
        )

    def chance(self, game: float, breaker_wins: float) -> float:
        """P(the player to act wins the match), given their chance ``game`` of this game.

        Every later game is won by its breaker with probability ``breaker_wins``.

        Raises:
            InvalidInputError: a chance outside [0, 1], or a match already won.
        """
        for name, p in (("game", game), ("breaker_wins", breaker_wins)):
            if not 0.0 <= p <= 1.0:
                raise InvalidInputError(f"{name} must be a chance in [0, 1], got {p!r}")
        if self.mine >= self.race or self.theirs >= self.their_race:
            raise InvalidInputError(f"the match is over: nothing left to win ({self!r})")
        # The player to act is "0" of the race below; this game's breaker is 0 if they broke.
        breaker = 0 if self.breaking else 1
        after_win = 0 if self.winner_breaks else 1 - breaker
        after_loss = 1 if self.winner_breaks else 1 - breaker
        races = (self.race, self.their_race)
        won = _race(self.mine + 1, self.theirs, *races, after_win, self.winner_breaks, breaker_wins)
        lost = _race(self.mine, self.theirs + 1, *races, after_loss, self.winner_breaks,
                     breaker_wins)  # fmt: skip
        return game * won + (1.0 - game) * lost


def match_win_probability(state: MatchState, game: float, breaker_wins: float) -> float:
    """P(the player to act wins the match), given their chance ``game`` of the game in progress.

    Every later game is won by its breaker with probability ``breaker_wins``; who breaks follows
    the match's break rule (D12).

    Raises:
        InvalidInputError: a chance outside [0, 1], or a finished match.
    """
    if state.is_over:
        raise InvalidInputError("the match is over: nothing left to win")
    return Standing.of(state).chance(game, breaker_wins)


@lru_cache(maxsize=65536)
def _race(a: int, b: int, race_a: int, race_b: int, breaker: int, winner: bool, p: float) -> float:
    """P(player 0 wins) with ``a`` and ``b`` games won and ``breaker`` (0 or 1) to break next.

    ``winner``: the winner of a game breaks the next; ``p``: a breaker's chance of a game.
    """
    if a >= race_a:
        return 1.0
    if b >= race_b:
        return 0.0
    zero_wins = p if breaker == 0 else 1.0 - p
    after_zero = 0 if winner else 1 - breaker
    after_one = 1 if winner else 1 - breaker
    return zero_wins * _race(a + 1, b, race_a, race_b, after_zero, winner, p) + (
        1.0 - zero_wins
    ) * _race(a, b + 1, race_a, race_b, after_one, winner, p)


def load_value_model(path: Path) -> ValueModel:
    """Read a model file written by ``nineball train-value``.

    Raises:
        InvalidInputError: not a readable model file, or one made for other features.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"cannot read the value model {str(path)!r}: {exc}") from None
    return _checked(data, str(path))


def _checked(data: Any, where: str) -> ValueModel:
    if not isinstance(data, dict):
        raise InvalidInputError(f"{where}: a value model is a JSON object")
    try:
        model = ValueModel.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InvalidInputError):
            raise
        raise InvalidInputError(f"{where}: a malformed value model ({exc!r})") from None
    if model.features != feature_names():
        raise InvalidInputError(
            f"{where}: the model was trained on features {model.features!r}, "
            f"not on this nineball's {feature_names()!r}"
        )
    return model


@cache
def shipped_value_model() -> ValueModel:
    """The model shipped with the package (``players/value.json``), loaded once."""
    text = files("nineball.players").joinpath(SHIPPED).read_text("utf-8")
    return _checked(json.loads(text), SHIPPED)

#!/usr/bin/env python3
"""Matches of arbiter's engine against other engines, from 2-move ballots.

    python scripts/match.py --opponent dame --games 20 --time 0.1
    python scripts/match.py --opponent pydraughts --games 20 --time 0.1
    python scripts/match.py --opponent dame --games 20 --nodes 20000   # equal nodes
    python scripts/match.py --game english --opponent pydraughts --games 40 --time 0.1

Games: ``--game international`` (the default; against dame-rs or py-draughts) and
``--game english`` (English draughts / American checkers; against py-draughts only, as
dame-rs plays International only).

Engines (each through its Python API; install them in the environment that has arbiter):

- ``arbiter``: ``arbiter.Engine("international")`` (``pip install crates/python``; build it
  in release mode for a fair match: a debug build is ten times slower);
- ``dame``: dame-rs (``pip install dame-rs``, MIT), ``dame.Engine().search(board, time=...)``,
  its opening book off;
- ``pydraughts``: py-draughts' alpha-beta engine (``pip install py-draughts``),
  ``draughts.SimpleEngine(depth_limit=..., time_limit=...)`` (called ``AlphaBetaEngine`` in
  older releases). It finishes the depth it is on when its time is up, so it overshoots;
  the script prints the time each side used per move. For English it plays on
  ``draughts.AmericanBoard``, whose 1.10 rules make captures optional; English draughts
  makes them compulsory, so the script hands the engine a subclass whose legal moves are
  the captures when there is one (the engine searches ``board.legal_moves``, so it then
  plays the same game as arbiter).

The ballots: every pair of first moves (International: 9 moves for White, then 9 replies
for Black, 81 openings; English: 7 moves for Black, who starts, then 7 replies for White,
49 openings), from which ``--games / 2`` are drawn with ``--seed``
(the same seed draws the same ballots); each is played twice, arbiter White in one game
and Black in the other. No published ballot list is shipped with the repository (for
English, tournaments use the ACF's 3-move ballots; the script does not have them), so the
script makes these; ``--ballots FILE`` takes a list of FENs (one a line) instead.

The games are refereed by ``arbiter.Board``: a move is the one among arbiter's legal moves
that leads to the position the engine's own library reached (engines disagree on notation,
never on positions). A game ends when the side to move has no move (it loses), on the
third repetition of a position (draw), after a run of plies without a capture or a man's
move (draw: International 50 plies, the 25-move rule for kings; English 80 plies, the
40-move rule), or after ``--max-plies`` plies (draw by adjudication). English kings move
one square (arbiter's rules for the game; no flying kings).

The result: wins, draws and losses from arbiter's side, its score, and an Elo estimate
``-400 log10(1/p - 1)`` with a 95 % interval from the standard error of the per-game
score (``p ± 1.96 σ/√n``, mapped through the same formula; when every game is won or
every game lost, σ is 0 and the bound is Wilson's, ``n / (n + 1.96²)``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

import arbiter

GAME = "international"  # set by --game

# Plies without a capture or a man's move after which a game is drawn, and the rule's name.
QUIET_DRAW = {"international": (50, "25 king moves"), "english": (80, "40 moves without progress")}


# --- positions -------------------------------------------------------------------------

Position = Tuple[str, frozenset, frozenset, frozenset, frozenset]


def parse_fen(text: str) -> Position:
    """A PDN FEN (``W:W31,K32:B1-5``, optionally inside ``[FEN "..."]``) as comparable sets:
    side to move, white men, white kings, black men, black kings."""
    m = re.search(r'"([^"]*)"', text)
    if m:
        text = m.group(1)
    text = text.strip().rstrip(".")
    parts = text.split(":")
    side = parts[0].strip().upper()[:1]
    pieces: Dict[str, Tuple[set, set]] = {"W": (set(), set()), "B": (set(), set())}
    for part in parts[1:]:
        part = part.strip()
        if not part:
            continue
        colour, rest = part[0].upper(), part[1:]
        men, kings = pieces[colour]
        for item in filter(None, (s.strip() for s in rest.split(","))):
            king = item.upper().startswith("K")
            item = item.lstrip("Kk")
            if "-" in item:
                a, b = item.split("-")
                squares = range(int(a), int(b) + 1)
            else:
                squares = [int(item)]
            (kings if king else men).update(squares)
    (wm, wk), (bm, bk) = pieces["W"], pieces["B"]
    return side, frozenset(wm), frozenset(wk), frozenset(bm), frozenset(bk)


def successors(board: "arbiter.Board") -> Dict[Position, str]:
    """Each legal move of the board by the position it leads to."""
    out = {}
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        out[parse_fen(after.fen())] = move
    return out


# --- players ---------------------------------------------------------------------------


@dataclass
class Player:
    name: str
    # The position after the player's move in the position `fen`, from its own library.
    move: Callable[[str], str]
    new_game: Callable[[], None] = lambda: None
    seconds: float = 0.0
    moves: int = 0


def arbiter_player(time_limit: Optional[float], nodes: Optional[int], hash_mb: int) -> Player:
    engine = arbiter.Engine(GAME, hash_mb=hash_mb)

    def move(fen: str) -> str:
        board = arbiter.Board(GAME, fen=fen)
        result = engine.search(board, nodes=nodes, time=time_limit if nodes is None else None)
        board.push(result.move)
        return board.fen()

    return Player("arbiter", move, engine.clear)


def dame_player(time_limit: Optional[float], nodes: Optional[int], hash_mb: int) -> Player:
    import dame

    engine = dame.Engine(hash_mb=hash_mb, book=None)

    def move(fen: str) -> str:
        board = dame.Board(fen)
        if nodes is not None:
            result = engine.search(board, nodes=nodes)
        else:
            result = engine.search(board, time=time_limit)
        board.push(result.best_move)
        return board.fen()

    return Player("dame", move, engine.clear)


def pydraughts_board_class():
    """py-draughts' board class for GAME (English: captures made compulsory, see above)."""
    import draughts

    if GAME == "international":
        return draughts.StandardBoard

    class EnglishBoard(draughts.AmericanBoard):
        @property
        def legal_moves(self):
            moves = super().legal_moves
            captures = [m for m in moves if m.captured_list]
            return captures or moves

    return EnglishBoard


def pydraughts_player(time_limit: Optional[float], depth: int) -> Player:
    import draughts

    cls = getattr(draughts, "SimpleEngine", None) or getattr(draughts, "AlphaBetaEngine")
    engine = cls(depth_limit=depth, time_limit=time_limit)
    board_class = pydraughts_board_class()

    def move(fen: str) -> str:
        board = board_class.from_fen(fen)
        board.push(engine.get_best_move(board))
        fen_after = board.fen
        return fen_after() if callable(fen_after) else fen_after

    return Player("pydraughts", move)


# --- games -----------------------------------------------------------------------------


def ballots(seed: int, count: int) -> List[Tuple[str, str]]:
    """`count` 2-move ballots (the FEN after them and the moves), drawn with `seed` from
    every pair of first moves."""
    start = arbiter.Board(GAME)
    every = []
    for first in start.legal_moves():
        b = start.copy()
        b.push(first)
        for reply in b.legal_moves():
            c = b.copy()
            c.push(reply)
            every.append((c.fen(), f"{first} {reply}"))
    rng = random.Random(seed)
    return rng.sample(every, min(count, len(every)))


@dataclass
class Game:
    opening: str
    white: str
    result: float  # for White: 1, 0.5, 0
    plies: int
    why: str
    moves: List[str] = field(default_factory=list)


def play(fen: str, opening: str, white: Player, black: Player, max_plies: int) -> Game:
    board = arbiter.Board(GAME, fen=fen)
    seen: Dict[Position, int] = {}
    quiet = 0  # plies without a capture or a man's move
    for p in (white, black):
        p.new_game()
    plies = 0
    while True:
        here = parse_fen(board.fen())
        seen[here] = seen.get(here, 0) + 1
        legal = successors(board)
        side = here[0]
        if not legal:
            return Game(opening, white.name, 0.0 if side == "W" else 1.0, plies, "no move", board.move_stack)
        if seen[here] >= 3:
            return Game(opening, white.name, 0.5, plies, "repetition", board.move_stack)
        if quiet >= QUIET_DRAW[GAME][0]:
            return Game(opening, white.name, 0.5, plies, QUIET_DRAW[GAME][1], board.move_stack)
        if plies >= max_plies:
            return Game(opening, white.name, 0.5, plies, "adjudicated", board.move_stack)
        mover = white if side == "W" else black
        started = time.perf_counter()
        after = parse_fen(mover.move(board.fen()))
        mover.seconds += time.perf_counter() - started
        mover.moves += 1
        move = legal.get(after)
        if move is None:
            raise RuntimeError(f"{mover.name} reached a position arbiter finds no move to: {after}")
        men_before = len(here[1]) + len(here[3])
        pieces_before = men_before + len(here[2]) + len(here[4])
        board.push(move)
        now = parse_fen(board.fen())
        men_now = len(now[1]) + len(now[3])
        pieces_now = men_now + len(now[2]) + len(now[4])
        man_moved = (here[1] != now[1]) if side == "W" else (here[3] != now[3])
        quiet = 0 if pieces_now < pieces_before or man_moved else quiet + 1
        plies += 1


# --- figures ---------------------------------------------------------------------------


def elo(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / p - 1)


def summary(scores: List[float]) -> str:
    n = len(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    losses = n - wins - draws
    p = sum(scores) / n
    var = sum((s - p) ** 2 for s in scores) / n
    sigma = math.sqrt(var / n)
    lo, hi = max(p - 1.96 * sigma, 0.0), min(p + 1.96 * sigma, 1.0)
    if p in (0.0, 1.0):
        # Every game won (or lost): σ is 0, so the bound is Wilson's, n / (n + 1.96²).
        edge = n / (n + 1.96**2)
        lo, hi = (edge, 1.0) if p == 1.0 else (0.0, 1.0 - edge)

    def fmt(x: float) -> str:
        if x <= 0.0:
            return "-inf"
        if x >= 1.0:
            return "+inf"
        return f"{round(elo(x)) + 0:+d}"

    return (
        f"{n} games: +{wins} ={draws} -{losses}, score {100 * p:.1f} % "
        f"(±{196 * sigma:.1f}), Elo {fmt(p)} (95 %: {fmt(lo)} .. {fmt(hi)})"
    )


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes), as `uptime` prints them."""
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main(argv: Optional[List[str]] = None) -> int:
    global GAME
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=["international", "english"], default="international")
    ap.add_argument("--opponent", choices=["dame", "pydraughts"], required=True)
    ap.add_argument("--games", type=int, default=20, help="games (two per ballot)")
    ap.add_argument("--time", type=float, default=0.1, help="seconds per move for both sides")
    ap.add_argument("--nodes", type=int, help="nodes per move for arbiter and dame instead of time")
    ap.add_argument("--pydraughts-depth", type=int, default=20, help="py-draughts' depth limit")
    ap.add_argument("--hash", type=int, default=32, help="hash table per engine, MB")
    ap.add_argument("--max-plies", type=int, default=240)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ballots", help="a file of FENs, one a line, instead of the drawn ballots")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every game's moves")
    args = ap.parse_args(argv)
    GAME = args.game

    build = getattr(arbiter._arbiter, "_build_profile", "?")
    if build != "release":
        print(f"note: arbiter is a {build} build; its engine is much slower than released", file=sys.stderr)
    if args.opponent == "pydraughts" and args.nodes:
        ap.error("py-draughts has no node limit: use --time")
    if args.game == "english" and args.opponent == "dame":
        ap.error("dame-rs plays International only: use --opponent pydraughts for English")

    us = arbiter_player(args.time, args.nodes, args.hash)
    them = (
        dame_player(args.time, args.nodes, args.hash)
        if args.opponent == "dame"
        else pydraughts_player(args.time, args.pydraughts_depth)
    )
    pairs = (args.games + 1) // 2
    if args.ballots:
        with open(args.ballots) as f:
            openings = [(line.strip(), "file") for line in f if line.strip()][:pairs]
    else:
        openings = ballots(args.seed, pairs)
    limit = f"{args.nodes} nodes" if args.nodes else f"{args.time} s"
    print(f"{GAME}: arbiter {arbiter.__version__} ({build}) vs {them.name}, {limit} per move, "
          f"{2 * len(openings)} games from {len(openings)} ballots (seed {args.seed}); "
          f"load {load()}", flush=True)
    scores: List[float] = []
    for i, (fen, opening) in enumerate(openings):
        for arbiter_white in (True, False):
            white, black = (us, them) if arbiter_white else (them, us)
            g = play(fen, opening, white, black, args.max_plies)
            ours = g.result if arbiter_white else 1.0 - g.result
            scores.append(ours)
            colour = "White" if arbiter_white else "Black"
            print(f"  {len(scores):3d}. [{opening}] arbiter {colour}: {ours:g} "
                  f"({g.why}, {g.plies} plies)", flush=True)
            if args.verbose:
                print("       " + " ".join(g.moves))
    print(summary(scores))
    print(f"  load at the end: {load()}")
    for p in (us, them):
        if p.moves:
            print(f"  {p.name}: {p.seconds / p.moves:.3f} s per move over {p.moves} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())

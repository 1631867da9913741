//! The resolver: from a move token to the legal move it names, or the reason it names none.
//!
//! The common case is cheap: a quiet move is checked against a bulk "can anybody capture?"
//! test and the geometry of one piece; a capture is matched against the chains of the one
//! piece the token starts on, and the other pieces are only searched until one of them is
//! found to capture more. Only when that fails is the full diagnosis run (with allocation).

use game::{Code, Problem};

use crate::movegen::{is_forward, search_chains, Move, MovePath, Sink};
use crate::notation::{matches_path, token_text, MoveToken, OdnocvetnieSquares, Separator};
use crate::position::{Piece, Position};
use crate::square::{diagonal, opposite, Square, SquareSet, NEXT};

/// Resolves one move token against `pos`.
pub fn resolve(pos: &Position, token: &[u8]) -> Result<Move, Problem> {
    // Read in place and used by reference (see `FixedToken::read`).
    let mut tok = MoveToken::blank(Square::from_pos(0));
    tok.read(&OdnocvetnieSquares, token)
        .map_err(|m| Problem::new(Code::IllegalMove, m.to_string()))?;
    resolve_token(pos, &tok)
}

/// Resolves an already parsed token against `pos`.
pub fn resolve_token(pos: &Position, tok: &MoveToken) -> Result<Move, Problem> {
    let from = tok.from();
    let fb = from.bit();
    let occ = pos.occ();
    let lock = pos.lock_bit();
    if occ & fb == 0 || lock & fb != 0 {
        return diagnose(pos, tok);
    }
    let movers = occ & !lock;
    if !pos.any_capture(movers) {
        if tok.squares().len() == 2 {
            if let Some(mv) = pos.quiet_move(from, tok.to()) {
                return Ok(mv);
            }
        }
        return diagnose(pos, tok);
    }
    let piece = if pos.men & fb != 0 {
        Piece::Man
    } else {
        Piece::Damka
    };
    let mut sink = TokenMatch {
        tok,
        own_max: 0,
        found: [(0, 0); 4],
        n: 0,
        overflow: false,
    };
    search_chains(pos, from, piece, &mut sink);
    if let Some((to, cap, count)) = sink.unique_best() {
        if sink.own_max <= count && !pos.others_exceed(movers, from, count) {
            return Ok(pos.chain_move(from, to, cap));
        }
    }
    diagnose(pos, tok)
}

/// Matches the complete chains of one piece against a token.
struct TokenMatch<'t> {
    tok: &'t MoveToken,
    own_max: u32,
    found: [(u8, u64); 4],
    n: usize,
    overflow: bool,
}

impl Sink for TokenMatch<'_> {
    #[inline]
    fn complete(&mut self, path: &[u8], captured: u64) -> bool {
        self.own_max = self.own_max.max(captured.count_ones());
        if matches_path(self.tok, path) {
            let key = (path[path.len() - 1], captured);
            if !self.found[..self.n].contains(&key) {
                if self.n < self.found.len() {
                    self.found[self.n] = key;
                    self.n += 1;
                } else {
                    self.overflow = true;
                }
            }
        }
        false
    }
}

impl TokenMatch<'_> {
    /// The single matching chain with the most captures, if exactly one has that many.
    fn unique_best(&self) -> Option<(u8, u64, u32)> {
        if self.overflow || self.n == 0 {
            return None;
        }
        let found = &self.found[..self.n];
        let best = found.iter().map(|f| f.1.count_ones()).max()?;
        let mut it = found.iter().filter(|f| f.1.count_ones() == best);
        let first = *it.next()?;
        if it.next().is_some() {
            return None;
        }
        Some((first.0, first.1, best))
    }
}

/// Records chains of one piece that the token names: complete ones and prefixes.
#[derive(Default)]
struct OwnMatches {
    complete: Vec<(u8, u64)>,
    partial: Vec<(u8, u64)>,
}

struct OwnSink<'a> {
    tok: &'a MoveToken,
    out: &'a mut OwnMatches,
}

impl Sink for OwnSink<'_> {
    fn complete(&mut self, path: &[u8], captured: u64) -> bool {
        if matches_path(self.tok, path) {
            self.out.complete.push((path[path.len() - 1], captured));
        }
        false
    }
    fn partial(&mut self, path: &[u8], captured: u64) -> bool {
        if matches_path(self.tok, path) {
            self.out.partial.push((path[path.len() - 1], captured));
        }
        false
    }
}

fn own_matches(pos: &Position, tok: &MoveToken, piece: Piece) -> OwnMatches {
    let mut out = OwnMatches::default();
    let mut sink = OwnSink { tok, out: &mut out };
    search_chains(pos, tok.from(), piece, &mut sink);
    let complete = out.complete.clone();
    out.partial.retain(|p| !complete.contains(p));
    out
}

/// True if the token names `mv` (some full path of it).
fn names(pos: &Position, tok: &MoveToken, mv: &Move) -> bool {
    if tok.from() != mv.from() || tok.to() != mv.to() {
        return false;
    }
    if !mv.is_capture() {
        return tok.squares().len() == 2;
    }
    pos.paths(mv).iter().any(|p| {
        let bits: Vec<u8> = p.squares.iter().map(|s| s.pos()).collect();
        matches_path(tok, &bits)
    })
}

fn illegal(message: String) -> Problem {
    Problem::new(Code::IllegalMove, message)
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        "piece"
    } else {
        "pieces"
    }
}

fn list_squares(set: SquareSet, numeric: bool) -> String {
    set.iter()
        .map(|s| s.styled(numeric).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The first full path of the first move (in path order) of `moves`.
fn example_path(pos: &Position, moves: &[Move]) -> Option<MovePath> {
    moves.iter().flat_map(|m| pos.paths(m)).min()
}

/// [`example_path`], written.
fn example(pos: &Position, moves: &[Move], numeric: bool) -> String {
    example_path(pos, moves)
        .map(|p| p.write(numeric))
        .unwrap_or_default()
}

/// `(file, rank)` of each square, for diagrams.
pub(crate) fn coords(squares: &[Square]) -> Vec<(u8, u8)> {
    squares.iter().map(|s| (s.file(), s.rank())).collect()
}

/// The slow path: works out why the token names no legal move (or which one it names). A
/// problem carries the squares the token names, for diagrams.
fn diagnose(pos: &Position, tok: &MoveToken) -> Result<Move, Problem> {
    diagnose_inner(pos, tok).map_err(|p| {
        if p.played.is_empty() {
            p.with_played(vec![coords(tok.squares())])
        } else {
            p // an ambiguous token: each move it fits
        }
    })
}

fn diagnose_inner(pos: &Position, tok: &MoveToken) -> Result<Move, Problem> {
    let side = pos.side;
    let numeric = tok.is_numeric();
    let st = |s: Square| s.styled(numeric).to_string();
    let text = token_text(tok);
    let from = tok.from();
    let Some(piece) = pos.piece_at(from) else {
        return Err(illegal(format!(
            "{side} cannot play {text}: there is no piece on {}",
            st(from)
        )));
    };
    if pos.lock == Some(from) {
        return Err(refuse_locked(pos, tok, piece));
    }
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let matching: Vec<Move> = legal
        .iter()
        .filter(|m| names(pos, tok, m))
        .copied()
        .collect();
    match matching.len() {
        0 => {}
        1 => return Ok(matching[0]),
        _ => return Err(ambiguous(pos, tok, &matching)),
    }
    let max = legal.first().map_or(0, Move::capture_count);
    if max > 0 {
        return Err(refuse_for_capture(pos, tok, piece, &legal, max));
    }
    Err(illegal(explain(pos, tok, piece)))
}

/// The problem of a token that moves the piece locked this turn: only the lock, if the move
/// would be legal without it, else why it is wrong besides.
fn refuse_locked(pos: &Position, tok: &MoveToken, piece: Piece) -> Problem {
    let side = pos.side;
    let numeric = tok.is_numeric();
    let st = |s: Square| s.styled(numeric).to_string();
    let text = token_text(tok);
    let from = tok.from();
    let pname = piece.name();
    let unlocked = pos.without_lock();
    let mut own = Vec::new();
    pos.locked_piece_moves(&mut own);
    let possible = own.iter().any(|m| names(&unlocked, tok, m))
        || !own_matches(&unlocked, tok, piece).partial.is_empty();
    let lock_msg = format!(
        "the {pname} on {} was moved in the previous turn ({}'s) and is locked for {side} this turn",
        st(from),
        side.prev()
    );
    if possible {
        return Problem::new(
            crate::LOCKED_PIECE,
            format!("{side} cannot play {text}: {lock_msg}; it can still be captured"),
        );
    }
    let why = explain(&unlocked, tok, piece);
    illegal(format!("{why}; besides, {lock_msg}"))
}

/// The problem of a token that fits several legal moves: each of them, with what it takes.
fn ambiguous(pos: &Position, tok: &MoveToken, matching: &[Move]) -> Problem {
    let side = pos.side;
    let numeric = tok.is_numeric();
    let text = token_text(tok);
    let mut options: Vec<(MovePath, SquareSet)> = matching
        .iter()
        .filter_map(|m| pos.paths(m).into_iter().next().map(|p| (p, m.captured())))
        .collect();
    options.sort_by(|a, b| a.0.cmp(&b.0));
    let list = options
        .iter()
        .map(|(p, c)| format!("{} (takes {})", p.write(numeric), list_squares(*c, numeric)))
        .collect::<Vec<_>>()
        .join(", ");
    Problem::new(
        Code::AmbiguousMove,
        format!(
            "{text} is ambiguous for {side}: it fits {} different moves: {list}; write the landing squares",
            matching.len()
        ),
    )
    // Each move drawn along its own path, not as a straight line from the token's squares.
    .with_played(options.iter().map(|(p, _)| coords(&p.squares)).collect())
}

/// The problem of a token that names no legal move while a capture of `max` pieces is
/// compulsory: too few taken, a chain stopped early, a quiet move, or why it is wrong.
fn refuse_for_capture(
    pos: &Position,
    tok: &MoveToken,
    piece: Piece,
    legal: &[Move],
    max: u32,
) -> Problem {
    let side = pos.side;
    let numeric = tok.is_numeric();
    let text = token_text(tok);
    let from = tok.from();
    let pname = piece.name();
    let ex_path = example_path(pos, legal);
    let ex = ex_path
        .as_ref()
        .map(|p| p.write(numeric))
        .unwrap_or_default();
    let suggested: Vec<Vec<(u8, u8)>> = ex_path.iter().map(|p| coords(&p.squares)).collect();
    let own = own_matches(pos, tok, piece);
    if let Some(k) = own.complete.iter().map(|c| c.1.count_ones()).max() {
        return Problem::new(
            Code::NonMaximalCapture,
            format!(
                "{side}'s {text} takes {k} {}, but the majority rule demands {max}: for example {ex}",
                plural(k)
            ),
        )
        .with_suggested(suggested);
    }
    if let Some(k) = own.partial.iter().map(|c| c.1.count_ones()).max() {
        return Problem::new(
            Code::NonMaximalCapture,
            format!(
                "{side}'s {text} stops after {k} {} although the {pname} can capture on; the majority rule demands {max}: for example {ex}",
                plural(k)
            ),
        )
        .with_suggested(suggested);
    }
    if tok.squares().len() == 2 && pos.quiet_move(from, tok.to()).is_some() {
        return Problem::new(
            Code::MissedCapture,
            format!(
                "capturing is compulsory: {side} must take {max} {} (for example {ex}) instead of the quiet move {text}",
                plural(max)
            ),
        )
        .with_suggested(suggested);
    }
    let why = explain(pos, tok, piece);
    illegal(format!(
        "{why} ({side} must capture {max} {}, for example {ex})",
        plural(max)
    ))
}

/// The squares strictly between `a` and `a + k·d`.
fn between(a: Square, d: usize, k: u8) -> Vec<Square> {
    let mut out = Vec::new();
    let mut p = a.pos();
    for _ in 1..k {
        p = NEXT[d][p as usize];
        out.push(Square::from_pos(p));
    }
    out
}

/// Why the piece on the token's start square cannot make the move the token describes, read
/// leg by leg. Used when no legal move, capture chain or quiet move matches.
fn explain(pos: &Position, tok: &MoveToken, piece: Piece) -> String {
    let side = pos.side;
    let numeric = tok.is_numeric();
    let st = |s: Square| s.styled(numeric).to_string();
    let text = token_text(tok);
    let sq = tok.squares();
    let from = sq[0];
    let pname = piece.name();
    let edge = side.far_edge_name();
    let occ_all = pos.occ();

    let no_capture_to = |to: Square| -> String {
        // The piece's own moves, whatever the lock: look at it as if it were the locked one.
        let mut chains = Vec::new();
        let probe = Position {
            lock: Some(from),
            ..*pos
        };
        probe.locked_piece_moves(&mut chains);
        chains.retain(Move::is_capture);
        if chains.is_empty() {
            format!(
                "{side} cannot play {text}: the {pname} on {} has nothing to capture",
                st(from)
            )
        } else {
            format!(
                "{side} cannot play {text}: no capture of the {pname} on {} ends on {}; it can capture {}",
                st(from),
                st(to),
                example(pos, &chains, numeric)
            )
        }
    };

    if sq.len() == 2 && tok.separator() != Separator::Capture {
        let to = sq[1];
        match diagonal(from, to) {
            None if from == to => return format!("{side} cannot play {text}: the {pname} does not move"),
            None => {
                return match piece {
                    Piece::Man => format!(
                        "{side} cannot play {text}: a man moves one square diagonally forward, and {} is not on a diagonal from {}",
                        st(to),
                        st(from)
                    ),
                    Piece::Damka => format!(
                        "{side} cannot play {text}: a damka moves along the diagonals, and {} is not on a diagonal from {}",
                        st(to),
                        st(from)
                    ),
                }
            }
            Some((d, k)) => {
                if piece == Piece::Man && !is_forward(side, d) {
                    return format!("{side} moves men towards {edge}; {text} goes backwards for {side}");
                }
                if occ_all & to.bit() != 0 {
                    return format!("{side} cannot play {text}: {} is occupied", st(to));
                }
                match piece {
                    Piece::Man if k > 2 => {
                        return format!(
                            "{side} cannot play {text}: a man moves only one square diagonally forward"
                        )
                    }
                    Piece::Man => {}
                    Piece::Damka => {
                        let blockers: Vec<Square> = between(from, d, k)
                            .into_iter()
                            .filter(|s| occ_all & s.bit() != 0)
                            .collect();
                        if blockers.len() > 1 {
                            return format!(
                                "{side} cannot play {text}: the damka on {} cannot pass {}, it is occupied",
                                st(from),
                                st(blockers[0])
                            );
                        }
                    }
                }
            }
        }
    }

    // Read the token as a capture, one jump per leg.
    let occ = occ_all & !from.bit();
    let short = sq.len() == 2;
    let mut cap = 0u64;
    let mut at = from;
    let mut last: Option<usize> = None;
    for (i, &next) in sq[1..].iter().enumerate() {
        let after = if i == 0 {
            format!("{side} cannot play {text}: ")
        } else {
            format!(
                "{side} cannot play {text}: the {pname} from {} jumped to {}, but ",
                st(from),
                st(at)
            )
        };
        if piece == Piece::Man && i > 0 && side.far_edge().contains(at) {
            return format!(
                "{after}it is crowned there ({edge} is {side}'s far edge) and the move ends: a new damka captures only in a later move"
            );
        }
        let Some((d, k)) = diagonal(at, next) else {
            if short {
                return no_capture_to(next);
            }
            return format!("{after}{} and {} are not on one diagonal", st(at), st(next));
        };
        if last == Some(opposite(d)) {
            return format!(
                "{after}it cannot turn back towards {}: no 180° turn between two jumps of a capture",
                st(next)
            );
        }
        let land_msg = |next: Square| {
            if cap & next.bit() != 0 {
                format!(
                    "{after}{} holds a piece captured earlier in this move: captured pieces stay on the board until the move ends",
                    st(next)
                )
            } else {
                format!("{after}it cannot land on {}: it is occupied", st(next))
            }
        };
        let taken = match piece {
            Piece::Man => {
                if !is_forward(side, d) {
                    return format!(
                        "{after}{side} moves men towards {edge} and they capture forwards only; {} to {} goes backwards for {side}",
                        st(at),
                        st(next)
                    );
                }
                if k != 2 {
                    if short {
                        return no_capture_to(next);
                    }
                    return format!(
                        "{after}a man captures by jumping over an adjacent piece to the square just beyond it, and {} to {} is not such a jump",
                        st(at),
                        st(next)
                    );
                }
                let over = Square::from_pos(NEXT[d][at.pos() as usize]);
                if occ & over.bit() == 0 {
                    return format!("{after}there is no piece on {} to jump", st(over));
                }
                if cap & over.bit() != 0 {
                    return format!(
                        "{after}captured pieces stay on the board until the move ends: {} cannot be jumped twice",
                        st(over)
                    );
                }
                if occ & next.bit() != 0 {
                    return land_msg(next);
                }
                over
            }
            Piece::Damka => {
                let pieces: Vec<Square> = between(at, d, k)
                    .into_iter()
                    .filter(|s| occ & s.bit() != 0)
                    .collect();
                match pieces.first() {
                    None => {
                        return format!(
                            "{after}there is no piece between {} and {} to capture",
                            st(at),
                            st(next)
                        )
                    }
                    Some(&p) if cap & p.bit() != 0 => {
                        return format!(
                            "{after}captured pieces stay on the board until the move ends: {} cannot be jumped twice or passed over",
                            st(p)
                        )
                    }
                    Some(&p) if pieces.len() > 1 => {
                        return format!(
                            "{after}a damka takes one piece per jump, and both {} and {} stand between {} and {}",
                            st(p),
                            st(pieces[1]),
                            st(at),
                            st(next)
                        )
                    }
                    Some(&p) => {
                        if occ & next.bit() != 0 {
                            return land_msg(next);
                        }
                        p
                    }
                }
            }
        };
        cap |= taken.bit();
        last = Some(d);
        at = next;
    }
    if short {
        return no_capture_to(at);
    }
    format!("{side} has no move {text}")
}

//! The resolver: from a move token to the legal move it names, or the precise problem.
//!
//! The position is asked for candidates (every complete capture chain before the majority
//! rule, or the quiet move the token names) and the token filters them. Only when nothing fits
//! is the token examined piece by piece to say, in words, why.

use game::{Code, Problem};

use crate::movegen::{chains, chains_from, has_capture_with, quiet_move_with, RAYS};
use game::token::{fit, Fit};

use crate::moves::{Move, MoveList};
use crate::notation::{Separator, TamaSquares, Token};
use crate::position::{Kind, Position};
use crate::square::{Dir, Side, Square};
use crate::Tama;

const KEEP: usize = 4;

const SHORT_KING_STEP: &str = "under the schmidt rules a king moves one square";
const SHORT_KING_JUMP: &str =
    "under the schmidt rules a king captures by a short jump over an adjacent piece";

/// `(file, rank)` of a square, for diagrams.
#[inline]
pub(crate) fn coords(sq: Square) -> (u8, u8) {
    (sq.file() as u8, sq.rank() as u8)
}

/// The squares a move visits: its start, then every landing square.
pub(crate) fn move_path(mv: &Move) -> Vec<(u8, u8)> {
    std::iter::once(mv.from())
        .chain(mv.path().iter().copied())
        .map(coords)
        .collect()
}

/// Resolves one token against the position. A problem carries the squares the token names
/// (and, for a capture too short or missed, one maximal chain) for diagrams.
pub fn resolve(pos: &Position, rules: Tama, raw: &[u8]) -> Result<Move, Problem> {
    // Read in place and used by reference (see `FixedToken::read`).
    let mut tok = Token::blank(Square::A1);
    tok.read(&TamaSquares, raw)
        .map_err(|m| Problem::new(Code::IllegalMove, m.to_string()))?;
    resolve_parsed(pos, rules, &tok, raw).map_err(|p| {
        if !p.played.is_empty() {
            return p; // an ambiguous token: each move it fits
        }
        let named = tok.squares().iter().copied().map(coords).collect();
        p.with_played(vec![named])
    })
}

fn resolve_parsed(pos: &Position, rules: Tama, tok: &Token, raw: &[u8]) -> Result<Move, Problem> {
    let squares = tok.squares();
    if !has_capture_with(pos, rules) {
        if squares.len() == 2 {
            if let Some(mv) = quiet_move_with(pos, rules.schmidt, squares[0], squares[1]) {
                return Ok(mv);
            }
        }
        return Err(illegal(pos, rules, tok, raw));
    }

    // Captures exist: one pass over every complete chain.
    let mut global_max = 0usize;
    let mut exact: Option<Move> = None; // a chain whose landing squares are exactly the token's
    let mut best = 0usize; // captures of the best whole fits
    let mut found = [Move::quiet(Square::A1, Square::A1, false); KEEP];
    let mut n_found = 0usize;
    let mut prefix = 0usize;
    let full_path = squares.len() >= 3;
    chains(pos, rules, &mut |m| {
        let c = m.capture_count();
        global_max = global_max.max(c);
        if full_path && m.from() == squares[0] && m.path() == &squares[1..] {
            exact = Some(*m);
        }
        match fit(squares, m.from(), m.path().iter().copied()) {
            Fit::Whole => {
                if c > best {
                    best = c;
                    n_found = 0;
                }
                if c == best && n_found < KEEP && !found[..n_found].iter().any(|f| f.same_result(m))
                {
                    found[n_found] = *m;
                    n_found += 1;
                }
            }
            Fit::Prefix(k) => prefix = prefix.max(k),
            Fit::None => {}
        }
    });

    // The token as shown in a message, made only for a refused one.
    let shown = || String::from_utf8_lossy(raw);
    let non_maximal = |taken: usize, stopped: bool| {
        let shown = shown();
        let shown = shown.trim();
        let chain = example_chain(pos, rules, tok.from(), global_max);
        let example = chain.as_ref().map(|m| in_style(m, tok)).unwrap_or_default();
        let message = if stopped {
            format!(
                "{shown} captures {} and stops although the piece can capture on; \
                 {global_max} are required: play a chain such as {example}",
                pieces(taken)
            )
        } else {
            format!(
                "{shown} captures {} but {global_max} are required: play a chain such as {example}",
                pieces(taken)
            )
        };
        Problem::new(Code::NonMaximalCapture, message)
            .with_suggested(chain.iter().map(move_path).collect())
    };
    // 1. A full path that is exactly one chain means that chain.
    if let Some(m) = exact {
        if m.capture_count() == global_max {
            return Ok(m);
        }
        return Err(non_maximal(m.capture_count(), false));
    }
    // 2. Short or partial forms: the maximal chains they fit.
    if n_found > 0 && best == global_max {
        if n_found == 1 {
            return Ok(found[0]);
        }
        return Err(ambiguous(pos, rules, tok, raw, global_max));
    }
    // 3. A quiet move (written as one) while a capture is compulsory.
    let quiet =
        squares.len() == 2 && quiet_move_with(pos, rules.schmidt, squares[0], squares[1]).is_some();
    if quiet && tok.separator() != Separator::Capture {
        return Err(missed_capture(pos, rules, tok, shown().trim(), global_max));
    }
    // 4. A legal chain that takes too little, or stops too early.
    if n_found > 0 {
        return Err(non_maximal(best, false));
    }
    if prefix > 0 {
        return Err(non_maximal(prefix, true));
    }
    if quiet {
        return Err(missed_capture(pos, rules, tok, shown().trim(), global_max));
    }
    Err(illegal(pos, rules, tok, raw))
}

fn missed_capture(pos: &Position, rules: Tama, tok: &Token, shown: &str, max: usize) -> Problem {
    let chain = example_chain(pos, rules, tok.from(), max);
    let example = chain.as_ref().map(|m| in_style(m, tok)).unwrap_or_default();
    Problem::new(
        Code::MissedCapture,
        format!(
            "{shown} is not allowed: capturing is compulsory and {} can take {} (e.g. {example})",
            pos.side_to_move(),
            pieces(max)
        ),
    )
    .with_suggested(chain.iter().map(move_path).collect())
}

/// A chain's full path written in the token's own notation (numeric squares for a numeric
/// token), so that suggestions speak the record's notation.
fn in_style(m: &Move, tok: &Token) -> String {
    crate::notation::format_path(m, tok.is_numeric(), true)
}

fn pieces(n: usize) -> String {
    if n == 1 {
        "1 piece".to_string()
    } else {
        format!("{n} pieces")
    }
}

/// A maximal chain to show the player: one of the piece on `prefer` if it has one, else the
/// first in path order.
fn example_chain(pos: &Position, rules: Tama, prefer: Square, max: usize) -> Option<Move> {
    let mut own: Option<(String, Move)> = None;
    let mut any: Option<(String, Move)> = None;
    chains(pos, rules, &mut |m| {
        if m.capture_count() != max {
            return;
        }
        let p = m.full_path();
        let slot = if m.from() == prefer {
            &mut own
        } else {
            &mut any
        };
        if slot.as_ref().is_none_or(|s| p < s.0) {
            *slot = Some((p, *m));
        }
    });
    own.or(any).map(|(_, m)| m)
}

fn ambiguous(pos: &Position, rules: Tama, tok: &Token, raw: &[u8], max: usize) -> Problem {
    let mut list = MoveList::new();
    chains_from(pos, rules, tok.from(), &mut |m| {
        if m.capture_count() == max
            && fit(tok.squares(), m.from(), m.path().iter().copied()) == Fit::Whole
        {
            list.push(*m);
        }
    });
    // One path per resulting position: the smallest full path of each.
    let mut paths: Vec<(Move, String)> = Vec::new();
    for m in list.iter() {
        let p = m.full_path();
        match paths.iter_mut().find(|(k, _)| k.same_result(m)) {
            Some((_, q)) => {
                if p < *q {
                    *q = p;
                }
            }
            None => paths.push((*m, p)),
        }
    }
    // Each move it fits is drawn along its own path (the token's squares alone would draw a
    // straight line that matches none of them).
    let fits: Vec<Vec<(u8, u8)>> = paths.iter().map(|(m, _)| move_path(m)).collect();
    let mut names: Vec<String> = paths.into_iter().map(|(m, _)| in_style(&m, tok)).collect();
    names.sort();
    Problem::new(
        Code::AmbiguousMove,
        format!(
            "{} is ambiguous: it fits {} moves that capture different pieces ({}); write the full path",
            String::from_utf8_lossy(raw).trim(),
            names.len(),
            names.join(", ")
        ),
    )
    .with_played(fits)
}

fn man_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Man => "man",
        Kind::King => "king",
    }
}

/// Squares strictly between `a` and `b` on direction `d`.
#[inline]
fn between(a: Square, b: Square, d: Dir) -> u64 {
    RAYS[d as usize][a.index() as usize] & !RAYS[d as usize][b.index() as usize] & !b.bit()
}

fn squares_of(mut bb: u64) -> Vec<Square> {
    let mut v = Vec::new();
    while bb != 0 {
        v.push(Square::from_index_unchecked(bb.trailing_zeros() as u8));
        bb &= bb - 1;
    }
    v
}

/// The first square of `bb` seen from `a` along `d`.
fn first_from(a: Square, d: Dir, bb: u64) -> Square {
    let mut sq = a;
    while let Some(n) = sq.step(d) {
        if bb & n.bit() != 0 {
            return n;
        }
        sq = n;
    }
    a
}

/// Forward-relative (file step, rank step) from `a` to `b` for `side`.
fn rel(side: Side, a: Square, b: Square) -> (i8, i8) {
    let df = b.file() - a.file();
    let dr = b.rank() - a.rank();
    match side {
        Side::White => (df, dr),
        Side::Black => (df, -dr),
    }
}

/// Builds the `illegal-move` problem, with the reason in words.
fn illegal(pos: &Position, rules: Tama, tok: &Token, raw: &[u8]) -> Problem {
    let shown = String::from_utf8_lossy(raw);
    let reason = explain(pos, rules, tok);
    Problem::new(
        Code::IllegalMove,
        format!("{} is illegal: {reason}", shown.trim()),
    )
}

fn explain(pos: &Position, rules: Tama, tok: &Token) -> String {
    let us = pos.side_to_move();
    let from = tok.from();
    let Some(piece) = pos.piece_at(from) else {
        return format!("there is no piece on {from}");
    };
    if piece.side != us {
        return format!("{from} holds a {} but {us} is to move", piece.describe());
    }
    let squares = tok.squares();
    let capture_written = tok.separator() == Separator::Capture;
    let (df, dr) = rel(us, from, tok.to());
    let long_man_jump = piece.kind == Kind::Man
        && squares.len() == 2
        && dr >= 0
        && (df == 0 || dr == 0)
        && df.abs().max(dr) > 2;
    let reason = if long_man_jump {
        // A short form over several jumps: only the chains can tell.
        None
    } else if squares.len() == 2 && !capture_written {
        explain_step(pos, rules, piece.kind, from, squares[1])
    } else {
        explain_path(pos, rules, piece.kind, squares)
    };
    if let Some(r) = reason {
        return r;
    }
    // Every step looked possible: the token names a jump sequence that is not a whole move,
    // or a quiet move while a capture is compulsory.
    let mut chains = MoveList::new();
    chains_from(pos, rules, from, &mut |m| chains.push(*m));
    if chains.is_empty() {
        if has_capture_with(pos, rules) {
            return "a capture is compulsory and this is not one".to_string();
        }
        return format!(
            "the {} on {from} has nothing to capture",
            man_word(piece.kind)
        );
    }
    let mut paths: Vec<String> = chains.iter().map(Move::full_path).collect();
    paths.sort();
    paths.dedup();
    format!(
        "no capture of the {} on {from} goes this way; it can play {}",
        man_word(piece.kind),
        paths.first().cloned().unwrap_or_default()
    )
}

/// A two-square token written without a capture sign: a step or slide, or perhaps a jump.
fn explain_step(
    pos: &Position,
    rules: Tama,
    kind: Kind,
    from: Square,
    to: Square,
) -> Option<String> {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let own = pos.pieces(us);
    if from == to {
        return Some("a move must leave its square".to_string());
    }
    match kind {
        Kind::Man => {
            let (df, dr) = rel(us, from, to);
            if dr < 0 {
                return Some("a man cannot move backwards".to_string());
            }
            let dist = df.abs().max(dr);
            if dist == 1 {
                if occ & to.bit() != 0 {
                    return Some(format!("{to} is occupied"));
                }
                return None;
            }
            let orth = df == 0 || dr == 0;
            if dist == 2 && orth {
                let d = Dir::between(from, to)?;
                let mid = from.step(d)?;
                if occ & mid.bit() == 0 {
                    return Some("a man moves one square".to_string());
                }
                if own & mid.bit() != 0 {
                    return Some(format!("a man cannot jump its own piece on {mid}"));
                }
                if occ & to.bit() != 0 {
                    return Some(format!("{to} is occupied"));
                }
                return None;
            }
            if dist == 2 && df.abs() == 2 && dr == 2 {
                let d = Dir::between(from, to)?;
                let mid = from.step(d)?;
                if pos.pieces(us.opponent()) & mid.bit() != 0 {
                    return Some("men capture forward or sideways, not diagonally".to_string());
                }
            }
            Some("a man moves one square".to_string())
        }
        Kind::King => {
            let Some(d) = Dir::between(from, to) else {
                return Some("a king moves along a rank, file or diagonal".to_string());
            };
            if occ & to.bit() != 0 {
                return Some(format!("{to} is occupied"));
            }
            if rules.schmidt
                && (to.file() - from.file())
                    .abs()
                    .max((to.rank() - from.rank()).abs())
                    > 1
            {
                let jump = d.is_orthogonal()
                    && (to.file() - from.file())
                        .abs()
                        .max((to.rank() - from.rank()).abs())
                        == 2
                    && from
                        .step(d)
                        .is_some_and(|m| pos.pieces(us.opponent()) & m.bit() != 0);
                if !jump {
                    return Some(SHORT_KING_STEP.to_string());
                }
                return None;
            }
            let on_way = between(from, to, d) & occ;
            if on_way == 0 {
                return None;
            }
            let first = first_from(from, d, on_way);
            if !d.is_orthogonal()
                && on_way.count_ones() == 1
                && pos.pieces(us.opponent()) & on_way != 0
            {
                return Some(format!(
                    "a king's path is blocked at {first}, and kings capture along ranks and files, not diagonally"
                ));
            }
            if d.is_orthogonal() && on_way.count_ones() == 1 && own & on_way == 0 {
                // A possible jump written with `-`.
                return None;
            }
            Some(format!("a king's path is blocked at {first}"))
        }
    }
}

/// A token read as a capture: each pair of consecutive squares is checked as one jump, with
/// captured pieces removed at once, as the chain would be played.
fn explain_path(pos: &Position, rules: Tama, kind: Kind, squares: &[Square]) -> Option<String> {
    let us = pos.side_to_move();
    let enemy0 = pos.pieces(us.opponent());
    let mut at = Jumping {
        us,
        rules,
        own: pos.pieces(us) & !squares[0].bit(),
        enemy0,
        enemy: enemy0,
        last: None,
    };
    let mut king = kind == Kind::King;
    let mut crowned_as_man = false;
    for w in squares.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a == b {
            return Some(format!("{a} is named twice in a row"));
        }
        let d = Dir::between(a, b);
        let jump = if king {
            at.king_jump(a, b, d)
        } else {
            at.man_jump(a, b, d, crowned_as_man)
        };
        let victim = match jump {
            Jump::Over(victim) => victim,
            Jump::Wrong(message) => return Some(message),
            Jump::Unexplained => return None,
        };
        if !king && b.rank() == us.far_rank() {
            if rules.ludii {
                crowned_as_man = true;
            } else {
                king = true;
            }
        }
        at.enemy &= !victim.bit();
        at.last = d;
    }
    None
}

/// One jump of a path as [`explain_path`] reads it: over the piece on a square, or why it
/// is wrong, or wrong in a way it does not explain.
enum Jump {
    Over(Square),
    Wrong(String),
    Unexplained,
}

/// Where a path being explained stands: the pieces left and the last jump's direction.
struct Jumping {
    us: Side,
    rules: Tama,
    /// The mover's pieces, without the moving one.
    own: u64,
    /// The enemy pieces before the move.
    enemy0: u64,
    /// The enemy pieces not yet jumped.
    enemy: u64,
    last: Option<Dir>,
}

impl Jumping {
    /// A king's jump from `a` to `b`.
    fn king_jump(&self, a: Square, b: Square, d: Option<Dir>) -> Jump {
        let (own, enemy0, enemy, last, rules) =
            (self.own, self.enemy0, self.enemy, self.last, self.rules);
        let occ = own | enemy;
        let Some(d) = d else {
            return Jump::Wrong(format!(
                "a king captures along a rank or file; {a} and {b} are not on one"
            ));
        };
        if !d.is_orthogonal() {
            return Jump::Wrong(format!(
                "kings capture along ranks and files, not diagonally ({a}x{b})"
            ));
        }
        if last == Some(d.opposite()) {
            return Jump::Wrong(format!(
                "a capturing piece may not turn back by 180° between two jumps (at {a})"
            ));
        }
        if occ & b.bit() != 0 {
            return Jump::Wrong(format!("{b} is occupied"));
        }
        if rules.schmidt && (b.file() - a.file()).abs().max((b.rank() - a.rank()).abs()) != 2 {
            return Jump::Wrong(format!("{SHORT_KING_JUMP} ({a}x{b})"));
        }
        let on_way = between(a, b, d) & occ;
        if on_way == 0 {
            let taken = between(a, b, d) & enemy0 & !enemy;
            if taken != 0 {
                let t = squares_of(taken)[0];
                return Jump::Wrong(format!(
                    "there is no piece to capture between {a} and {b} (the piece on {t} was already taken in this move)"
                ));
            }
            return Jump::Wrong(format!("there is no piece to capture between {a} and {b}"));
        }
        let first = first_from(a, d, on_way);
        if own & first.bit() != 0 {
            return Jump::Wrong(format!("a king cannot jump its own piece on {first}"));
        }
        if on_way.count_ones() > 1 {
            let v = squares_of(on_way);
            let mut names: Vec<String> = v.iter().map(Square::to_string).collect();
            if d == Dir::S || d == Dir::W {
                names.reverse();
            }
            return Jump::Wrong(format!(
                "a king takes one piece per jump, but {} stand between {a} and {b}",
                names.join(" and ")
            ));
        }
        Jump::Over(first)
    }

    /// A man's jump from `a` to `b` (`crowned_as_man`: it reached the far rank earlier in
    /// the chain under the `ludii` rules).
    fn man_jump(&self, a: Square, b: Square, d: Option<Dir>, crowned_as_man: bool) -> Jump {
        let (us, own, enemy0, enemy, last) =
            (self.us, self.own, self.enemy0, self.enemy, self.last);
        let occ = own | enemy;
        let gone = |sq: Square| enemy0 & !enemy & sq.bit() != 0;
        let (df, dr) = rel(us, a, b);
        if crowned_as_man && d.is_some_and(Dir::is_orthogonal) && dr <= 0 {
            // `ludii`: a man that reached the far rank goes on as a man.
            if df.abs() > 2 || dr < 0 {
                return Jump::Wrong(format!(
                    "under the ludii rules a man that reaches the far rank during a capture goes on as a man and is crowned only when the chain ends ({a}x{b})"
                ));
            }
        }
        if dr < 0 {
            return Jump::Wrong(format!("a man cannot capture backwards ({a}x{b})"));
        }
        if df != 0 && dr != 0 {
            if df.abs() == dr && dr == 2 {
                return Jump::Wrong(format!(
                    "men capture forward or sideways, not diagonally ({a}x{b})"
                ));
            }
            return Jump::Wrong(format!(
                "a man jumps straight forward or sideways over one adjacent piece ({a}x{b})"
            ));
        }
        if df.abs().max(dr) != 2 {
            return Jump::Wrong(format!(
                "a man jumps over one adjacent piece to the square right behind it ({a}x{b})"
            ));
        }
        let Some(d) = d else {
            return Jump::Unexplained;
        };
        if last == Some(d.opposite()) {
            return Jump::Wrong(format!(
                "a capturing piece may not turn back by 180° between two jumps (at {a})"
            ));
        }
        let Some(mid) = a.step(d) else {
            return Jump::Unexplained;
        };
        if own & mid.bit() != 0 {
            return Jump::Wrong(format!("a man cannot jump its own piece on {mid}"));
        }
        if enemy & mid.bit() == 0 {
            if gone(mid) {
                return Jump::Wrong(format!(
                    "there is no piece to capture between {a} and {b} (the piece on {mid} was already taken in this move)"
                ));
            }
            return Jump::Wrong(format!("there is no piece to capture between {a} and {b}"));
        }
        if occ & b.bit() != 0 {
            return Jump::Wrong(format!("{b} is occupied"));
        }
        Jump::Over(mid)
    }
}

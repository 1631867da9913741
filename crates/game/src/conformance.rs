//! Checks that a rules crate's fast paths agree with the plain methods they stand for; the
//! rules crates call them from their tests, on every move of random games.

use crate::{Explore, Game, PlyFacts, TextList};

/// What differs between a fast path and the plain method it stands for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    /// [`Explore::describe_into`] wrote other texts than [`Explore::describe`] gives.
    #[error("describe_into wrote [{written}], describe gives [{expected}]")]
    Describe {
        /// The entries written, joined by ` | `.
        written: String,
        /// The entries expected, joined by ` | `.
        expected: String,
    },
    /// [`Game::write_position_into`] appended another text than [`Game::write_position`].
    #[error("write_position_into wrote {written:?}, write_position gives {plain:?}")]
    Position {
        /// What was appended.
        written: String,
        /// What `write_position` returns.
        plain: String,
    },
    /// [`Game::play_with_facts`] gave other facts than [`Game::facts`].
    #[error("play_with_facts gave {got}, facts gives {want}")]
    Facts {
        /// The facts written, as `{:?}` shows them.
        got: String,
        /// The facts of `facts`, as `{:?}` shows them.
        want: String,
    },
    /// [`Game::resolve_and_play`] did not give what [`Game::resolve`] and [`Game::play`] give.
    #[error("resolve_and_play {what}: {got}, resolve and play give {want}")]
    Resolved {
        /// What differs: the outcome (a move or a refusal) or the position after.
        what: &'static str,
        /// What `resolve_and_play` gave, written.
        got: String,
        /// What `resolve` and `play` give, written.
        want: String,
    },
    /// [`Game::play_with_facts`] left another position than [`Game::play`].
    #[error("play_with_facts left {got:?}, play leaves {want:?}")]
    Played {
        /// The position `play_with_facts` left, written.
        got: String,
        /// The position `play` leaves, written.
        want: String,
    },
}

/// Checks, for `mv` legal in `pos`, that [`Explore::describe_into`] writes the texts of
/// [`Explore::describe`], and that [`crate::Game::write_position_into`] appends what
/// [`crate::Game::write_position`] returns; an `Err` tells what differs.
pub fn writers_agree<G: Explore>(
    game: &G,
    pos: &G::Position,
    mv: &G::Move,
) -> Result<(), Disagreement> {
    let info = game.describe(pos, mv);
    let mut expected = TextList::new();
    expected.push("before");
    expected.push(&info.notation);
    expected.push(info.from.as_deref().unwrap_or_default());
    expected.push(info.to.as_deref().unwrap_or_default());
    for square in &info.captured {
        expected.push(square);
    }
    // Written after an entry, as the referee writes them: nothing before may be touched.
    let mut written = TextList::new();
    written.push("before");
    game.describe_into(pos, mv, &mut written);
    if written != expected {
        let all = |l: &TextList| l.range(0..l.len()).collect::<Vec<_>>().join(" | ");
        return Err(Disagreement::Describe {
            written: all(&written),
            expected: all(&expected),
        });
    }
    let mut out = String::from("x");
    game.write_position_into(pos, &mut out);
    let plain = game.write_position(pos);
    if out[1..] != plain {
        return Err(Disagreement::Position {
            written: out[1..].to_string(),
            plain,
        });
    }
    Ok(())
}

/// Checks, for `mv` legal in `pos`, that [`Game::play_with_facts`] leaves the position
/// [`Game::play`] leaves and returns what [`Game::facts`] gives; an `Err` tells what differs.
pub fn facts_agree<G: Game>(game: &G, pos: &G::Position, mv: &G::Move) -> Result<(), Disagreement> {
    let expected = game.facts(pos, mv);
    let mut played = pos.clone();
    game.play(&mut played, mv);
    let mut with_facts = pos.clone();
    let mut facts = PlyFacts::default();
    game.play_with_facts(&mut with_facts, mv, &mut facts);
    if facts != expected {
        return Err(Disagreement::Facts {
            got: format!("{facts:?}"),
            want: format!("{expected:?}"),
        });
    }
    let (got, want) = (
        game.write_position(&with_facts),
        game.write_position(&played),
    );
    if got != want {
        return Err(Disagreement::Played { got, want });
    }
    Ok(())
}

/// Checks that [`Game::resolve_and_play`] of `tokens` in `pos` gives what [`Game::resolve`]
/// and then [`Game::play`] give: the same move (compared by its written notation) or a refusal
/// with the same code, and the same position after a move, whatever `after` held before.
pub fn resolve_and_play_agrees<G: Game>(
    game: &G,
    pos: &G::Position,
    tokens: &[&[u8]],
    after: &mut G::Position,
) -> Result<(), Disagreement> {
    let outcome = |r: &Result<G::Move, crate::Problem>| match r {
        Ok(mv) => game.write_move(
            pos,
            mv,
            crate::Notation {
                numeric: false,
                full_captures: true,
            },
        ),
        Err(p) => format!("refused ({})", p.code),
    };
    let plain = game.resolve(pos, tokens);
    let fused = game.resolve_and_play(pos, tokens, after);
    let (got, want) = (outcome(&fused), outcome(&plain));
    if got != want {
        return Err(Disagreement::Resolved {
            what: "outcome",
            got,
            want,
        });
    }
    if let Ok(mv) = &plain {
        let mut played = pos.clone();
        game.play(&mut played, mv);
        let (got, want) = (game.write_position(after), game.write_position(&played));
        if got != want {
            return Err(Disagreement::Resolved {
                what: "position after",
                got,
                want,
            });
        }
    }
    Ok(())
}

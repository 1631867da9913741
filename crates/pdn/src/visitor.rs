//! The streaming interface: a [`Visitor`] receives one game's pieces as borrowed slices.

use std::fmt;
use std::ops::ControlFlow;

/// A half-open byte range `[start, end)` in the input stream (absolute offsets from the start
/// of the stream, counting a byte-order mark if present).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u64,
    /// Offset one past the last byte.
    pub end: u64,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: u64, end: u64) -> Self {
        Span { start, end }
    }
}

/// How sure the reader is that something is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Something worth knowing that is not a fault (how a game was identified, a known
    /// exporter's habit).
    Note,
    /// Tolerated deviation from the standard; the game is read as intended.
    Warning,
    /// The text is broken here; some of it could not be read as intended.
    Error,
}

impl Severity {
    /// `note`, `warning` or `error`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// The severity with this name.
    pub fn from_name(name: &str) -> Option<Severity> {
        [Severity::Note, Severity::Warning, Severity::Error]
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

/// The kind of a [`SyntaxProblem`]. Each kind has a stable kebab-case name ([`SyntaxKind::as_str`],
/// also its [`fmt::Display`] form and its JSON form) that diagnostics show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SyntaxKind {
    /// A `{` inside a brace comment (comments do not nest).
    NestedComment,
    /// A brace comment without its closing `}`.
    UnterminatedComment,
    /// A `}` outside a comment.
    UnmatchedBrace,
    /// A tag pair that is not `[Name \"value\"]`; read as well as it can be, or kept as text.
    BadTag,
    /// A tag value without its closing quote on the line; kept as text.
    UnterminatedTag,
    /// A move number with a leading zero, 0, or too large.
    BadMoveNumber,
    /// A move number not followed by a move.
    MissingMove,
    /// `- -`: a move that was not recorded.
    UnknownMove,
    /// A token out of place (e.g. dots that follow no move number).
    UnexpectedToken,
    /// `$` not followed by a number from 0 to 65535.
    BadNag,
    /// A malformed setup command `/FEN \"...\"/`.
    BadSetup,
    /// A Thaayam throw group `[1 4` without its `]`.
    BadThrowGroup,
    /// A `)` without a variation to close.
    UnmatchedParen,
    /// A variation still open when the game ends.
    UnclosedVariation,
    /// A variation without a move.
    EmptyVariation,
    /// A result inside a variation.
    ResultInVariation,
    /// A game whose movetext is followed by the next game's tags without a result.
    MissingResult,
    /// A token longer than the reader's buffer limit; skipped.
    TooLong,
    /// Variations nested deeper than [`crate::MAX_DEPTH`]; skipped.
    TooDeep,
    /// Text outside a comment (words, or a token the grammar does not know); kept as a comment.
    StrayText,
    /// A move number followed by two dots or more than three.
    MoveNumberDots,
}

impl SyntaxKind {
    /// Every kind, in a fixed order.
    pub const ALL: [SyntaxKind; 21] = [
        SyntaxKind::NestedComment,
        SyntaxKind::UnterminatedComment,
        SyntaxKind::UnmatchedBrace,
        SyntaxKind::BadTag,
        SyntaxKind::UnterminatedTag,
        SyntaxKind::BadMoveNumber,
        SyntaxKind::MissingMove,
        SyntaxKind::UnknownMove,
        SyntaxKind::UnexpectedToken,
        SyntaxKind::BadNag,
        SyntaxKind::BadSetup,
        SyntaxKind::BadThrowGroup,
        SyntaxKind::UnmatchedParen,
        SyntaxKind::UnclosedVariation,
        SyntaxKind::EmptyVariation,
        SyntaxKind::ResultInVariation,
        SyntaxKind::MissingResult,
        SyntaxKind::TooLong,
        SyntaxKind::TooDeep,
        SyntaxKind::StrayText,
        SyntaxKind::MoveNumberDots,
    ];

    /// The stable name, e.g. `unterminated-comment`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SyntaxKind::NestedComment => "nested-comment",
            SyntaxKind::UnterminatedComment => "unterminated-comment",
            SyntaxKind::UnmatchedBrace => "unmatched-brace",
            SyntaxKind::BadTag => "bad-tag",
            SyntaxKind::UnterminatedTag => "unterminated-tag",
            SyntaxKind::BadMoveNumber => "bad-move-number",
            SyntaxKind::MissingMove => "missing-move",
            SyntaxKind::UnknownMove => "unknown-move",
            SyntaxKind::UnexpectedToken => "unexpected-token",
            SyntaxKind::BadNag => "bad-nag",
            SyntaxKind::BadSetup => "bad-setup",
            SyntaxKind::BadThrowGroup => "bad-throw-group",
            SyntaxKind::UnmatchedParen => "unmatched-paren",
            SyntaxKind::UnclosedVariation => "unclosed-variation",
            SyntaxKind::EmptyVariation => "empty-variation",
            SyntaxKind::ResultInVariation => "result-in-variation",
            SyntaxKind::MissingResult => "missing-result",
            SyntaxKind::TooLong => "too-long",
            SyntaxKind::TooDeep => "too-deep",
            SyntaxKind::StrayText => "stray-text",
            SyntaxKind::MoveNumberDots => "move-number-dots",
        }
    }

    /// The kind with this stable name.
    pub fn from_name(name: &str) -> Option<SyntaxKind> {
        SyntaxKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for SyntaxKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for SyntaxKind {
    type Err = UnknownSyntaxKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SyntaxKind::from_name(s).ok_or_else(|| UnknownSyntaxKind(s.to_string()))
    }
}

/// A name that is not a [`SyntaxKind`]'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSyntaxKind(pub String);

impl fmt::Display for UnknownSyntaxKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown syntax problem kind {:?}", self.0)
    }
}

impl std::error::Error for UnknownSyntaxKind {}

impl PartialEq<&str> for SyntaxKind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A syntax problem found by the reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxProblem {
    /// Where the problem is.
    pub span: Span,
    /// Error or warning.
    pub severity: Severity,
    /// What kind of problem it is ([`SyntaxKind::as_str`] gives its stable name, e.g.
    /// `unterminated-comment`).
    pub kind: SyntaxKind,
    /// A sentence for the user.
    pub message: String,
}

/// Kind of a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{ ... }`
    Brace,
    /// `% ...` or `; ...` to the end of the line.
    Line,
}

/// Receives the parts of one game, in file order. Every callback may return
/// `ControlFlow::Break(())` to skip the rest of the game (the reader then fast-forwards to the
/// end of the game and calls [`Visitor::end_game`]); `begin_variation` returning `Break` skips
/// only that variation.
///
/// Slices borrow the reader's buffer and are valid only during the call.
pub trait Visitor {
    /// What [`Visitor::end_game`] produces for each game.
    type Output;

    /// A new game starts at byte `offset`.
    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        let _ = offset;
        ControlFlow::Continue(())
    }

    /// A tag pair. `value` is raw: the `\"` escape is still in it (see [`crate::unescape`]).
    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        let _ = (name, value, span);
        ControlFlow::Continue(())
    }

    /// The tags are over and movetext begins (called once per game, even if it is empty).
    /// Comments and stray text between or after the tags come before it: only a movetext
    /// token (move, move number, annotation, variation, setup, result) ends the tags.
    fn begin_movetext(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A move number `12.` (`continuation` false) or `12...` / `12. ...` (`continuation` true).
    fn move_number(&mut self, number: u32, continuation: bool, span: Span) -> ControlFlow<()> {
        let _ = (number, continuation, span);
        ControlFlow::Continue(())
    }

    /// A move token, raw (`32-28`, `1- 6` joined, `c3xc5xe5`, `[1 4 2]`, `in`, ...). Padded
    /// forms are passed as written; the span covers the whole token.
    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        let _ = (token, span);
        ControlFlow::Continue(())
    }

    /// A move strength mark attached to the previous move: `!`, `?`, `!!`, `!?`, `?!`, `??`
    /// (parenthesised forms are passed without the parentheses).
    fn strength(&mut self, mark: &[u8], span: Span) -> ControlFlow<()> {
        let _ = (mark, span);
        ControlFlow::Continue(())
    }

    /// A numeric annotation glyph `$n`.
    fn nag(&mut self, nag: u16, span: Span) -> ControlFlow<()> {
        let _ = (nag, span);
        ControlFlow::Continue(())
    }

    /// A comment, without its delimiters. Comment commands such as `[%clk 1:02:03]` stay in
    /// the text (see [`crate::commands`]). Text the reader could not read as anything else
    /// (stray words, `[Empty]`, a literal `\r`, an unmatched `)`, ...) comes here too, as
    /// written, after a [`Visitor::problem`] that says so: a brace comment, or a line comment
    /// for a stray `}`.
    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) -> ControlFlow<()> {
        let _ = (text, kind, span);
        ControlFlow::Continue(())
    }

    /// A setup command `/FEN "..."/` in movetext: the position string, unescaped.
    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        let _ = (fen, span);
        ControlFlow::Continue(())
    }

    /// `(` opens a variation: an alternative to the last move played.
    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        let _ = span;
        ControlFlow::Continue(())
    }

    /// `)` closes the innermost variation.
    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        let _ = span;
        ControlFlow::Continue(())
    }

    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`, `2-0`, `0-2`, `1-1`, `0-0`,
    /// a seat result such as `S+` or `S+W-`, or `-` when the game's `Result` tag is `-`).
    /// Comments and stray text may follow it when nothing else follows up to the end of the
    /// input.
    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        let _ = (token, span);
        ControlFlow::Continue(())
    }

    /// A syntax error or warning. Reading goes on after it.
    fn problem(&mut self, problem: SyntaxProblem) {
        let _ = problem;
    }

    /// The game ends: after its result (and the comments that follow it when nothing else
    /// does, up to the end of the input), where the next game's tags begin after movetext,
    /// where a tag repeats a name of a tag section without movetext (that section is a game
    /// of its own), or at the end of the input. `span` covers the whole game.
    fn end_game(&mut self, span: Span) -> Self::Output;
}

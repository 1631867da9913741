//! `default_game`: the game of records whose `Variant` and `GameType` tags name none.
//!
//! The referee has no such setting yet (only `game`, which forces a game on every record),
//! so this layer provides it: a visitor in front of the referee that, when the tags read
//! before the movetext identify no game, hands the referee one more `Variant` tag naming the
//! default game. Records whose tags name a game are left alone.

use std::ops::ControlFlow;

use game::GameInfo;
use pdn::{CommentKind, Span, SyntaxProblem, Visitor};

/// A visitor that supplies the default game's `Variant` tag where the record names no game.
pub struct WithDefault<V> {
    pub inner: V,
    default: Option<&'static GameInfo>,
    variant: Option<String>,
    game_type: Option<String>,
    offset: u64,
    /// The current game was given the default game.
    pub injected: bool,
}

impl<V: Visitor> WithDefault<V> {
    pub fn new(inner: V, default: Option<&'static GameInfo>) -> Self {
        WithDefault {
            inner,
            default,
            variant: None,
            game_type: None,
            offset: 0,
            injected: false,
        }
    }
}

fn text(value: &[u8]) -> String {
    pdn::decode(&pdn::unescape(value)).trim().to_string()
}

impl<V: Visitor> Visitor for WithDefault<V> {
    type Output = V::Output;

    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.variant = None;
        self.game_type = None;
        self.offset = offset;
        self.injected = false;
        self.inner.begin_game(offset)
    }
    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        if self.default.is_some() {
            // The last value counts, as for the referee.
            if name.eq_ignore_ascii_case(b"Variant") {
                self.variant = Some(text(value));
            } else if name.eq_ignore_ascii_case(b"GameType") {
                self.game_type = Some(text(value));
            }
        }
        self.inner.tag(name, value, span)
    }
    fn begin_movetext(&mut self) -> ControlFlow<()> {
        if let Some(default) = self.default {
            let named = crate::registry()
                .identify(self.variant.as_deref(), self.game_type.as_deref())
                .is_ok();
            if !named {
                self.injected = true;
                let at = Span::new(self.offset, self.offset);
                let _ = self.inner.tag(b"Variant", default.id.as_bytes(), at);
            }
        }
        self.inner.begin_movetext()
    }
    fn move_number(&mut self, number: u32, continuation: bool, span: Span) -> ControlFlow<()> {
        self.inner.move_number(number, continuation, span)
    }
    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.inner.mov(token, span)
    }
    fn strength(&mut self, mark: &[u8], span: Span) -> ControlFlow<()> {
        self.inner.strength(mark, span)
    }
    fn nag(&mut self, nag: u16, span: Span) -> ControlFlow<()> {
        self.inner.nag(nag, span)
    }
    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) -> ControlFlow<()> {
        self.inner.comment(text, kind, span)
    }
    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        self.inner.setup(fen, span)
    }
    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.inner.begin_variation(span)
    }
    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.inner.end_variation(span)
    }
    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.inner.result(token, span)
    }
    fn problem(&mut self, problem: SyntaxProblem) {
        self.inner.problem(problem)
    }
    fn end_game(&mut self, span: Span) -> V::Output {
        self.inner.end_game(span)
    }
}

//! Shared test helpers: a visitor that logs every event as a line of text.

#![allow(dead_code)]

use std::fmt::Write;
use std::ops::ControlFlow;

use pdn::{CommentKind, Span, SyntaxProblem, Visitor};

/// Logs events; `end_game` returns the log of the game.
#[derive(Default)]
pub struct Log {
    out: String,
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn sp(span: Span) -> String {
    format!("@{}..{}", span.start, span.end)
}

impl Log {
    fn line(&mut self, text: String) -> ControlFlow<()> {
        self.out.push_str(&text);
        self.out.push('\n');
        ControlFlow::Continue(())
    }
}

impl Visitor for Log {
    type Output = String;

    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.out.clear();
        self.line(format!("begin_game {offset}"))
    }
    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        self.line(format!("tag {} = {:?} {}", s(name), s(value), sp(span)))
    }
    fn begin_movetext(&mut self) -> ControlFlow<()> {
        self.line("begin_movetext".into())
    }
    fn move_number(&mut self, number: u32, continuation: bool, span: Span) -> ControlFlow<()> {
        let dots = if continuation { "..." } else { "." };
        self.line(format!("number {number}{dots} {}", sp(span)))
    }
    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.line(format!("move {:?} {}", s(token), sp(span)))
    }
    fn strength(&mut self, mark: &[u8], span: Span) -> ControlFlow<()> {
        self.line(format!("strength {:?} {}", s(mark), sp(span)))
    }
    fn nag(&mut self, nag: u16, span: Span) -> ControlFlow<()> {
        self.line(format!("nag {nag} {}", sp(span)))
    }
    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) -> ControlFlow<()> {
        self.line(format!("comment {kind:?} {:?} {}", s(text), sp(span)))
    }
    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        self.line(format!("setup {:?} {}", s(fen), sp(span)))
    }
    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.line(format!("( {}", sp(span)))
    }
    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.line(format!(") {}", sp(span)))
    }
    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.line(format!("result {:?} {}", s(token), sp(span)))
    }
    fn problem(&mut self, p: SyntaxProblem) {
        let _ = writeln!(
            self.out,
            "problem {:?} {} {}",
            p.severity,
            p.kind,
            sp(p.span)
        );
    }
    fn end_game(&mut self, span: Span) -> String {
        let _ = writeln!(self.out, "end_game {}", sp(span));
        std::mem::take(&mut self.out)
    }
}

/// The event log of every game of `input`, games separated by a blank line.
pub fn log(input: &[u8]) -> String {
    let mut r = pdn::Reader::new(input);
    let mut v = Log::default();
    let mut out = Vec::new();
    while let Some(g) = r.read_game(&mut v).expect("no I/O error") {
        out.push(g);
    }
    out.join("\n")
}

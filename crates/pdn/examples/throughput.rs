//! Reads a PDN file from memory several times with a counting visitor (the one of the
//! `read` benchmark) and prints the rate.
//!
//! `cargo run --release -p pdn --example throughput -- FILE [REPEAT]`
//!
//! The wall-clock rate is printed; run it under `perf stat` to get CPU time on a busy machine.

use std::ops::ControlFlow;
use std::time::Instant;

use pdn::{Reader, Span, Visitor};

#[derive(Default)]
struct Count {
    tokens: u64,
}

impl Visitor for Count {
    type Output = ();
    fn mov(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &[u8], _: &[u8], _: Span) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn move_number(&mut self, _: u32, _: bool, _: Span) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &[u8], _: pdn::CommentKind, _: Span) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn result(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
        self.tokens += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: Span) {}
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: throughput FILE [REPEAT]");
    let repeat: u32 = args.next().map_or(10, |r| r.parse().expect("a number"));
    let bytes = std::fs::read(path)?;
    let start = Instant::now();
    let (mut games, mut moves) = (0u64, 0u64);
    for _ in 0..repeat {
        let mut r = Reader::new(&bytes[..]);
        let mut v = Count::default();
        while r.read_game(&mut v)?.is_some() {
            games += 1;
        }
        moves += v.tokens;
    }
    let secs = start.elapsed().as_secs_f64();
    let mb = bytes.len() as f64 * f64::from(repeat) / 1e6;
    println!(
        "{:.1} MB in {secs:.3} s: {:.0} MB/s, {:.0} games/s ({games} games, {moves} moves)",
        mb,
        mb / secs,
        games as f64 / secs
    );
    Ok(())
}

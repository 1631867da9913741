//! `cargo run --release -p draughts --example perft -- VARIANT DEPTH [FEN|start] [only] [played]`
//! prints the count and time of every depth up to DEPTH (or of DEPTH alone with `only`), with
//! bulk counting at the last ply, or with every leaf played with `played`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = draughts::Variant::by_id(&args[1]).expect("variant");
    let d = draughts::Draughts::new(v);
    let depth: u32 = args[2].parse().unwrap();
    let pos = match args.get(3).map(String::as_str) {
        Some("start") | None => d.start(),
        Some(f) => draughts::Position::from_fen(d.geometry, f, v.first).unwrap(),
    };
    let flag = |name: &str| args[3.min(args.len())..].iter().any(|a| a == name);
    let first = if flag("only") { depth } else { 1 };
    let bulk = !flag("played");
    for k in first..=depth {
        let t = std::time::Instant::now();
        let n = d.perft_with(&pos, k, bulk, None);
        let s = t.elapsed().as_secs_f64();
        println!("{k} {n} {s:.3}s {:.1} M/s", n as f64 / s / 1e6);
    }
}

//! `cargo run --release -p draughts --example perft -- VARIANT DEPTH [FEN|start] [only]`
//! prints the count and time of every depth up to DEPTH (or of DEPTH alone with `only`).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = draughts::Variant::by_id(&args[1]).expect("variant");
    let d = draughts::Draughts::new(v);
    let depth: u32 = args[2].parse().unwrap();
    let pos = match args.get(3).map(String::as_str) {
        Some("start") | None => d.start(),
        Some(f) => draughts::Position::from_fen(d.geometry, f, v.first).unwrap(),
    };
    let first = if args.get(4).is_some_and(|a| a == "only") {
        depth
    } else {
        1
    };
    for k in first..=depth {
        let t = std::time::Instant::now();
        let n = d.perft(&pos, k);
        println!("{k} {n} {:.3}s", t.elapsed().as_secs_f64());
    }
}

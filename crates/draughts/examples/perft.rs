//! `cargo run --release -p draughts --example perft -- VARIANT DEPTH [FEN]`
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = draughts::Variant::by_id(&args[1]).expect("variant");
    let d = draughts::Draughts::new(v);
    let depth: u32 = args[2].parse().unwrap();
    let pos = match args.get(3) {
        Some(f) => draughts::Position::from_fen(d.geometry, f, v.first).unwrap(),
        None => d.start(),
    };
    for k in 1..=depth {
        let t = std::time::Instant::now();
        let n = d.perft(&pos, k);
        println!("{k} {n} {:.3}s", t.elapsed().as_secs_f64());
    }
}

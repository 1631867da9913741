//! Prints what the resolver says about a token: `explain VARIANT FEN|start TOKEN...`
use game::Game;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let d = draughts::Draughts::new(draughts::Variant::by_id(&a[1]).expect("variant"));
    let pos = if a[2] == "start" {
        d.start()
    } else {
        d.parse_position(&a[2]).expect("FEN")
    };
    for t in &a[3..] {
        match d.resolve(&pos, &[t.as_bytes()]) {
            Ok(m) => println!("{t}: ok {}", d.path_text(&m, true, true)),
            Err(p) => println!("{t}: [{}] {}", p.code, p.message),
        }
    }
}

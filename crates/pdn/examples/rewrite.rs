//! Reads a PDN file and writes it back as canonical PDN on standard output.
//!
//! `cargo run -p pdn --example rewrite -- FILE`

use std::io::Write;

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).expect("usage: rewrite FILE");
    let file = std::io::BufReader::new(std::fs::File::open(path)?);
    let mut out = pdn::Writer::new(std::io::stdout().lock());
    for game in pdn::Reader::new(file).records() {
        out.write(&game?)?;
    }
    out.finish()?.flush()
}

//! Arbitrary bytes through the PDN reader, the record builder and the writer.
//!
//! Checks: no panic; the same records whatever the buffer size; spans inside the input;
//! every record goes through the JSON form unchanged; every game read without errors is
//! written and read back with the same content and no errors; and all the games, errors
//! included, are written and read back as the same games, the writing being a fixed point
//! after one pass.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::{GameRecord, Reader, RecordBuilder};

fn read(bytes: &[u8], capacity: usize) -> Vec<GameRecord> {
    let mut reader = Reader::with_capacity(bytes, capacity, 1 << 20);
    let mut builder = RecordBuilder::new();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut builder).expect("a slice cannot fail") {
        let src = reader.source();
        assert!(src.offset <= game.span.start || game.span.start == game.span.end);
        for p in &game.problems {
            let at = reader.locate(p.span.start);
            assert!(at.line >= 1 && at.column >= 1);
        }
        games.push(game);
    }
    games
}

fuzz_target!(|data: &[u8]| {
    let capacity = 16 + usize::from(data.first().copied().unwrap_or(0) % 64);
    let games = read(data, 1 << 16);
    assert_eq!(
        games,
        read(data, capacity),
        "buffer size changed the result"
    );
    let mut last = 0;
    for g in &games {
        assert!(last <= g.span.start && g.span.start <= g.span.end);
        assert!(g.span.end <= data.len() as u64);
        last = g.span.end;
        // Whatever the JSON writer writes, the JSON reader reads, errors or not.
        match GameRecord::from_json(&g.to_json()) {
            Ok(back) => assert_eq!(&back, g, "JSON changed the record"),
            Err(e) => panic!("the JSON form does not read back: {e}\n{g:?}"),
        }
        if g.has_errors() {
            continue;
        }
        if let Err(e) = g.validate() {
            panic!("an error-free game is not writable: {e}\n{g:?}");
        }
        let text = g.to_pdn();
        let back = pdn::read_all(text.as_bytes());
        assert_eq!(back.len(), 1, "{text}");
        assert!(back[0].same_content(g), "{text}\n{g:#?}\n{:#?}", back[0]);
        assert!(!back[0].has_errors(), "{text}\n{:?}", back[0].problems);
        assert_eq!(back[0].to_pdn(), text, "writing is not a fixed point");
    }
    // All the games written together (errors included) read back as the same games, with
    // the same content (a game without result is written with `*`), and writing them again
    // gives the same text: one pass settles.
    let kept: Vec<&GameRecord> = games.iter().filter(|g| !g.is_empty()).collect();
    let text = pdn::write_pdn(kept.iter().copied());
    let back = pdn::read_all(text.as_bytes());
    assert_eq!(back.len(), kept.len(), "{text}");
    for (a, b) in kept.iter().zip(&back) {
        let mut a = (*a).clone();
        if a.result.is_none() {
            a.result.clone_from(&b.result);
        }
        assert!(a.same_content(b), "{text}\n{a:#?}\n{b:#?}");
    }
    assert_eq!(pdn::write_pdn(&back), text, "writing is not a fixed point");
});

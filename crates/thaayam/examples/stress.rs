//! Times the rule-17 search and the play listing on long series (a sanity check, not a test).
use game::Game;
use std::time::Instant;
use thaayam::Thaayam;

fn main() {
    let g = Thaayam::default();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "S:S=c1x2,Tc5,h0/N=h4",
            [vec![1u8; 10], vec![4; 10], vec![8; 11], vec![2]].concat(),
        ),
        (
            "S:S=c1,d1,e1,e2/N=h4",
            [vec![1u8; 8], vec![4; 8], vec![8; 15], vec![3]].concat(),
        ),
        (
            "S:S=h4/N=h4",
            [
                vec![4u8; 5],
                vec![1; 3],
                vec![8; 8],
                vec![4; 8],
                vec![1; 7],
                vec![3],
            ]
            .concat(),
        ),
        ("S:S=c2x2,d2x2/N=h4", [vec![8u8; 31], vec![3]].concat()),
        ("S:S=h2,c1,b4/N=h4", vec![1, 4, 8, 1, 4, 1, 2]),
    ];
    for (p, throws) in cases {
        let pos = g.parse_position(p).unwrap();
        let t = Instant::now();
        let m = g.max_throws(&pos, &throws).unwrap();
        let dt = t.elapsed();
        let t = Instant::now();
        let plays = g.plays(&pos, &throws);
        let dt2 = t.elapsed();
        println!(
            "{p} {} throws: max {m} in {dt:?}; plays: {} in {dt2:?}",
            throws.len(),
            plays
                .map(|v| v.len().to_string())
                .unwrap_or_else(|e| e.message)
        );
    }
}

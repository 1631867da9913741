//! Writes the analysis table of many games, to measure the writer's memory:
//! `/usr/bin/time -v cargo run --release -p export --example analysis_memory -- 10000 100 DIR`
//! (games, plies a game, folder). The rows are made up (a line of eight moves a ply, varied
//! evaluations), so only the writing is measured, not the engine.

use analysis::pipeline::Analysed;
use analysis::{Class, GameAnalysis, PlyAnalysis};
use export::{AnalysisSink, SinkOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (games, plies) = match (args.first(), args.get(1)) {
        (Some(g), Some(p)) => (g.parse::<u64>()?, p.parse::<u32>()?),
        _ => return Err("usage: analysis_memory GAMES PLIES DIR".into()),
    };
    let dir = std::path::PathBuf::from(args.get(2).ok_or("no folder given")?);
    let mut sink = AnalysisSink::create(&dir, SinkOptions::default())?;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut report = referee::GameReport::default();
    report.seats = vec![0, 1];
    for index in 1..=games {
        let mut analysis = GameAnalysis::default();
        for ply in 1..=plies {
            let r = next();
            let square = |k: u64| 1 + (r >> (6 * k)) % 50;
            let line: Vec<String> = (0..8)
                .map(|k| format!("{}-{}", square(k), square(k + 1)))
                .collect();
            let loss = (r % 300) as i32;
            analysis.plies.push(PlyAnalysis {
                ply,
                seat: (ply % 2) as u8,
                played: line[1].clone(),
                eval_before: (r >> 20) as i32 % 500,
                eval_after: (r >> 20) as i32 % 500 - loss,
                best: Some(line[0].clone()),
                line,
                loss,
                class: (loss > 200).then_some(Class::Blunder),
                accuracy: 100.0 - f64::from(loss) / 3.0,
                agreed: loss == 0,
                shot: Vec::new(),
                depth: 8,
                nodes: 20_000 + r % 1000,
            });
        }
        let game = Analysed {
            index,
            record: pdn::GameRecord::default(),
            report: report.clone(),
            analysis,
            skipped: None,
            failed: None,
            places: Vec::new(),
            nodes: Vec::new(),
        };
        sink.push_game("games.pdn", &game)?;
    }
    let rows = sink.finish()?;
    println!("{rows} rows written to {}", dir.display());
    Ok(())
}

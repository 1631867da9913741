//! The report in a real browser: headless Chromium renders report.html of a synthetic
//! multi-game corpus; the page's own check script marks elements wider than the window and
//! broken images into `<body data-problems>`, read back with `--dump-dom`; console errors are
//! read from Chromium's log. Skipped (with a notice) when /usr/bin/chromium is absent.
//!
//! Set `STATS_BROWSER_OUT=<dir>` to keep the report and the screenshots there.

#[path = "../../stats/benches/common/synth.rs"]
mod synth;

use std::path::{Path, PathBuf};
use std::process::Command;

use report::{ArrowStyle, Diagram, ProblemExample, ReportExtras};
use stats::Stats;

const CHROMIUM: &str = "/usr/bin/chromium";

fn out_dir() -> PathBuf {
    match std::env::var_os("STATS_BROWSER_OUT") {
        Some(d) => PathBuf::from(d),
        None => std::env::temp_dir().join(format!("stats-browser-{}", std::process::id())),
    }
}

/// Runs Chromium headless on `page` with `args`; returns (stdout, stderr).
fn chromium(page: &Path, width: u32, args: &[String]) -> (String, String) {
    let profile = tempdir("profile");
    let mut cmd = Command::new("timeout");
    cmd.arg("120").arg(CHROMIUM).args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    cmd.arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={width},1400"))
        .args(args)
        .arg(format!("file://{}", page.display()));
    let out = cmd.output().expect("chromium runs");
    let _ = std::fs::remove_dir_all(profile);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tempdir(what: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "stats-browser-{what}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A corpus of every kind of game, with examples, one of them an ambiguous move with three
/// candidates.
fn write_report(dir: &Path) -> PathBuf {
    let mut rng = synth::Rng::new(11);
    let mut stats = Stats::default();
    for _ in 0..3_000 {
        stats.add(&synth::game(&mut rng).input());
    }
    let mut extras = ReportExtras::new();
    extras.set_title("Browser check");
    let shape = synth::ODNOCVETNIE.profile.board;
    let mut d = Diagram::empty(&shape, "Ambiguous capture");
    d.add_paths(
        &[
            vec![(1, 1), (3, 3), (5, 5)],
            vec![(1, 1), (3, 3), (1, 5)],
            vec![(1, 1), (3, 3), (5, 1)],
        ],
        ArrowStyle::Suggested,
    );
    extras.add_example(ProblemExample {
        title: "synth.pdn, game 7".into(),
        game: synth::ODNOCVETNIE.label.into(),
        code: "ambiguous-move".into(),
        message: "Three captures fit the move as written.".into(),
        diagram: Some(d),
    });
    let mut t = Diagram::empty(&synth::TAMA.profile.board, "Illegal move");
    t.add_paths(&[vec![(3, 2), (3, 3)]], ArrowStyle::Played);
    extras.add_example(ProblemExample {
        title: "synth.pdn, game 9".into(),
        game: synth::TAMA.label.into(),
        code: "illegal-move".into(),
        message: "No piece can move to d4.".into(),
        diagram: Some(t),
    });
    report::write_report(&stats, dir, &extras).unwrap().html
}

/// The value of `name="…"` on the `<body>` tag of a dumped DOM.
fn body_attr<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let body = &dom[dom.find("<body")?..];
    let tag = &body[..body.find('>')?];
    let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

#[test]
fn report_renders_cleanly_in_chromium() {
    if !Path::new(CHROMIUM).exists() {
        eprintln!("SKIPPED: {CHROMIUM} is absent (apt-get install chromium to run this test)");
        return;
    }
    let dir = out_dir();
    let _ = std::fs::remove_dir_all(&dir);
    // Every folded section open (`#all`), so that the whole page is checked.
    let html = write_report(&dir).with_file_name("report.html#all");
    for width in [1280u32, 900, 480] {
        let (dom, log) = chromium(&html, width, &["--dump-dom".to_string()]);
        assert_eq!(
            body_attr(&dom, "data-checked"),
            Some("yes"),
            "the check script ran at width {width}; log:\n{log}"
        );
        assert_eq!(
            body_attr(&dom, "data-problems"),
            Some(""),
            "layout problems at width {width}"
        );
        let console: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
            .collect();
        assert!(console.is_empty(), "console messages: {console:#?}");
        // Every chart is inline: as many SVG figures as charts listed in stats.json.
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("stats.json")).unwrap())
                .unwrap();
        let charts = json["charts"].as_array().unwrap().len();
        assert_eq!(dom.matches("<figure").count(), charts);
        assert!(charts >= 25, "{charts} charts");
        // The whole page: as tall as the check script measured it.
        let height: u32 = body_attr(&dom, "data-height")
            .and_then(|h| h.parse().ok())
            .expect("page height");
        assert!(height > 2_000, "height {height}");
        let shot = dir.join(format!("screenshot-{width}.png"));
        let _ = chromium(
            &html,
            width,
            &[
                format!("--screenshot={}", shot.display()),
                format!("--window-size={width},{height}"),
            ],
        );
        let bytes = std::fs::read(&shot).expect("screenshot written");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
    if std::env::var_os("STATS_BROWSER_OUT").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

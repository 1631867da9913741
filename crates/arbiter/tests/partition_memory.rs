//! `export --partition-by` in bounded memory whatever the number of partitions (issue 37).
//!
//! The same games are exported into one partition and into 2,000, with the partitioned
//! writer's budget lowered (`ARBITER_TEST_PARTITION_BUDGET`) so that a small input reaches
//! it. The peak resident set of each run is the child's own, as the kernel reports it when
//! the child is reaped (`wait4`'s `ru_maxrss`, the high-water mark `VmHWM` of its
//! `/proc/PID/status`): other tests running meanwhile do not change it, and no clock is
//! involved. Before the fix every partition kept a writer with its own column builders, so
//! the peak grew by some 200 KB per partition (about 400 MB more here); now it grows by the
//! partitions' bookkeeping only.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-partmem-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `export` with `args` in `dir`; returns its peak resident set in KiB.
fn peak_kib(dir: &Path, args: &[&str]) -> i64 {
    let log = std::fs::File::create(dir.join("stderr.txt")).unwrap();
    let child = Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .env("ARBITER_TEST_PARTITION_BUDGET", (1 << 20).to_string())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it for our own child, which std has not
    // waited for (the `Child` is dropped without a wait afterwards).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    drop(child);
    assert_eq!(reaped, pid, "wait4");
    let err = std::fs::read_to_string(dir.join("stderr.txt")).unwrap();
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{args:?}: {status}: {err}"
    );
    usage.ru_maxrss
}

#[test]
fn a_partitioned_export_keeps_its_memory_whatever_the_number_of_partitions() {
    let dir = scratch("peak");
    let games = 20_000;
    let partitions = 2_000;
    let mut text = String::with_capacity(games * 120);
    for i in 0..games {
        let year = 1000 + (i * 7919) % partitions;
        text.push_str(&format!(
            "[Event \"E{i}\"]\n[Date \"{year}.01.02\"]\n[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n"
        ));
    }
    std::fs::write(dir.join("in.pdn"), text).unwrap();
    let one = peak_kib(
        &dir,
        &["export", "in.pdn", "-o", "one", "--partition-by", "variant"],
    );
    let many = peak_kib(
        &dir,
        &["export", "in.pdn", "-o", "many", "--partition-by", "year"],
    );
    let folders = std::fs::read_dir(dir.join("many/games")).unwrap().count();
    assert_eq!(folders, partitions);
    eprintln!("peak: one partition {one} KiB, {partitions} partitions {many} KiB");
    assert!(
        many < one + 60 * 1024,
        "{partitions} partitions: {many} KiB, one: {one} KiB"
    );
    assert!(many < 200 * 1024, "{many} KiB");
    std::fs::remove_dir_all(&dir).unwrap();
}

"""Benchmarks of the arbiter Python package, side by side in one run (docs/performance.md).

    python crates/python/bench/bench.py --cli target/release/arbiter

1. `arbiter.validate` against `arbiter validate -q` on the same file (wall time, best of
   `--repeat` runs each); the file is the shipped corpus' generated games concatenated
   `--copies` times (target/bench/validate.pdn).
2. Plies replayed per second on the English games of tinsley.pdn: `arbiter.validate(...,
   game="english")` against pydraughts pushing the same moves on its Board (pydraughts is
   given `--pydraughts-seconds` seconds; its rate is plies replayed over time taken).
3. Peak memory (maximum resident set size) of a process that streams
   `arbiter.record_batches` over `--games` games (the generated corpus read as many times as
   needed) and consumes every batch.

Run the package built in release mode (`pip install crates/python`), not the test build.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
GENERATED = ["tama", "odnocvetnie", "thaayam", "international", "english", "russian"]


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t)
    return min(times), result


def validate_file(copies: int) -> Path:
    out = REPO / "target" / "bench" / "validate.pdn"
    out.parent.mkdir(parents=True, exist_ok=True)
    files = sorted(p for d in GENERATED for p in (REPO / "corpus" / d).glob("*.pdn"))
    with open(out, "wb") as w:
        for _ in range(copies):
            for p in files:
                w.write(p.read_bytes())
                w.write(b"\n\n")
    return out


def bench_validate(cli: str, copies: int, repeat: int) -> dict:
    import arbiter

    path = validate_file(copies)
    cli_time, _ = best(lambda: subprocess.run([cli, "validate", "-q", str(path)], check=False,
                                              capture_output=True), repeat)
    py_time, report = best(lambda: arbiter.validate(path), repeat)
    return {"file": str(path.relative_to(REPO)), "bytes": path.stat().st_size,
            "games": report.games, "plies": report.plies, "cli_s": cli_time,
            "python_s": py_time, "ratio": py_time / cli_time}


def bench_replay(tinsley: Path, seconds: float, repeat: int) -> dict:
    import arbiter

    t, report = best(lambda: arbiter.validate(tinsley, game="english"), repeat)
    out = {"games": report.games, "plies": report.plies, "errors": report.errors,
           "arbiter_s": t, "arbiter_plies_per_s": report.plies / t}
    try:
        from draughts import Board, Move
        from draughts.PDN import PDNReader
    except ImportError:
        out["pydraughts"] = "not installed (pip install pydraughts)"
        return out
    games = PDNReader(filename=str(tinsley)).games
    plies = failed = 0
    start = time.perf_counter()
    for game in games:
        board = Board(variant="english")
        try:
            for move in game.moves:
                board.push(Move(board, pdn_move=move))
                plies += 1
        except Exception:  # pydraughts refuses some moves; count what it replayed
            failed += 1
        if time.perf_counter() - start > seconds:
            break
    elapsed = time.perf_counter() - start
    rate = plies / elapsed
    out.update({"pydraughts_plies": plies, "pydraughts_s": elapsed,
                "pydraughts_games_stopped_early": failed,
                "pydraughts_plies_per_s": rate,
                "speedup": out["arbiter_plies_per_s"] / rate})
    return out


# Peak RSS is read from VmHWM, which belongs to the process' own memory map (getrusage's
# ru_maxrss would carry over the parent's peak through fork and exec).
STREAM = """
import sys, time, arbiter
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
paths, games, table = sys.argv[1:-2], int(sys.argv[-2]), sys.argv[-1]
base = hwm()
rows = 0
t = time.perf_counter()
for batch in arbiter.record_batches(paths, table, 65536):
    rows += batch.num_rows
elapsed = time.perf_counter() - t
print(rows, base, hwm(), elapsed)
"""


def bench_memory(games: int, table: str) -> dict:
    import arbiter

    folders = [str(REPO / "corpus" / d) for d in GENERATED]
    per_pass = arbiter.validate(folders).games
    passes = -(-games // per_pass)
    paths = folders * passes
    p = subprocess.run([sys.executable, "-c", STREAM, *paths, str(games), table],
                       capture_output=True, text=True, check=True)
    rows, base, peak, elapsed = p.stdout.split()
    return {"games": per_pass * passes, "table": table, "rows": int(rows),
            "rss_after_import_mb": int(base) / 1024, "peak_rss_mb": int(peak) / 1024,
            "seconds": float(elapsed)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=str(REPO / "target" / "release" / "arbiter"))
    ap.add_argument("--copies", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tinsley", default=str(REPO.parent / "shared/corpora/english/tinsley.pdn"))
    ap.add_argument("--pydraughts-seconds", type=float, default=60)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--table", default="plies")
    ap.add_argument("--skip", nargs="*", default=[], choices=["validate", "replay", "memory"])
    args = ap.parse_args()
    results = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    if "validate" not in args.skip:
        results["validate"] = bench_validate(args.cli, args.copies, args.repeat)
        print(json.dumps(results["validate"]), flush=True)
    if "replay" not in args.skip:
        results["replay"] = bench_replay(Path(args.tinsley), args.pydraughts_seconds,
                                         args.repeat)
        print(json.dumps(results["replay"]), flush=True)
    if "memory" not in args.skip:
        results["memory"] = bench_memory(args.games, args.table)
        print(json.dumps(results["memory"]), flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

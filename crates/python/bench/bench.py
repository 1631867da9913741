"""Benchmarks of the arbiter Python package, side by side in one run (docs/performance.md).

    scripts/bench-python            # builds both in release mode, then runs this
    python crates/python/bench/bench.py --cli target/release/arbiter

1. `arbiter.validate` against `arbiter validate -q` on the same file (wall time and CPU time,
   runs alternated, best of `--repeat` each); the file is the shipped corpus' generated
   games concatenated `--copies` times.
2. Plies replayed per second on the English games of tinsley.pdn: `arbiter.validate(...,
   game="english")` against pydraughts pushing the same moves on its Board (pydraughts is
   given `--pydraughts-seconds` seconds; its rate is plies replayed over time taken).
3. Peak memory (maximum resident set size) of a process that streams
   `arbiter.record_batches` over `--games` games (one file: the generated corpus repeated
   as many times as needed) and consumes every batch.

The input files are written to a temporary folder (`--tmp`, default the system's) and
deleted at the end. Run the package built in release mode (`pip install crates/python`), not
the test build: the script refuses a debug build unless `--allow-debug` is given.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
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


def generated_files():
    return sorted(p for d in GENERATED for p in (REPO / "corpus" / d).glob("*.pdn"))


def repeated_file(out: Path, copies: int) -> Path:
    """The generated corpus' files concatenated `copies` times into `out`."""
    blob = b"".join(p.read_bytes() + b"\n\n" for p in generated_files())
    with open(out, "wb") as w:
        for _ in range(copies):
            w.write(blob)
    return out


def cpu_children():
    r = os.times()
    return r.children_user + r.children_system


def bench_validate(cli: str, path: Path, repeat: int) -> dict:
    """The CLI and the package alternated, `repeat` times each: wall and CPU times."""
    import arbiter

    cli_wall, cli_cpu, py_wall, py_cpu = [], [], [], []
    report = None
    for _ in range(repeat):
        c0, t = cpu_children(), time.perf_counter()
        subprocess.run([cli, "validate", "-q", str(path)], check=False, capture_output=True)
        cli_wall.append(time.perf_counter() - t)
        cli_cpu.append(cpu_children() - c0)
        c0, t = time.process_time(), time.perf_counter()
        report = arbiter.validate(path)
        py_wall.append(time.perf_counter() - t)
        py_cpu.append(time.process_time() - c0)
    return {"file": path.name, "bytes": path.stat().st_size,
            "games": report.games, "plies": report.plies,
            "cli_wall_s": sorted(cli_wall), "python_wall_s": sorted(py_wall),
            "cli_cpu_s": sorted(cli_cpu), "python_cpu_s": sorted(py_cpu),
            "ratio_best_wall": min(py_wall) / min(cli_wall),
            "ratio_best_cpu": min(py_cpu) / min(cli_cpu)}


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


def bench_memory(games: int, table: str, tmp: Path) -> dict:
    import arbiter

    one = repeated_file(tmp / "one-pass.pdn", 1)
    per_pass = arbiter.validate(one).games
    one.unlink()
    passes = -(-games // per_pass)
    path = repeated_file(tmp / "memory.pdn", passes)
    try:
        p = subprocess.run([sys.executable, "-c", STREAM, str(path), str(games), table],
                           capture_output=True, text=True, check=True)
    finally:
        size = path.stat().st_size
        path.unlink()
    rows, base, peak, elapsed = p.stdout.split()
    return {"games": per_pass * passes, "bytes": size, "table": table, "rows": int(rows),
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
    ap.add_argument("--tmp", default=None, help="folder for the input files (deleted after)")
    ap.add_argument("--allow-debug", action="store_true")
    args = ap.parse_args()
    import arbiter

    build = getattr(arbiter._arbiter, "_build_profile", "unknown")
    if build == "debug" and not args.allow_debug:
        sys.exit("arbiter is a debug build: install it with `pip install crates/python` "
                 "(release) or pass --allow-debug")
    results = {"cpus": os.cpu_count(), "python": sys.version.split()[0], "build": build,
               "loadavg_start": os.getloadavg()}
    tmp = Path(tempfile.mkdtemp(prefix="arbiter-bench-", dir=args.tmp))
    try:
        if "validate" not in args.skip:
            path = repeated_file(tmp / "validate.pdn", args.copies)
            results["validate"] = bench_validate(args.cli, path, args.repeat)
            path.unlink()
            print(json.dumps(results["validate"]), flush=True)
        if "replay" not in args.skip:
            results["replay"] = bench_replay(Path(args.tinsley), args.pydraughts_seconds,
                                             args.repeat)
            print(json.dumps(results["replay"]), flush=True)
        if "memory" not in args.skip:
            results["memory"] = bench_memory(args.games, args.table, tmp)
            print(json.dumps(results["memory"]), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    results["loadavg_end"] = os.getloadavg()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

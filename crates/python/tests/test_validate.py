"""arbiter.validate against `arbiter validate` on the same inputs."""

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.compute  # noqa: F401
import pytest

import arbiter

FIELDS = ["file", "game", "line", "column", "ply", "move", "ludii_move", "code", "severity",
          "message"]

SUMMARY = re.compile(r"checked (\d+) files?, (\d+) games? \((\d+) plies; (\d+) games? replayed"
                     r" against the rules(?:, (\d+) of them identified from their moves)?"
                     r"(?:, (\d+) not checked: game unknown)?\): (?:no problems found|(\d+) "
                     r"errors? in \d+ games?, (\d+) warnings?)"
                     r"(?: \(\d+ games? with warnings only\))?(?:, (\d+) unreadable inputs?)?")


def cli_run(cli, cli_json, *paths):
    rows = cli_json("validate", "--format", "json", *paths, check_codes=(0, 1, 2))
    summary = cli("validate", "-q", *paths, check_codes=(0, 1, 2))
    text = summary.stdout + summary.stderr
    m = SUMMARY.search(text)
    assert m, text
    (files, games, plies, replayed, identified, unchecked, errors, warnings,
     unreadable) = m.groups()
    counts = dict(files=int(files), games=int(games), plies=int(plies),
                  replayed=int(replayed), identified=int(identified or 0),
                  unchecked=int(unchecked or 0),
                  errors=int(errors or 0), warnings=int(warnings or 0),
                  unreadable=int(unreadable or 0))
    return [{f: r.get(f) for f in FIELDS} for r in rows], counts


def check_agreement(cli, cli_json, *paths):
    want_rows, want = cli_run(cli, cli_json, *paths)
    report = arbiter.validate([str(p) for p in paths])
    got = {k: getattr(report, k) for k in want}
    assert got == want
    assert report.diagnostics.column_names == FIELDS
    assert report.diagnostics.to_pylist() == want_rows
    return report


def test_shipped_corpus_agrees_with_the_cli(cli, cli_json):
    report = check_agreement(cli, cli_json, "corpus")
    # The defect records are there to be found.
    assert report.errors > 0 and report.games > 6000
    assert not report.ok


def test_an_unreadable_input_is_counted_as_the_cli_counts_it(cli, cli_json, tmp_path: Path):
    """A folder of broken records and one empty file: the errors of the records, and one
    unreadable input apart from them, in the package as in the CLI's closing line."""
    import shutil
    shutil.copytree("corpus/defects", tmp_path / "defects")
    (tmp_path / "defects" / "empty.pdn").write_bytes(b"")
    report = check_agreement(cli, cli_json, tmp_path / "defects")
    assert report.unreadable == 1 and report.errors > 0
    severities = report.diagnostics.column("severity").to_pylist()
    assert severities.count("error") == report.errors + report.unreadable


def test_clean_archive(cli, cli_json):
    report = check_agreement(cli, cli_json, "corpus/tama", "corpus/english")
    assert report.ok and report.diagnostics.num_rows == 0
    assert report.replayed == report.games == 2200


def test_real_archives_agree_with_the_cli(cli, cli_json, real_corpus):
    # Every count of the closing line, unreadable inputs included.
    report = check_agreement(cli, cli_json, real_corpus)
    assert report.games > 0


def test_forced_game_and_rules_agree_with_the_cli(cli, cli_json, real_corpus):
    rows = cli_json("validate", "--format", "json", "--game", "english",
                    real_corpus / "english")
    report = arbiter.validate(real_corpus / "english", game="english")
    assert report.diagnostics.to_pylist() == [{f: r.get(f) for f in FIELDS} for r in rows]


def test_usage_errors_carry_the_cli_messages(cli):
    stderr = cli("validate", "--game", "bogus", "corpus/tama", check_codes=(2,)).stderr
    with pytest.raises(ValueError) as e:
        arbiter.validate("corpus/tama", game="bogus")
    assert str(e.value) in stderr
    stderr = cli("validate", "--rules", "nonsense", "corpus/tama", check_codes=(2,)).stderr
    with pytest.raises(ValueError) as e:
        arbiter.validate("corpus/tama", rules="nonsense")
    assert str(e.value) in stderr
    with pytest.raises(FileNotFoundError, match="missing.pdn: cannot read"):
        arbiter.validate("corpus/missing.pdn")


def test_default_game_applies_only_to_records_naming_none(tmp_path: Path):
    untagged = '[Event "x"]\n\n1. 11-15 23-19 2. 8-11 *\n'
    named = '[Variant "Tama"]\n\n1. c3-c4 *\n'
    path = tmp_path / "mixed.pdn"
    path.write_text(untagged + "\n" + named)
    # Without a default, the untagged record's game is identified from its moves, with a
    # note saying so.
    plain = arbiter.validate(path)
    assert (plain.games, plain.unchecked, plain.replayed, plain.identified) == (2, 0, 2, 1)
    assert plain.notes == 1 and plain.ok
    notes = plain.diagnostics.filter(pa.compute.equal(plain.diagnostics["severity"], "note"))
    assert notes.column("code").to_pylist() == ["game-inferred"]
    report = arbiter.validate(path, default_game="english")
    assert (report.games, report.unchecked, report.replayed, report.identified) == (2, 0, 2, 0)
    assert report.ok and report.notes == 0
    # A default game the moves cannot be played in: the untagged record is replayed as Tama.
    wrong = arbiter.validate(path, default_game="tama")
    assert wrong.errors > 0
    # A game forced on every record replays the Tama game as English: an error.
    forced = arbiter.validate(path, game="english")
    assert forced.errors > 0
    # The tables keep the record's tags as written.
    games = arbiter.read_tables(path, default_game="english")["games"].to_pylist()
    assert [g["variant"] for g in games] == ["english", "tama"]
    assert [g["variant_tag"] for g in games] == [None, "Tama"]


def test_unreadable_input_is_a_diagnostic(tmp_path: Path):
    (tmp_path / "binary.pdn").write_bytes(b"\x00\x01\x02" * 100)
    report = arbiter.validate(tmp_path)
    assert report.unreadable == 1 and report.errors == 0 and not report.ok
    assert report.diagnostics.column("code").to_pylist() == ["unreadable"]

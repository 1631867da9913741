"""read_tables and record_batches against the Parquet files of `arbiter export`."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import arbiter


@pytest.fixture(scope="module")
def exported(cli, tmp_path_factory):
    """`arbiter export` of the English and Tama games and the defect records."""
    out = tmp_path_factory.mktemp("export")
    paths = ["corpus/english", "corpus/tama", "corpus/defects"]
    cli("export", *paths, "-o", out)
    files = {t: pq.read_table(out / f"{t}.parquet") for t in arbiter.TABLES}
    return paths, files


def same_schema(a: pa.Schema, b: pa.Schema) -> bool:
    return a.remove_metadata().equals(b.remove_metadata(), check_metadata=False)


def test_tables_equal_the_export_files(exported):
    paths, files = exported
    tables = arbiter.read_tables(paths)
    assert set(tables) == set(arbiter.TABLES)
    for name in arbiter.TABLES:
        got, want = tables[name], files[name]
        assert same_schema(got.schema, want.schema), name
        assert same_schema(arbiter.schema(name), want.schema), name
        assert got.num_rows == want.num_rows > 0, name
        assert got.equals(want.cast(got.schema)), name


def test_record_batches_stream_the_same_rows(exported):
    paths, files = exported
    for name in arbiter.TABLES:
        reader = arbiter.record_batches(paths, name, batch_size=1000)
        assert isinstance(reader, pa.RecordBatchReader)
        batches = list(reader)
        assert all(0 < b.num_rows <= 1000 for b in batches), name
        got = pa.Table.from_batches(batches, schema=reader.schema)
        assert got.equals(files[name].cast(got.schema)), name


def test_ids_link_the_tables(exported):
    paths, _ = exported
    t = arbiter.read_tables(paths)
    games = t["games"].to_pandas()
    plies = t["plies"].to_pandas()
    assert list(games.game_id) == list(range(len(games)))
    per_game = plies.groupby("game_id").size()
    replayed = games.set_index("game_id").plies_replayed
    assert (per_game == replayed[per_game.index]).all()


def test_bad_arguments():
    with pytest.raises(ValueError, match="not a table"):
        arbiter.record_batches("corpus/tama", "moves")
    with pytest.raises(ValueError, match="batch_size"):
        arbiter.record_batches("corpus/tama", "plies", batch_size=0)
    with pytest.raises(FileNotFoundError):
        arbiter.read_tables("corpus/nothing-here")


def test_positions_match_export_with_positions(cli, tmp_path):
    """`positions=True` is `arbiter export --positions`: the plies gain `fen_after`."""
    cli("export", "corpus/tama", "--positions", "-o", tmp_path)
    want = pq.read_table(tmp_path / "plies.parquet")
    got = arbiter.read_tables("corpus/tama", positions=True)["plies"]
    assert "fen_after" in got.schema.names and "position_key" in got.schema.names
    assert same_schema(got.schema, want.schema)
    assert same_schema(arbiter.schema("plies", positions=True), want.schema)
    assert got.equals(want.cast(got.schema))
    streamed = arbiter.record_batches("corpus/tama", "plies", batch_size=5000, positions=True)
    assert pa.Table.from_batches(list(streamed)).equals(got)
    plain = arbiter.read_tables("corpus/tama")["plies"]
    assert "fen_after" not in plain.schema.names
    assert plain.column("position_key").equals(got.column("position_key"))


def test_inputs_follow_the_cli_rules(cli, tmp_path):
    """No records in a folder, a blank file, a damaged gzip: refused as the CLI refuses them."""
    import gzip

    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a record")
    with pytest.raises(FileNotFoundError, match="no game records in"):
        arbiter.read_tables(empty)
    with pytest.raises(FileNotFoundError, match="no game records in"):
        arbiter.validate(empty)
    blank = tmp_path / "blank.pdn"
    blank.write_text("\n  \n")
    report = arbiter.validate(blank)
    assert report.unreadable == 1
    assert "no game records in" in report.diagnostics.column("message")[0].as_py()
    good = open("corpus/tama/" + sorted(__import__("os").listdir("corpus/tama"))[0], "rb").read()
    packed = gzip.compress(good)
    cut = tmp_path / "cut.pdn.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    report = arbiter.validate(cut)
    assert (report.games, report.unreadable) == (0, 1)
    assert "damaged" in report.diagnostics.column("message")[0].as_py()
    cli_out = cli("validate", cut, check_codes=(1, 2))
    assert "damaged" in cli_out.stdout + cli_out.stderr


def test_a_large_input_among_small_ones_is_numbered_as_export_numbers_it(cli, tmp_path):
    """An input of several chunks between small ones runs across the batches checked side
    by side: its games keep their `index_in_file` and every `game_id` follows export's."""
    from pathlib import Path

    texts = [p.read_text() for p in sorted(Path("corpus/english").glob("*.pdn"))]
    texts += [p.read_text() for p in sorted(Path("corpus/tama").glob("*.pdn"))]
    big = tmp_path / "big.pdn"
    big.write_text("\n".join(texts * 2))
    assert big.stat().st_size > 3 << 20
    paths = ["corpus/tama/tama-random.pdn", str(big), "corpus/defects/tama"]
    out = tmp_path / "out"
    cli("export", *paths, "-o", out)
    tables = arbiter.read_tables(paths)
    for name in arbiter.TABLES:
        want = pq.read_table(out / f"{name}.parquet")
        assert tables[name].equals(want.cast(tables[name].schema)), name
        streamed = arbiter.record_batches(paths, name, batch_size=4096)
        got = pa.Table.from_batches(list(streamed), schema=streamed.schema)
        assert got.equals(want.cast(got.schema)), name
    index = tables["games"].column("index_in_file").to_pylist()
    files = tables["games"].column("file").to_pylist()
    in_big = [i for i, f in zip(index, files) if f.endswith("big.pdn")]
    assert in_big == list(range(1, len(in_big) + 1)) and len(in_big) > 4000

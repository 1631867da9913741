"""Shared fixtures: the repository, the CLI to compare with, the shared corpora."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared"


def _cli() -> Path:
    env = os.environ.get("ARBITER_BIN")
    if env:
        return Path(env)
    path = REPO / "target" / "debug" / "arbiter"
    if not path.exists() and shutil.which("cargo"):
        subprocess.run(["cargo", "build", "-q", "-p", "arbiter"], cwd=REPO, check=True)
    return path


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def cli():
    """Runs the arbiter CLI; returns the completed process (text mode)."""
    path = _cli()
    if not path.exists():
        pytest.fail(f"the arbiter CLI is needed for these tests: {path} (set ARBITER_BIN)")

    def run(*args, check_codes=(0, 1)):
        p = subprocess.run([str(path), *map(str, args)], cwd=REPO, capture_output=True,
                           text=True)
        assert p.returncode in check_codes, (args, p.returncode, p.stderr)
        return p

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """The JSON lines a CLI command prints, parsed."""

    def run(*args, check_codes=(0, 1)):
        out = cli(*args, check_codes=check_codes).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    return run


@pytest.fixture(scope="session")
def real_corpus() -> Path:
    path = SHARED / "corpora" / "real"
    if not path.is_dir():
        pytest.skip(f"shared real corpora absent ({path}): skipped")
    return path


# ARBITER_EVIDENCE=DIR (scripts/analysis-evidence) runs the analysis tests on the whole of
# ../shared/corpora/real/international at the default node count: the figures of the docs.
# The CLI's analysis of that folder is made once by the script, in DIR/analysis.jsonl.
# Without it the tests take four games at a few nodes, which is enough to compare.
EVIDENCE = os.environ.get("ARBITER_EVIDENCE")
FULL_CORPUS = bool(EVIDENCE)


def evidence_lines():
    """The JSON lines of the script's `arbiter analyse --format json` of the whole folder."""
    with open(Path(EVIDENCE) / "analysis.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def analysis_nodes():
    """The nodes per position the analysis tests use (None: the default, 20,000)."""
    return None if FULL_CORPUS else 1000


@pytest.fixture(scope="session")
def nodes_args(analysis_nodes):
    """The CLI's arguments for `analysis_nodes`."""
    return [] if analysis_nodes is None else ["--nodes", analysis_nodes]


@pytest.fixture(scope="session")
def international_games(real_corpus, tmp_path_factory) -> Path:
    """A folder of real International games: the first four games of one tournament in a
    file of their own, or the whole of real/international with ARBITER_EVIDENCE."""
    import re

    if FULL_CORPUS:
        return real_corpus / "international"
    source = real_corpus / "international" / "bruno-1er_Open_International_Allinges_2007.pdn"
    if not source.exists():
        pytest.skip(f"{source} is absent: skipped")
    text = source.read_text(encoding="utf-8", errors="replace").strip("\n")
    first = re.split(r"\n(?=\[Event )", text)[:4]
    folder = tmp_path_factory.mktemp("international")
    path = folder / "four.pdn"
    path.write_text("\n".join(g.rstrip("\n") + "\n" for g in first) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def cli_analysis(cli_json, international_games, nodes_args):
    """`arbiter analyse --format json` of `international_games` (run once: it is slow)."""
    if FULL_CORPUS:
        return evidence_lines()
    return cli_json("analyse", international_games, *nodes_args, "--format", "json")


def pytest_report_header(config):
    return f"arbiter package from {__import__('arbiter').__file__}; python {sys.version.split()[0]}"

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


@pytest.fixture(scope="session")
def international_games(real_corpus, tmp_path_factory) -> Path:
    """The first four games of a real International tournament, in a file of their own
    (for the analysis, which is slow: a few games are enough to compare)."""
    import re

    source = real_corpus / "international" / "bruno-1er_Open_International_Allinges_2007.pdn"
    if not source.exists():
        pytest.skip(f"{source} is absent: skipped")
    text = source.read_text(encoding="utf-8", errors="replace").strip("\n")
    first = re.split(r"\n(?=\[Event )", text)[:4]
    path = tmp_path_factory.mktemp("international") / "four.pdn"
    path.write_text("\n".join(g.rstrip("\n") + "\n" for g in first) + "\n", encoding="utf-8")
    return path


def pytest_report_header(config):
    return f"arbiter package from {__import__('arbiter').__file__}; python {sys.version.split()[0]}"

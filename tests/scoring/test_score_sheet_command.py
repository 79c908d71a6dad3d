"""The score_sheet command end to end: the shared examples and bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "examples" / "scoresheets"
INPUTS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))
CONTRACT_KEYS = ("rules", "hands", "games", "columns", "match")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "score_sheet", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def contract_view(data: dict) -> dict:
    """The keys the contract names, recursively (extra keys are allowed in the output)."""
    return {key: data[key] for key in CONTRACT_KEYS if key in data}


def assert_contains(expected, got, path="$"):
    if isinstance(expected, dict):
        assert isinstance(got, dict), path
        for key, value in expected.items():
            assert key in got, f"{path}.{key} missing"
            assert_contains(value, got[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), path
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            assert_contains(e, g, f"{path}[{i}]")
    else:
        assert got == expected, f"{path}: {got!r} != {expected!r}"


@pytest.mark.skipif(not INPUTS, reason="shared examples not present beside the project")
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_shared_examples(path, capsys):
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    if "error" in expected:
        with pytest.raises(SystemExit) as caught:
            call_command("score_sheet", str(path))
        out, err = capsys.readouterr()
        assert caught.value.code == expected["error"]["exit_status"]
        assert out == ""
        assert expected["error"]["stderr_mentions"] in err
        assert err.count("\n") == 1
        return
    stdout = io.StringIO()
    call_command("score_sheet", str(path), stdout=stdout)
    got = json.loads(stdout.getvalue())
    assert_contains(contract_view(expected), got)


def test_real_process_reads_standard_input():
    request = {"rules": "modern", "hands": [{"kind": "gin", "by": "B", "defender_deadwood": 7}]}
    result = run("-", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["hands"][0]["points"] == 32
    assert data["games"][0]["total"] == {"A": 0, "B": 57}


@pytest.mark.parametrize(
    ("stdin", "mentions"),
    [
        pytest.param("{not json", "invalid JSON", id="invalid-json"),
        pytest.param("", "invalid JSON", id="empty"),
        pytest.param('{"rules": "modern", "extra": 1}', "unknown field extra", id="unknown-key"),
        pytest.param(
            '{"rules": "modern", "hands": [{"kind": "knock", "by": "A", "deadwood": "x",'
            ' "defender_deadwood": 3}]}',
            "hand 1",
            id="wrong-type",
        ),
        pytest.param(
            '{"rules": {"preset": "modern", "game_target": -4}}', "between 1 and 5000", id="rng"
        ),
        pytest.param("[" * 100000, "invalid JSON", id="deep-nesting"),
    ],
)
def test_bad_input_is_one_line_on_stderr(stdin, mentions):
    result = run("-", stdin=stdin)
    assert result.returncode == 1
    assert result.stdout == ""
    assert mentions in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_a_knob_past_its_limit_is_named_with_the_limit():
    result = run("-", stdin='{"rules": {"preset": "modern", "game_bonus": 3000000000}}')
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "error: rules: game_bonus must be between 0 and 500\n"


def test_missing_file():
    result = run("/nonexistent/match.json")
    assert result.returncode == 1 and result.stdout == ""
    assert "cannot read" in result.stderr

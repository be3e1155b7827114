"""The repository keeps its promises: the README's commands, CI, lint."""

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```\n(pip install[^\n]*)\n```", text)


def test_readme_has_exactly_two_commands_and_ci_runs_the_test_one():
    play, test = readme_commands()
    assert "python -m engine" in play
    assert "pytest" in test
    assert test in (ROOT / ".ci" / "run").read_text()


def test_ruff_is_clean():
    ruff = shutil.which("ruff")
    assert ruff, "ruff is a test dependency (pip install -e '.[test]')"
    r = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


# A loose tripwire, not a target: a module holds one idea and reads in one sitting; what is too long
# is cured by objects of their own, never by cutting a class into mixins that share ``self``.
MAX_MODULE_LINES = 500


def test_every_module_reads_in_one_sitting():
    long = {str(p.relative_to(ROOT)): n for folder in ("engine", "plugins") for p in (ROOT / folder).rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"over {MAX_MODULE_LINES} lines, split by idea: {long}"

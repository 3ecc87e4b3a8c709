"""The README and the manual in docs/ stay true: links resolve, named files exist, the
README's tour prints what it shows, and every command the pages show parses."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from solvers import registry
from solvers.harness.cli import COMMANDS, DEFAULT_COMMAND, build_parser

from . import docs_tables
from .conftest import ROOT, compare

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
PAGE_IDS = [str(page.relative_to(ROOT)) for page in PAGES]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAX_README_LINES = 250
MAX_BACKEND_ROW = 150
Completed = subprocess.CompletedProcess[str]


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where links do not count."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", text, flags=re.DOTALL))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """The anchors of a page's headings (a repeated heading gets -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    found = set()
    for line in re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            base = slug(match.group(1))
            found.add(base if base not in seen else f"{base}-{seen[base]}")
            seen[base] = seen.get(base, 0) + 1
    return frozenset(found)


def links(page: Path) -> list[str]:
    """The targets of a page's Markdown links and images."""
    return re.findall(r"\]\(([^)\s]+)\)", prose(page.read_text(encoding="utf-8")))


def section(text: str, title: str) -> str:
    """The text under a level-2 heading, up to the next level-2 heading."""
    return text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


# -- links and names ---------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_every_relative_link_resolves_to_a_file_and_heading(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto: are not ours to check
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            broken.append(f"{target}: no heading with anchor #{anchor}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_the_link_check_sees_a_broken_anchor(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("# Title\n\n## Two words\n\n[a](#two-words) [b](#three-words) `[c](#x)`\n")
    assert links(page) == ["#two-words", "#three-words"]
    assert anchors(page) == {"title", "two-words"}


def test_readme_links_into_every_docs_page() -> None:
    linked = {target.partition("#")[0] for target in links(ROOT / "README.md")}
    for page in PAGES[1:]:
        assert str(page.relative_to(ROOT)) in linked, f"README.md has no link to {page.relative_to(ROOT)}"


NAMED_PATH = re.compile(r"(?<![\w./])((?:models|solvers|tests|bench|puzzles|docs)/[\w./*-]*\w/?)")


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_every_project_path_a_page_names_exists(page: Path) -> None:
    missing = [name for name in sorted(set(NAMED_PATH.findall(page.read_text(encoding="utf-8"))))
               if not any(ROOT.glob(name.rstrip("/")))]
    assert not missing, f"{page.name} names paths that do not exist: {missing}"


DOTTED = re.compile(r"`((?:models|solvers)(?:\.\w+)+)")


def module_of(dotted: str) -> tuple[Path, list[str]] | None:
    """The source file of the longest module prefix of a dotted name, and the rest."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        for file in (base.with_suffix(".py"), base / "__init__.py"):
            if file.exists():
                return file, parts[end:]
    return None


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_every_module_a_page_names_exists_and_defines_the_name(page: Path) -> None:
    wrong = []
    for dotted in sorted(set(DOTTED.findall(page.read_text(encoding="utf-8")))):
        found = module_of(dotted)
        if found is None:
            wrong.append(f"{dotted}: no such module")
        elif found[1] and not re.search(rf"\b{found[1][0]}\b", found[0].read_text(encoding="utf-8")):
            wrong.append(f"{dotted}: {found[0].relative_to(ROOT)} does not define {found[1][0]}")
    assert not wrong, f"{page.name}: " + "; ".join(wrong)


# -- the README as a front page -----------------------------------------------------------

@pytest.mark.parametrize("name", docs_tables.TABLES)
def test_the_generated_table_is_what_its_definition_gives_now(name: str) -> None:
    page, make = docs_tables.TABLES[name]
    held = docs_tables.held((ROOT / page).read_text(encoding="utf-8"), name)
    assert held is not None, f"{page} has no marks for the table {name!r}"
    assert held == make(), f"{page}: the table {name!r} is behind its definition: python -m tests.docs_tables"


def test_the_generated_table_check_sees_a_stale_table(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    start, end = docs_tables.marks("t")
    page.write_text(f"text\n{start}\n| old |\n{end}\nmore\n")
    assert docs_tables.held(page.read_text(), "t") == "| old |"
    page.write_text(docs_tables.written(page.read_text(), "t", "| new |"))
    assert page.read_text() == f"text\n{start}\n| new |\n{end}\nmore\n"


def test_readme_is_a_front_page_under_250_lines() -> None:
    assert len(README.splitlines()) < MAX_README_LINES


def backend_rows() -> dict[str, str]:
    """The README's backend table: backend name -> the whole row."""
    rows = [line for line in section(README, "The backends").splitlines() if line.startswith("| `")]
    return {row.split("|")[1].strip().strip("`"): row for row in rows}


def test_readme_backend_table_has_a_short_row_for_the_backend(backend_name: str) -> None:
    rows = backend_rows()
    row = rows.get(backend_name)
    assert row is not None, f"README's backend table has no row for {backend_name}"
    assert len(row) <= MAX_BACKEND_ROW, f"{backend_name}'s row is {len(row)} characters"


def test_readme_backend_table_names_only_registered_backends() -> None:
    assert sorted(backend_rows()) == sorted(registry.names())


def test_readme_says_which_debian_packages_to_install() -> None:
    setup = section(README, "Set-up")
    assert "apt-get install cadical minisat picosat chromium minizinc" in setup


# -- the README's tour and the pages' sessions run and print what they show ----------------

def sessions(page: Path) -> list[tuple[str, list[str]]]:
    """Each `$ python compare.py ...` line of a page's code blocks with the output shown under it
    (the README's: those of its tour)."""
    text = page.read_text(encoding="utf-8")
    if page.name == "README.md":
        text = section(text, "A five-minute tour")
    steps: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```\n(.*?)```", text, re.DOTALL):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
    return steps


TOUR = sessions(ROOT / "README.md")
# shown with output that another test computes the same way, so not run again here (20-40 s)
CHECKED_ELSEWHERE = {"python compare.py ladder --format markdown": "tests/test_teaching.py"}
SESSIONS = [(page, step) for page in PAGES for step, (command, _) in enumerate(sessions(page))
            if command not in CHECKED_ELSEWHERE]


def test_the_sessions_checked_elsewhere_are_still_shown() -> None:
    shown = {command for page in PAGES for command, _ in sessions(page)}
    assert set(CHECKED_ELSEWHERE) <= shown


def normal(line: str) -> str:
    """A line with times and other decimals masked and column padding collapsed."""
    return re.sub(r"[ \-]+", " ", re.sub(r"\d[\d,]*\.\d+(e-?\d+)?", "#", line)).strip()


def shows(shown: list[str], printed: str) -> str | None:
    """None when every shown line (but '...') is printed, in order; else the first one missing."""
    lines = iter([normal(line) for line in printed.splitlines()])
    for line in shown:
        if line.strip() != "..." and normal(line) not in lines:
            return line
    return None


def test_the_output_check_sees_a_changed_count() -> None:
    printed = "| mrv | 11 | 0.00282 |\n| sat | 11 | 1,205.45 |\n"
    assert shows(["| mrv  |  11 | 0.1 |", "...", "| sat | 11 | 335.60 |"], printed) is None
    assert shows(["| mrv | 10 | 0.1 |"], printed) == "| mrv | 10 | 0.1 |"
    assert shows(["| sat | 11 | 0.1 |", "| mrv | 11 | 0.1 |"], printed) is not None  # order counts


@pytest.fixture(scope="module")
def session_output(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], list[Completed]]:
    """A page's session commands run in order through the real command line, in a fresh folder
    holding the bundled puzzles (run once per page)."""
    done: dict[Path, list[Completed]] = {}

    def run(page: Path) -> list[Completed]:
        if page not in done:
            folder = tmp_path_factory.mktemp(page.stem)
            (folder / "puzzles").symlink_to(ROOT / "puzzles")
            (folder / "bench").mkdir()
            done[page] = []
            for command, _ in sessions(page):
                if command in CHECKED_ELSEWHERE:
                    done[page].append(subprocess.CompletedProcess(command, 0, "", ""))
                    continue
                words = shlex.split(command)
                assert words[:2] == ["python", "compare.py"], command
                done[page].append(compare(*words[2:], cwd=folder, timeout=600))
        return done[page]
    return run


def test_the_readme_tour_has_commands() -> None:
    assert len(TOUR) >= 4


@pytest.mark.slow
@pytest.mark.parametrize(("page", "step"), SESSIONS,
                         ids=[f"{page.name}: {sessions(page)[step][0]}" for page, step in SESSIONS])
def test_shown_command_prints_what_the_page_shows(
        page: Path, step: int, session_output: Callable[[Path], list[Completed]]) -> None:
    shown, done = sessions(page)[step][1], session_output(page)[step]
    assert done.returncode == 0, done.stderr
    printed = done.stdout.replace(f"{ROOT}{os.sep}", "")  # a bundled file's path, as from the checkout
    assert shows(shown, printed) is None, f"not printed: {shows(shown, printed)!r}"


# -- every command a page shows parses ------------------------------------------------------

def shown_commands(page: Path) -> list[str]:
    """The `python compare.py ...` command lines a page shows (a synopsis with [ ] or | is not
    one command), continuation lines joined and the redirection of stdin dropped."""
    text = re.sub(r"\\\n\s*", " ", page.read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        command = re.sub(r"^\s*(\$ )?", "", line)
        if command.startswith("python compare.py"):
            command = re.sub(r"\s<\s*\S+", "", command.split("  #")[0]).strip()
            if not re.search(r"[\[|]", command):
                found.append(command)
    return found


PAGE_COMMANDS = [(page, command) for page in PAGES for command in shown_commands(page)]


def parse(command: str) -> None:
    """Parse a command line as compare.py would (the default command in front when none)."""
    args = shlex.split(command)[2:]
    if not args or args[0] not in COMMANDS:
        args.insert(0, DEFAULT_COMMAND)
    build_parser().parse_args(args)


def test_the_pages_show_commands_of_every_kind() -> None:
    words = {shlex.split(command)[2] for _, command in PAGE_COMMANDS if len(shlex.split(command)) > 2}
    assert {"run", "solve", "report", "explain", "ladder", "export", "decode", "generate"} <= words


@pytest.mark.parametrize(("page", "command"), PAGE_COMMANDS,
                         ids=[f"{page.name}: {command}" for page, command in PAGE_COMMANDS])
def test_every_command_a_page_shows_parses(page: Path, command: str) -> None:
    try:
        parse(command)
    except SystemExit as stop:
        pytest.fail(f"{page.name} shows a command compare.py refuses (exit {stop.code}): {command}")


def test_the_parse_check_refuses_a_wrong_option() -> None:
    with pytest.raises(SystemExit):
        parse("python compare.py run puzzles/top95.txt --no-such-option 3")


# -- the Python examples of docs/backends.md run -------------------------------------------

PYTHON_EXAMPLES = re.findall(r"```python\n(.*?)```", section(
    (ROOT / "docs" / "backends.md").read_text(encoding="utf-8"), "Using a backend from Python"), re.DOTALL)


@pytest.mark.parametrize("code", PYTHON_EXAMPLES, ids=[f"example{i}" for i in range(len(PYTHON_EXAMPLES))])
def test_docs_python_example_runs(code: str) -> None:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "solved" in done.stdout.lower(), done.stdout

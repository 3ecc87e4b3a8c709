"""Pictures of the human solver's chains: ``render --step N`` draws a step over the candidates
before it, the replay page draws a step's chain while it stands on it, both with strong links
solid, weak links dashed and the eliminated candidates struck out; the trace's links are
checked as a trace is read. Through the real command line; the page in headless Chromium."""
from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .chromium import CHROMIUM, Browser
from .conftest import compare_here

PUZZLE = ["puzzles/exchange_diabolical_se60.txt", "--puzzle", "35"]
CHAIN_STEP = 36
"""Step 36 of that solve: an AIC of eight nodes and seven links (four strong, three weak),
(1)r2c3=(1)r8c3-(1)r8c9=(1)r5c9-(1=9)r5c4-(9)r3c4=(9)r3c3, that removes 9 from r2c3 (cell 11)."""


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("chain") / "solve.jsonl"
    done = compare_here("explain", *PUZZLE, "--trace", str(path), "--max-steps", "1")
    assert done.returncode == 0, done.stderr
    return path


def event_of(trace: Path, step: int) -> dict:
    return json.loads(trace.read_text().splitlines()[step])


def test_the_chain_step_of_the_trace_carries_its_links(trace: Path) -> None:
    event = event_of(trace, CHAIN_STEP)
    assert event["rule"] == "AIC" and event["removed"] == [[11, 9]]
    assert [strong for *_, strong in event["links"]] == [True, False, True, False, True, False, True]
    assert [(cells, digit) for cells, digit, *_ in event["links"]][:2] == [([11], 1), ([65], 1)]


def test_render_step_draws_the_chain_links_and_the_struck_candidate(tmp_path: Path, trace: Path) -> None:
    pytest.importorskip("matplotlib", reason="render needs the plot extra")
    out = tmp_path / "step.svg"
    done = compare_here("render", *PUZZLE, "--step", str(CHAIN_STEP), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert f"step {CHAIN_STEP} (AIC, a chain of 7 links)" in done.stdout
    svg = out.read_text()
    assert len(re.findall(r'id="link-strong-\d+"', svg)) == 4 and len(re.findall(r'id="link-weak-\d+"', svg)) == 3
    assert re.findall(r'id="removed-(r\d+c\d+-\d+)"', svg) == ["r2c3-9"]


@pytest.mark.parametrize("step, words", [("999", "--step 999: the solve has "), ("0", "--step: ")])
def test_render_refuses_a_step_the_solve_does_not_have(tmp_path: Path, step: str, words: str) -> None:
    pytest.importorskip("matplotlib", reason="render needs the plot extra")
    done = compare_here("render", "puzzles/small_4x4.txt", "--step", step, "-o", str(tmp_path / "x.png"))
    assert done.returncode == 2 and words in done.stderr, done.stderr


def test_a_trace_with_a_malformed_link_is_refused_naming_the_field(tmp_path: Path, trace: Path) -> None:
    lines = trace.read_text().splitlines()
    event = json.loads(lines[CHAIN_STEP])
    event["links"][0][1] = "five"
    lines[CHAIN_STEP] = json.dumps(event)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    done = compare_here("replay", str(bad), "-o", str(tmp_path / "bad.html"))
    assert done.returncode == 2
    assert f"line {CHAIN_STEP + 1}: eliminate event's links must be a list of [cells, digit, cells" in done.stderr


@pytest.fixture(scope="module")
def page(trace: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "solve.html"
    done = compare_here("replay", str(trace), "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    if CHROMIUM is None:
        pytest.skip("no chromium installed (Debian: apt-get install chromium)")
    with Browser(tmp_path_factory.mktemp("chromium")) as chromium:
        yield chromium


def test_the_replay_page_draws_the_chain_of_the_step_it_stands_on(browser: Browser, page: Path,
                                                                  tmp_path: Path) -> None:
    browser.open(f"file://{page}#steps={CHAIN_STEP}")
    assert browser.evaluate("document.querySelectorAll('#chain path.strong').length") == 4
    assert browser.evaluate("document.querySelectorAll('#chain path.weak').length") == 3
    gone = browser.evaluate("[...document.querySelectorAll('.cands span.gone')]"
                            ".map(s => s.closest('td').dataset.cell + '=' + s.textContent)")
    assert gone == ["11=9"]  # r2c3's 9, struck out while the page stands on the step
    nodes = browser.evaluate("document.querySelectorAll('.cands span.node').length")
    assert nodes == 8  # the chain's eight candidates
    image = pytest.importorskip("PIL.Image", reason="reading a screenshot needs pillow (matplotlib's)")
    shot = image.open(io.BytesIO(browser.screenshot())).convert("RGB")
    shot.save(tmp_path / "chain.png")  # looked at by eye when this test was written
    blue = sum(1 for x in range(0, shot.width, 2) for y in range(0, 700, 2) if shot.getpixel((x, y)) == (0, 114, 178))
    assert blue > 50, "the strong links are not drawn in their blue"
    browser.press("ArrowRight")  # one step on: the chain is gone, and so is the struck-out 9
    assert browser.evaluate("document.querySelectorAll('#chain path.strong, #chain path.weak').length") == 0
    assert browser.evaluate("document.querySelectorAll('.cands span.gone').length") == 0

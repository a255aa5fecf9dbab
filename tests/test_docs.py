"""docs/develop.md tells the truth about the code: its map names every module that exists and no module
that does not, and its list of benches is the bench folder's."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEVELOP = (ROOT / "docs" / "develop.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the page's section ``## title``, up to the next one."""
    start = DEVELOP.index(f"\n## {title}\n")
    end = DEVELOP.find("\n## ", start + 1)
    return DEVELOP[start:] if end < 0 else DEVELOP[start:end]


MAP = section("The layout")


def mentioned(stem: str, text: str) -> bool:
    """``stem`` appears in ``text`` as a word of its own (``menu``, ``menu.py``), not inside another name."""
    return re.search(rf"(?<![\w/.-]){re.escape(stem)}(?:\.py)?(?![\w-])", text) is not None


def test_the_map_names_every_module_of_the_package() -> None:
    missing = []
    for path in sorted((ROOT / "wom_tui").rglob("*.py")):
        if path.name in ("__init__.py", "__main__.py") and path.parent.name != "wom_tui":
            continue
        if not mentioned(path.stem, MAP):
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, f"docs/develop.md's map does not mention: {', '.join(missing)}"


def test_every_file_the_map_names_exists() -> None:
    names = {path.name for top in ("wom_tui", "tests", "bench", "docs") for path in (ROOT / top).rglob("*.py")}
    named = set(re.findall(r"(?<![\w/.])([a-z_0-9]+\.py)\b", MAP))
    gone = sorted(name for name in named if name not in names)
    assert not gone, f"docs/develop.md's map names modules that do not exist: {', '.join(gone)}"


def test_the_bench_table_lists_every_bench() -> None:
    table = section("Benchmarks")
    benches = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "bench").rglob("*.py")
                     if path.name not in ("livefeed.py", "pages.py"))
    missing = [bench for bench in benches if bench not in table]
    assert not missing, f"docs/develop.md's Benchmarks do not list: {', '.join(missing)}"


def test_the_page_makes_no_claim_the_code_dropped() -> None:
    # Game models say what they wait for with `awaiting`? Only if the code still has it.
    if "game.awaiting" in DEVELOP or "`awaiting`" in DEVELOP:
        code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "wom_tui" / "domain").glob("*.py"))
        assert re.search(r"def awaiting\b|awaiting\s*[:=]", code), "develop.md speaks of game.awaiting"

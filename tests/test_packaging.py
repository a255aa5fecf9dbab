"""The wheel carries everything the app needs: install it into a fresh environment and start the app.

STYLE.md, Packaging: ``CSS_PATH`` resolves beside the package, and a wheel built from the package
folder alone would leave the top-level ``styles/`` behind.
"""

from __future__ import annotations

import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Runs inside the fresh environment, from a folder outside the repo.
PROBE = r"""
import asyncio, random, sys, tempfile
from pathlib import Path
import wom_tui, wom_tui.paths
from wom_tui.app import WomApp
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.settings import Settings
from textual.widgets import OptionList

home = Path(wom_tui.__file__).parent
assert str(home).startswith(sys.prefix), f"wom_tui came from {home}, not the fresh environment"
sheets = wom_tui.paths.stylesheets()
assert sheets and all(s.is_relative_to(home) for s in sheets), f"stylesheets not in the wheel: {sheets}"

async def main():
    data = Path(tempfile.mkdtemp())
    app = WomApp(Store(data), random.Random(1), Settings(data_dir=data, seed=1, computer_pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one(OptionList)
        print("menu entries:", menu.option_count, "stylesheets:", len(sheets))
        assert menu.option_count >= 6

asyncio.run(main())
"""


def test_wheel_installs_into_a_fresh_environment_and_starts(tmp_path: Path) -> None:
    wheel_dir = tmp_path / "wheel"
    # Built with the backend of our environment (hatchling, in the test extras): the same files, each
    # byte for byte, as pip's isolated build, which downloaded hatchling into a new environment every run.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheel_dir),
         str(REPO)],
        check=True, capture_output=True, timeout=300,
    )
    (wheel,) = wheel_dir.glob("wom_tui-*.whl")

    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    env_python = env_dir / "bin" / "python"
    env_site = Path(subprocess.run(
        [str(env_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip())
    # The dependencies come from our environment's site-packages, added as a plain path so that
    # its .pth files (among them the editable install of this very checkout) are not processed.
    deps = [p for p in site.getsitepackages() if Path(p).is_dir()] or [sysconfig.get_paths()["purelib"]]
    (env_site / "deps.pth").write_text("\n".join(deps) + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile", "--target", str(env_site), str(wheel)],
        check=True, capture_output=True, timeout=300,
    )

    result = subprocess.run(
        [str(env_python), "-c", PROBE], cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "menu entries:" in result.stdout
    # The browser page's own files travel in the wheel, and the page renders from the installed copy.
    page = subprocess.run(
        [str(env_python), "-c", "from wom_tui.serve.web import render_page, WebDoor; from importlib.resources import files; "
         "print(len(render_page()), (files('wom_tui.serve') / 'web_static' / 'page.js').is_file())"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert page.returncode == 0 and page.stdout.split()[1] == "True", page.stdout + page.stderr


def _venv_python_make_chooses(tmp_path: Path, system_python: str) -> str:
    """The interpreter ``make`` would make .venv from, given ``system_python`` as the system's own."""
    result = subprocess.run(["make", "-n", "-B", "-f", str(REPO / "Makefile"), f"SYSTEM_PYTHON={system_python}",
                             f"VENV={tmp_path / 'venv'}", str(tmp_path / "venv" / "bin" / "python")],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.endswith(f"-m venv {tmp_path / 'venv'}"), first
    return first.split()[0]


def test_make_builds_the_venv_from_the_systems_python_when_it_can_else_from_python3(tmp_path: Path) -> None:
    """The system's Python 3 (a distribution's optimised build) when it is 3.10 or newer and has venv; python3 on
    PATH when it is too old, cannot make a venv, or is missing."""
    assert _venv_python_make_chooses(tmp_path, sys.executable) == sys.executable
    too_old = tmp_path / "python3.9"
    too_old.write_text("#!/bin/sh\nexit 1\n")  # what sys.exit(version < (3, 10)) answers on 3.9
    too_old.chmod(0o755)
    assert _venv_python_make_chooses(tmp_path, str(too_old)) == "python3"
    assert _venv_python_make_chooses(tmp_path, str(tmp_path / "missing")) == "python3"

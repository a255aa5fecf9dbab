"""The ready-made service files: the systemd unit passes ``systemd-analyze verify`` and is hardened as
docs/serve.md says; the Containerfile runs as a non-root user, makes no host key at build time, checks
``/readyz``, and its files are enough to build the wheel; both start ``wom-tui serve`` with options our
own parser accepts.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wom_tui.cli.parser import build_parser, settings_from_args

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "contrib" / "systemd" / "wom-tui.service"
CONTAINERFILE = REPO / "Containerfile"


def unit_settings(text: str) -> dict[str, list[str]]:
    """``Key=value`` lines of a unit (continuations joined), each key's values in order."""
    found: dict[str, list[str]] = {}
    joined = re.sub(r"\\\n\s*", " ", text)
    for line in joined.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def systemd_analyze() -> str:
    """The path of ``systemd-analyze``, installed with apt-get (as root) if it is missing."""
    tool = shutil.which("systemd-analyze")
    if tool is None and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "-q", "systemd"], capture_output=True, timeout=600,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.fail("systemd-analyze is missing: install systemd's tools (apt-get install systemd) to check the unit")
    return tool


def test_the_unit_is_hardened_and_keeps_its_state_in_a_state_directory() -> None:
    found = unit_settings(UNIT.read_text())
    expected = {
        "DynamicUser": "yes", "User": "wom-tui", "StateDirectory": "wom-tui", "StateDirectoryMode": "0700",
        "ProtectSystem": "strict", "NoNewPrivileges": "yes", "PrivateTmp": "yes", "ProtectHome": "yes",
        "Restart": "on-failure", "CapabilityBoundingSet": "",
    }
    assert {key: found.get(key, [None])[-1] for key in expected} == expected
    (start,) = found["ExecStart"]
    argv = shlex.split(start.replace("${STATE_DIRECTORY}", "/var/lib/wom-tui"))
    assert argv[0].endswith("/wom-tui")
    args = build_parser().parse_args(argv[1:])
    settings = settings_from_args(args)
    assert args.command == "serve" and settings.data_dir == Path("/var/lib/wom-tui")
    assert settings.metrics == "127.0.0.1:9464" and settings.log_format == "json"


def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    tool = systemd_analyze()
    # verify also checks that ExecStart's program exists: point it at this environment's wom-tui.
    program = Path(sys.executable).parent / "wom-tui"
    assert program.exists()
    unit = tmp_path / "wom-tui.service"
    unit.write_text(UNIT.read_text().replace("/opt/wom-tui/bin/wom-tui", str(program)))
    result = subprocess.run([tool, "verify", str(unit)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def containerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Containerfile, continuations joined, comments left out."""
    joined = re.sub(r"\\\n\s*", " ", CONTAINERFILE.read_text())
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line.strip() else "")
        for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_image_runs_as_a_user_makes_no_host_key_when_built_and_checks_readyz() -> None:
    steps = containerfile_instructions()
    final = steps[max(index for index, (word, _) in enumerate(steps) if word == "FROM"):]
    users = [argument for word, argument in final if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    runs = " ".join(argument for word, argument in steps if word == "RUN")
    assert "ssh-keygen" not in runs and "wom-tui" not in runs, "a host key made at build time is every image's"
    (health,) = [argument for word, argument in final if word == "HEALTHCHECK"]
    assert "/readyz" in health
    command = json.loads(health.split("CMD", 1)[1])
    compile(command[-1], "HEALTHCHECK", "exec")  # the probe is valid Python
    assert ("VOLUME", '["/data"]') in final
    (entry,) = [json.loads(argument) for word, argument in final if word == "ENTRYPOINT"]
    args = build_parser().parse_args(entry[1:])
    settings = settings_from_args(args)
    assert settings.data_dir == Path("/data") and settings.host == "0.0.0.0"
    assert settings.metrics == "0.0.0.0:9464" and "9464" in health
    exposed = {argument for word, argument in final if word == "EXPOSE"}
    assert exposed == {f"{settings.port} 9464"}


def test_the_files_the_image_copies_build_the_wheel(tmp_path: Path) -> None:
    steps = containerfile_instructions()
    copied = [argument.split()[:-1] for word, argument in steps if word == "COPY" and "--from" not in argument]
    context = tmp_path / "context"
    for sources in copied:
        for source in sources:
            target = context / source
            if (REPO / source).is_dir():
                shutil.copytree(REPO / source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(REPO / source, target)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "w"),
         str(context)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert list((tmp_path / "w").glob("wom_tui-*.whl"))

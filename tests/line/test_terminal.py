"""``wom-tui --line`` on standard input and output: plain lines, no screen control, a goodbye at the end."""

from __future__ import annotations

import io
import re

from wom_tui.cli import main


def test_wom_tui_line_reads_lines_and_writes_plain_lines(tmp_path_factory, monkeypatch) -> None:
    data = tmp_path_factory.mktemp("line-cli")
    typed = "solo\n1234\n\x1b[2Jboard\n" + "9" * 5000 + "\nregister Ada\nscores\n"
    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    monkeypatch.setattr("sys.stdout", out)
    assert main(["--line", "--data-dir", str(data), "--seed", "3"]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "World of Mastermind, line mode. You are a guest. Type help for the commands."
    assert lines[1].startswith("Solo game: 4 pegs of 0 1 2 3 4 5 6 7 8 9")
    assert lines[2].startswith("Guess 1: 1 2 3 4 — ")
    assert lines[3] == "Only 0, 1, 2, 3, 4, 5, 6, 7, 8 and 9 are allowed."  # a guess typed with an escape in it
    assert lines[4] == "That line is longer than 200 characters: nothing was done; type a shorter one."
    assert lines[5] == "You are in a solo game: finish it first."
    assert lines[-1] == "Goodbye, thanks for playing World of Mastermind!"  # the input ended: quit
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", out.getvalue())
    assert all(len(line) <= 120 for line in lines)

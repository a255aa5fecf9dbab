"""The SSH side's line editor: whole lines out of what a client sends, bounded whatever it sends."""

from __future__ import annotations

from wom_tui.serve.lines import LineEditor


def test_lines_echo_backspace_and_escape_sequences() -> None:
    editor = LineEditor(echo=True)
    lines, echo, stop = editor.feed("rgbx\x7fy\x1b[D\x1bOA\r\n")
    assert lines == ["rgby"] and not stop
    assert echo == "rgbx\b \by\r\n"  # no cursor addressing: a backspace, a space, a backspace
    lines, echo, _ = editor.feed("abc\x15so\x07lo\n")
    assert lines == ["solo"] and echo == "abc" + "\b \b" * 3 + "solo\r\n"
    assert editor.feed("\x04") == ([], "", True)  # Ctrl-D on an empty line: goodbye
    assert LineEditor(echo=False).feed("solo\r\n") == (["solo"], "", False)  # the client edits and echoes itself


def test_an_endless_paste_keeps_one_line_of_200_characters_at_most() -> None:
    editor = LineEditor(echo=True)
    for _ in range(100):
        _lines, echo, _ = editor.feed("9" * 10_000)
        assert len(editor.buffer) <= 200 and len(echo) <= 200
    lines, _, _ = editor.feed("\r")
    assert len(lines) == 1 and len(lines[0]) == 201  # one character too many: the engine says the line was too long
    assert editor.buffer == []

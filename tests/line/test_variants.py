"""The variants in line mode (docs/play.md, *Variants*, *Line mode*): ``solo quad|devious|strict|liar`` and a Quad
table opened with ``open 2 quad`` against HAL9000, answered in words (the conftest's player checks every line is at
most 120 characters, one line, no escape code)."""

from __future__ import annotations

from wom_tui.domain.codes import feedback


async def test_help_names_the_variants(make_player) -> None:
    player = make_player()
    await player.session.start()
    assert any(line.startswith("Variants: solo quad, solo devious, solo strict, solo liar") for line in await player.send("help"))


async def test_each_variant_solo_in_words(make_player, store) -> None:
    player = make_player()
    await player.session.start()
    # Quad: four codes, four answers a guess.
    lines = await player.send("solo quad")
    assert lines[0].startswith("Quad: Four codes at once") and lines[-1].endswith("9 guesses. Type your first guess.")
    codes = player.session.variant.secrets
    (line,) = await player.send("rrgg")
    answers = [feedback(code, "RRGG") for code in codes]
    assert line.startswith("Guess 1: R R G G — 1: ") and line.endswith(". 8 guesses left.")
    first = answers[0]
    assert (f"1: {first.black} place {first.white} colour" if first.black < 4 else "1: broken now") in line
    assert await player.send("solo liar") == ["You are in a Quad game: finish it or type leave first."]
    assert await player.send("board") == [line]
    for code in codes:
        await player.send(code)
    assert any(ln.startswith("You broke all four codes in") for ln in player.lines)
    assert any(ln.startswith("The codes were ") for ln in player.lines)
    # Strict: a guess that does not fit is refused with the reason, and costs nothing.
    await player.send("solo strict")
    game = player.session.variant
    secret = game.secrets[0]
    wrong = "RRRR" if feedback(secret, "RRRR").black < 4 else "GGGG"
    await player.send(wrong)
    misfit = next(code for code in ("WWWW", "KKKK", "BBBB", "YYYY", "GGGG", "RRRR")
                  if feedback(code, wrong) != game.rows[0].answers[0])
    refusal = " ".join(await player.send(misfit))  # a long reason comes as two lines of at most 120
    assert refusal.startswith(f"Strict: {misfit} does not fit guess #1") and game.guesses_used == 1
    assert await player.send("leave") == ["You dropped the game; it is not recorded."]
    # Liar: told at the start; the end names the lie.
    lines = await player.send("solo liar")
    assert lines[0].startswith("Liar: One of the first 3 answers is a lie")
    secret = player.session.variant.secrets[0]
    for code in ("BBYY", "GGBB", "YYRR", secret):
        await player.send(code)
    assert any("lie" in ln and ("The lie was the answer to guess" in ln or "before the lie came" in ln)
               for ln in player.lines[-3:])
    # Devious: no code; out of guesses, the code that fitted every answer.
    await player.send("solo devious 5g")
    for code in ("RRGG", "BBYY", "WWKK", "RGBY", "GRYB"):
        await player.send(code)
    assert any(ln.startswith("Devious held no code;") or ln.startswith("You broke Devious into a corner")
               for ln in player.lines[-3:])
    # Every finished game is recorded with its variant (the Strict game left is not), as a classic solo game.
    assert sorted(record.variant.value for _, record in store.games_with_ids()) == ["devious", "liar", "quad"]
    await player.session.close()


async def test_a_quad_table_against_hal9000_in_words(make_player, store) -> None:
    player = make_player()
    await player.session.start()
    lines = await player.send("open 2 quad")
    assert lines[0].startswith("Your table for Quad is open with 2 seats")
    assert any(ln.startswith("The table: Quad, 4 pegs of R G B Y W K") for ln in lines)
    await player.send("computer 2")
    await player.send("start")
    await player.wait_for(r"^Set your code for HAL9000")
    await player.send("RGBY")
    await player.wait_for(r"^Break HAL9000's code and three more: type your first guess")
    (guess,) = [ln for ln in await player.send("RRGG") if ln.startswith("Guess 1: ")]
    assert guess.startswith("Guess 1: R R G G — 1: ") and "; 4: " in guess and guess.endswith("8 guesses left.")
    assert store.live.table(player.session.table_id).variant.value == "quad"
    await player.send("leave")
    assert any(ln.startswith("You left table") for ln in player.lines)
    await player.session.close()

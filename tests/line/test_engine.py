"""Line mode's engine, transcript by transcript: what a player types, the lines they read, the store after."""

from __future__ import annotations

from wom_tui.domain.codes import feedback


async def test_a_solo_game_in_words_recorded_and_shared(make_player, store) -> None:
    player = make_player()
    await player.session.start()
    lines = await player.send("solo 4 classic")
    assert lines == ["Solo game: 4 pegs of R G B Y W K, repeats allowed, 10 guesses, one lifeline. Type your first guess."]
    secret = player.session.solo.as_json()["secret"]
    wrong = "RRRR" if secret != "RRRR" else "GGGG"
    black, white = feedback(secret, wrong)
    first = await player.send(wrong.lower())
    assert first == [
        f"Guess 1: {' '.join(wrong)} — "
        + (f"{black} right place, {white} right colour" if black or white else "nothing right")
        + ", 9 guesses left."]
    lines = await player.send(" ".join(secret))
    assert lines[0] == f"Guess 2: {' '.join(secret)} — all 4 right place. You broke the code in 2 guesses!"
    assert [game.players[0].name for game in store.games()] == ["Guest"]
    assert await player.send("share") == [
        f"Mastermind solo · 4 × Classic · 2/10. Right place and right colour per guess: {black} {white}, 4 0."]
    assert await player.send("board") == [first[0], f"Guess 2: {' '.join(secret)} — all 4 right place."]
    await player.session.close()


async def test_bad_input_gets_one_line_saying_what_was_wrong_and_what_is_right(make_player) -> None:
    player = make_player()
    await player.session.start()
    await player.send("solo")
    game = player.session.solo
    assert await player.send("12") == [
        "Guess too short; it must be exactly 4 symbols. Type 4 symbols of 0, 1, 2, 3, 4, 5, 6, 7, 8 and 9."]
    assert await player.send("lifeline wishes") == [
        "Type lifeline symbol (a symbol of the code, costs 1 guess) or lifeline position (a symbol in its place, costs 2)."]
    assert await player.send("solo 9") == ["You are in a solo game: finish it or type leave first."]
    assert game.guesses_used == 0 and player.session.solo is game
    assert await player.send("leave") == ["You dropped the game; it is not recorded."]
    assert await player.send("solo 9") == ["The code length must be 4 to 8, or random. Example: solo 5 classic 12g."]
    assert await player.send("solo purple") == ["I do not know the rule 'purple'. Example: solo 5 classic 12g."]
    assert await player.send("dance") == ["I do not know 'dance'. Type help for the commands; solo, quick or daily starts a game."]
    assert await player.send("join 3") == ["Type lobby first to see the tables, then join N with its number."]
    long = await player.send("x" * 500)
    assert long == ["That line is longer than 200 characters: nothing was done; type a shorter one."]


async def test_what_a_person_types_is_never_echoed_as_an_escape_code(make_player) -> None:
    player = make_player()
    await player.session.start()
    lines = await player.send("\x1b[2J\x1b[31mboom\x07")
    assert len(lines) == 1 and "\x1b" not in lines[0] and "\x07" not in lines[0]
    assert lines[0].startswith("I do not know '?[2J?[31mboom?'")
    await player.send("solo")
    lines = await player.send("12\x1b]0;title\x07")
    assert len(lines) == 1 and "\x1b" not in lines[0]


async def test_a_quick_match_with_hal9000_one_line_per_event(make_player, store) -> None:
    player = make_player()
    await player.session.start()
    await player.send("quick")
    await player.wait_for(r"^Set your code for HAL9000")
    assert await player.send("RGBY") == [
        "Guest 1 has set the code for HAL9000 to break.", "Every code is set: the players break them now.",
        "Break HAL9000's code: type your first guess. Each guess has 120 seconds."]
    table = store.live.table(player.session.table_id)
    secret = table.to_json()["seats"][1]["code"]
    await player.send("KKKK" if secret != "KKKK" else "WWWW")
    await player.send(secret)
    results = await player.wait_for(r"^Results: ")
    assert results.startswith(f"Results: Guest 1 broke {' '.join(secret)} in 2 guesses; HAL9000 broke R G B Y in ")
    guesses = [line for line in player.lines if line.startswith("Guess ")]
    assert [line.split(":")[0] for line in guesses] == ["Guess 1", "Guess 2"]
    hal = [line for line in player.lines if line.startswith("HAL9000 made guess")]
    assert len(hal) == len(set(hal)) and hal, player.lines
    assert player.lines.count(results) == 1
    share = await player.send("share")
    assert share == ["Mastermind table · 4 × Classic · 2/10. Right place and right colour per guess: "
                     f"{feedback(secret, 'KKKK' if secret != 'KKKK' else 'WWWW').black} "
                     f"{feedback(secret, 'KKKK' if secret != 'KKKK' else 'WWWW').white}, 4 0."]
    await player.session.close()
    assert len(store.games()) == 1


async def test_the_computer_breaks_your_code_from_answers_typed_as_two_numbers(make_player, store) -> None:
    player = make_player()
    await player.session.start()
    await player.send("flip")
    assert await player.send("2") == ["An answer is two numbers: right place, then right colour, for example 2 1."]
    assert (await player.send("5 1"))[0].endswith("Type two numbers, right place then right colour, for example 2 1.")
    secret = "RGBY"
    for _ in range(10):
        guess = player.session.flip.pending
        if guess is None:
            break
        black, white = feedback(secret, guess)
        await player.send(f"{black} {white}")
    assert player.lines[-1].startswith("HAL9000 broke your code in ")
    assert store.games()[0].kind.value == "flip"


async def test_registering_locally_then_daily_is_one_attempt_a_day(make_player, store) -> None:
    player = make_player()
    await player.session.start()
    assert await player.send("daily") == [
        "The daily code is for registered players: type register NAME first (over SSH, with a key)."]
    assert await player.send("register Ada") == ["Welcome, Ada: you are registered, and your games count from now on."]
    lines = await player.send("daily")
    assert lines[0].startswith("Mastermind daily ") and lines[0].endswith("10 guesses. Type your first guess.")
    secret = player.session.solo.as_json()["secret"]
    assert (await player.send(secret))[0].endswith("all 4 right place. You broke the code in 1 guess!")
    (share,) = await player.send("share")
    assert share.startswith("Mastermind daily ") and share.endswith("· 4 × Classic · 1/10. Right place and right "
                                                                     "colour per guess: 4 0.")
    assert await player.send("daily") == ["Ada has already played today's 4 × Classic code."]
    (attempt,) = store.daily_attempts_of("Ada")
    assert attempt.finished and attempt.broke and attempt.guesses == 1


async def test_two_line_players_open_join_start_and_finish_a_table(make_player, store) -> None:
    alan, grace = make_player(seed=1), make_player(seed=2)
    await alan.session.start()
    await grace.session.start()
    await alan.send("register Alan")
    await grace.send("register Grace")
    assert (await alan.send("open 2"))[0].startswith("Your table is open with 2 seats")
    assert await grace.send("lobby") == ["Table 1: open, Alan, free.", "join N takes a free seat, watch N watches."]
    await grace.send("join 1")
    await alan.wait_for(r"^Grace sat in seat 2\.$")
    await alan.send("start")
    await alan.wait_for(r"^Set your code for Grace")
    await grace.wait_for(r"^Set your code for Alan")
    await alan.send("RRGG")
    await grace.send("BBYY")
    await alan.wait_for(r"^Break Grace's code")
    await grace.send("RRGG")
    await alan.wait_for(r"^Grace made guess 1, 9 guesses left\.$")
    await alan.send("BBYY")
    result = await alan.wait_for(r"^Results: ")
    assert result == await grace.wait_for(r"^Results: ")
    assert result.startswith("Results: Alan broke B B Y Y in 1 guess, ")
    for player in (alan, grace):
        await player.session.close()


async def test_an_invitation_is_said_once_and_accepted_by_a_line(make_player, store) -> None:
    alan, grace = make_player(seed=1), make_player(seed=2)
    await alan.session.start()
    await grace.session.start()
    await alan.send("register Alan")
    await grace.send("register Grace")
    await grace.send("solo")  # busy elsewhere: the invitation reaches her anyway
    assert (await alan.send("invite grace")) [0] == "You invited Grace: the game starts once they accept."
    await grace.wait_for(r"^Alan invites you to a table: type accept or decline\.$")
    assert await grace.send("accept") == ["You are in a solo game: finish it or type leave first, then accept."]
    await grace.send("leave")
    await grace.send("accept")
    await grace.wait_for(r"^Set your code for Alan")
    await alan.wait_for(r"^Set your code for Grace")
    assert sum("invites you" in line for line in grace.lines) == 1
    for player in (alan, grace):
        await player.session.close()


async def test_notes_are_a_grid_read_slot_by_slot_and_never_read_by_the_game(make_player) -> None:
    player = make_player()
    await player.session.start()
    assert await player.send("notes") == [
        "Notes are for a code you are breaking: in a solo game, the daily code or at a table."]
    await player.send("solo 4 classic")
    assert await player.send("notes 2 r out") == ["Noted: R out in slot 2."]
    assert await player.send("notes 2 G sure") == ["Noted: G sure in slot 2."]
    assert await player.send("notes 5 R out") == [
        "Type notes SLOT SYMBOL out, sure or clear: a slot 1 to 4, a symbol of R G B Y W K (notes 2 R out)."]
    assert await player.send("notes") == [
        "Slot 1: nothing noted.", "Slot 2: R out, G sure.", "Slot 3: nothing noted.", "Slot 4: nothing noted."]
    assert player.session.solo.guesses_used == 0

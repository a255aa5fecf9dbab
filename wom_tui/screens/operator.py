"""The Operator screen (docs/serve.md, *The Operator screen*): every session online on every server sharing the
store, and what an operator does about them — kick, ban, retire a name, and a line every session shows.

Only a session the SSH server signed in with an ``--operator-key`` key reaches it (``WomApp.action_operator``);
every act goes through the same domain and store calls as ``wom-tui users ban``/``retire``, asks first (the
one dialog rule: Esc stays, ``y`` goes), and is reported to the server's log and metrics.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime, timezone

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, OptionList, Static
from textual.widgets.option_list import Option

from ..domain.game import Refusal
from ..domain.keys import fingerprints_in
from ..domain.moderation import Ban, Broadcast, Kick, ModerationRefused, check_reason, parse_duration
from ..domain.presence import HEARTBEAT_INTERVAL, Presence, screen_words
from ..domain.store import StoreError
from ..domain.users import name_key
from ..patches.footer import Footer
from .base import WomScreen
from .confirm import ConfirmScreen

COLUMNS = ("Name", "Address", "For", "Screen", "Via")


def _ago(seconds: float) -> str:
    """How long a session has been online, as an operator reads it at a glance: ``<1m``, ``12m``, ``3h05``."""
    minutes = int(max(seconds, 0) // 60)
    if minutes < 1:
        return "<1m"
    if minutes < 60:
        return f"{minutes}m"
    return f"{minutes // 60}h{minutes % 60:02d}"


class ReasonForm(ModalScreen["tuple[str, str, str] | None"]):
    """Asks what an act needs: for a ban its target (name, key or address) and duration; always a reason.

    Enter in the last field checks it (a refusal is shown and nothing changes); Esc stays where you were.
    Dismisses with (target, duration, reason), or None.
    """

    BINDINGS = [Binding("escape", "cancel", "Stay")]

    def __init__(self, title: str, targets: list[tuple[str, str]] | None = None, *, duration: bool = False,
                 check: Callable[[str, str, str], None] | None = None) -> None:
        super().__init__(classes="operator-form")
        self.title_text = title
        self.targets = targets or []
        self.duration = duration
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="operator-form"):
            yield Static(Text(self.title_text), id="operator-form-title")
            if len(self.targets) > 1:
                yield OptionList(*(Option(Text(label), id=value) for value, label in self.targets), id="operator-target")
            if self.duration:
                yield Input(placeholder="for how long: 30m, 2h, 7d (empty: for good)", id="operator-duration")
            yield Input(placeholder="reason (one line, the player reads it)", id="operator-reason")
            yield Static("", id="operator-form-error")
            yield Static(Text("Enter: next · Esc: stay"), id="operator-form-hint")

    def on_mount(self) -> None:
        targets = self.query(OptionList)
        if targets:
            targets.first().highlighted = 0
            targets.first().focus()
        else:
            self.query(Input).first().focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.query(Input).first().focus()

    def _target(self) -> str:
        found = self.query(OptionList)
        if found and found.first().highlighted is not None:
            option = found.first().get_option_at_index(found.first().highlighted or 0)
            return option.id or ""
        return self.targets[0][0] if self.targets else ""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "operator-duration":
            self.query_one("#operator-reason", Input).focus()
            return
        duration = self.query_one("#operator-duration", Input).value if self.duration else ""
        reason = self.query_one("#operator-reason", Input).value
        values = (self._target(), duration, reason)
        try:
            if self.check is not None:
                self.check(*values)
        except Refusal as refusal:
            self.query_one("#operator-form-error", Static).update(Text(refusal.reason))
            return
        self.dismiss(values)

    def action_cancel(self) -> None:
        """Stay: nothing is done."""
        self.dismiss(None)


class OperatorScreen(WomScreen):
    """Who is online (live), and the operator's acts on the highlighted session."""

    BINDINGS = [
        Binding("k", "kick", "Kick"),
        Binding("b", "ban", "Ban"),
        Binding("r", "retire", "Retire"),
        Binding("m", "message", "Broadcast"),
        Binding("c", "clear", "Clear line"),
    ]

    def __init__(self) -> None:
        super().__init__(id="operator")
        self.online: list[Presence] = []
        self._reading = False
        self._operator_keys: set[str] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="operator-box"):
            yield Static(Text("Operator: who is online"), id="operator-title")
            table: DataTable[Text] = DataTable(id="operator-sessions", cursor_type="row", zebra_stripes=True)
            yield table
            yield Static("", id="operator-broadcast")
            yield Input(placeholder="a line for every session (Enter sends)", id="operator-line", max_length=120)
            yield Static("", id="operator-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.refresh_sessions()
        self.set_interval(HEARTBEAT_INTERVAL, self.refresh_sessions)
        self.query_one(DataTable).focus()

    # -- who is online -------------------------------------------------------------------------------

    def refresh_sessions(self) -> None:
        """Read the sessions online and the broadcast again (in a thread; one read at a time)."""
        if self._reading:
            return
        self._reading = True
        self.run_worker(self._read(), group="operator-read", exit_on_error=False)

    def operator_keys(self) -> set[str]:
        """The fingerprints of the ``--operator-key`` files' keys and of this session's own key (read once)."""
        if self._operator_keys is None:
            keys = set()
            for path in self.wom.options.operator_keys:
                try:
                    keys |= fingerprints_in(path.read_text(encoding="utf-8", errors="replace"))
                except OSError:
                    pass
            self._operator_keys = keys
        own = self.wom.identity.fingerprint
        return self._operator_keys | ({own} if own else set())

    def operators(self) -> list[tuple[str | None, str | None, str | None]]:
        """(name, key, address) of this operator and of every session online with an operator's key or this
        operator's name: what no ban of theirs may cover (it would lock the arcade's operators out).
        """
        keys = self.operator_keys()
        identity = self.wom.identity
        own, mine = self.own_session(), name_key(identity.name) if identity.name else None
        found: list[tuple[str | None, str | None, str | None]] = [
            (identity.name, identity.fingerprint, self.wom.options.client_address)]
        for presence in self.online:
            if presence.session == own or presence.where.key in keys \
                    or (presence.registered and mine is not None and name_key(presence.name) == mine):
                found.append((presence.name if presence.registered else None, presence.where.key,
                              presence.where.address))
        found.extend((None, key, None) for key in keys)
        return found

    def check_not_an_operator(self, ban: Ban) -> None:
        """ModerationRefused if ``ban`` would cover an operator's key, name or current address."""
        for name, key, address in self.operators():
            if ban.covers(name=name, fingerprint=key, address=address):
                what = (f"the address {address}" if ban.kind == "address" else
                        "an operator's key" if ban.kind == "key" else f"the name {name}")
                raise ModerationRefused(f"That ban would cover {what}, an operator's: you would turn yourself "
                                        "away. Ban something narrower, or use `wom-tui users ban`.")

    async def _read(self) -> None:
        store = self.wom.store
        try:
            online, broadcast = await asyncio.to_thread(lambda: (store.live.sessions(), store.broadcast()))
        except (StoreError, OSError) as error:
            self._status(f"The store cannot be read now: {error}")
            return
        finally:
            self._reading = False
        self._show(online, broadcast)

    def _show(self, online: list[Presence], broadcast: Broadcast | None) -> None:
        table = self.query_one(DataTable)
        chosen = self.chosen()
        self.online = online
        table.clear()
        for presence in online:
            where = presence.where
            # A guest's label already says so ("Guest 2"): the name column shows it once.
            since = _ago(time.time() - presence.since)
            table.add_row(Text(presence.name), Text(where.address or "-"), Text(since), Text(screen_words(where.screen) if where.screen else "-"),
                          Text(where.transport or "-"), key=presence.session)
        if chosen is not None:
            for index, presence in enumerate(online):
                if presence.session == chosen.session:
                    table.move_cursor(row=index)
        self.query_one("#operator-title", Static).update(Text(f"Operator: {len(online)} online"))
        self.query_one("#operator-broadcast", Static).update(
            # Said here as well as in the footer, which at 60 columns has no room for "c Clear line".
            Text(f"Shown to everyone (c clears): {broadcast.text}" if broadcast
                 else "No line is shown to everyone (m writes one)."))

    def own_session(self) -> str | None:
        """The operator's own presence id (the server chose it), or None before it is known."""
        together = getattr(self.app, "together", None)
        return self.wom.options.session_id or (together.session if together is not None else None)

    def chosen_other(self, act: str) -> Presence | None:
        """The highlighted session if it is someone else's; otherwise None, with the reason on screen (an
        operator who kicked, banned or retired themselves would be locked out of their own arcade).
        """
        presence = self.chosen()
        if presence is None:
            self._status("Nobody is highlighted.")
            return None
        if presence.session == self.own_session():
            self._status(f"That is your own session: you cannot {act} it. Highlight another with ↑ ↓.")
            return None
        mine = self.wom.identity.name
        if act in ("kick", "retire") and (presence.where.key in self.operator_keys() or (
                presence.registered and mine is not None and name_key(presence.name) == name_key(mine))):
            self._status(f"{presence.name} signed in as an operator: you cannot {act} that session here.")
            return None
        return presence

    def chosen(self) -> Presence | None:
        """The highlighted session, or None."""
        table = self.query_one(DataTable)
        if not self.online or table.cursor_row is None or not 0 <= table.cursor_row < len(self.online):
            return None
        return self.online[table.cursor_row]

    def _status(self, text: str) -> None:
        self.query_one("#operator-status", Static).update(Text(text))

    def _me(self) -> str:
        identity = self.wom.identity
        return identity.name or identity.fingerprint or "operator"

    def _report(self, action: str, target: str | None, reason: str | None = None) -> None:
        self.app.report_operator(action, target=target, reason=reason)  # type: ignore[attr-defined]

    def _act(self, action: str, target: str, reason: str, work: Callable[[], object], done: str) -> None:
        """Do ``work`` (a store call) in a thread; report it, say ``done``, read the sessions again."""

        async def run() -> None:
            try:
                await asyncio.to_thread(work)
            except Refusal as refusal:
                self._status(refusal.reason)
                return
            except (StoreError, OSError) as error:
                self._status(f"Not done: the store failed ({error})")
                return
            self._report(action, target, reason)
            self._status(done)
            self.refresh_sessions()

        self.run_worker(run(), group="operator-act", exit_on_error=False)

    def _ask(self, question: str, detail: str, label: str, then: Callable[[], None]) -> None:
        def answered(go: bool | None) -> None:
            if go:
                then()

        self.app.push_screen(ConfirmScreen(question, detail, confirm_label=label,
                                           hint=f"y: {label.lower()} · Esc or n: stay"), answered)

    # -- the acts ------------------------------------------------------------------------------------

    def action_kick(self) -> None:
        """End the highlighted session (within seconds, with the reason), after asking; never the operator's own."""
        presence = self.chosen_other("kick")
        if presence is None:
            return

        def check(_target: str, _duration: str, reason: str) -> None:
            check_reason(reason)

        def filled(values: tuple[str, str, str] | None) -> None:
            if values is None:
                return
            reason = check_reason(values[2])
            kick = Kick.make(presence.session, reason, datetime.now(timezone.utc))
            self._ask(f"Kick {presence.name}?", kick.line, "Kick",
                      lambda: self._act("kick", presence.session, reason, lambda: self.wom.store.kick(kick),
                                        f"{presence.name} was kicked."))

        self.app.push_screen(ReasonForm(f"Kick {presence.name}", check=check), filled)

    def action_ban(self) -> None:
        """Ban the highlighted session's name, key or address, for a while or for good, after asking."""
        presence = self.chosen_other("ban")
        if presence is None:
            return
        targets = []
        if presence.registered:
            targets.append((f"name:{presence.name}", f"the name {presence.name}"))
        if presence.where.key:
            targets.append((presence.where.key, f"the key {presence.where.key[:20]}…"))
        if presence.where.address:
            targets.append((presence.where.address, f"the address {presence.where.address}"))
        if not targets:
            self._status(f"{presence.name} has no name, key or address to ban.")
            return

        def make(target: str, duration: str, reason: str) -> Ban:
            length = parse_duration(duration) if duration.strip() else None
            ban = Ban.make(target, reason, datetime.now(timezone.utc), length)
            self.check_not_an_operator(ban)
            return ban

        def filled(values: tuple[str, str, str] | None) -> None:
            if values is None:
                return
            ban = make(*values)
            self._ask(f"Ban {ban.target}?", ban.line, "Ban",
                      lambda: self._act("ban", f"{ban.kind}:{ban.target}", ban.reason,
                                        lambda: self.wom.store.add_ban(ban), f"Banned {ban.target} ({ban.id})."))

        def check(target: str, duration: str, reason: str) -> None:
            make(target, duration, reason)

        self.app.push_screen(ReasonForm(f"Ban {presence.name}: by", targets, duration=True, check=check), filled)

    def action_retire(self) -> None:
        """Retire the highlighted session's registered name, after asking."""
        presence = self.chosen_other("retire")
        if presence is None:
            return
        if not presence.registered:
            self._status("Highlight a registered player to retire their name.")
            return

        def check(_target: str, _duration: str, reason: str) -> None:
            check_reason(reason)

        def filled(values: tuple[str, str, str] | None) -> None:
            if values is None:
                return
            reason = check_reason(values[2])
            self._ask(f"Retire the name {presence.name}?", "It leaves every board; its keys stop signing in.",
                      "Retire", lambda: self._act("retire", presence.name, reason,
                                                  lambda: self.wom.store.retire(presence.name, reason),
                                                  f"{presence.name} is retired."))

        self.app.push_screen(ReasonForm(f"Retire {presence.name}", check=check), filled)

    def action_message(self) -> None:
        """Type the line every session shows."""
        self.query_one("#operator-line", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id != "operator-line":
            return
        try:
            broadcast = Broadcast.make(event.value, self._me(), datetime.now(timezone.utc))
        except ModerationRefused as refusal:
            self._status(refusal.reason)
            return
        event.input.value = ""
        self.query_one(DataTable).focus()
        self._act("broadcast", "everyone", broadcast.text, lambda: self.wom.store.set_broadcast(broadcast),
                  "Every session shows the line now.")

    def action_clear(self) -> None:
        """Take the line away from every session."""
        self._act("clear_broadcast", "everyone", "", lambda: self.wom.store.set_broadcast(None),
                  "The line is taken away.")

    def action_back(self) -> None:
        """Esc in the line goes back to the list; on the list, back to the menu."""
        line = self.query_one("#operator-line", Input)
        if line.has_focus:
            self.query_one(DataTable).focus()
            return
        super().action_back()


__all__ = ["COLUMNS", "OperatorScreen", "ReasonForm"]

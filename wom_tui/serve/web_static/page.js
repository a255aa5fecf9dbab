// World of Mastermind's part of the browser page (docs/serve.md): what textual-serve's page did in
// inline script, moved here so that the page's Content-Security-Policy allows no inline script; plus
// the tab's token, by which a reload (or a blink of the connection) finds the same game again; the
// server's goodbye, readable on the page; the keyboard focus on the terminal; a grid chosen so that a
// character stays readable; and on-screen keys where there is no keyboard.
(function () {
  "use strict";
  var KEY = "wom-tab";
  var TRIES = "wom-reconnects";
  var tab = sessionStorage.getItem(KEY);
  if (!tab || !/^[A-Za-z0-9_-]{22,64}$/.test(tab)) {
    var bytes = new Uint8Array(24);
    crypto.getRandomValues(bytes);
    tab = btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    sessionStorage.setItem(KEY, tab);
  }

  // The terminal takes the keyboard (xterm.js listens on its helper textarea): when the page opens and
  // after every reconnect, so that typing works without a click first.
  function focusTerminal() {
    var input = document.querySelector(".xterm-helper-textarea");
    if (input && document.activeElement !== input) {
      input.focus({ preventScroll: true });
    }
  }

  // What the page says when the game ends or the server turns the tab away: the server's own words
  // (its "wom_goodbye" message, sent just before it closes the socket), and what to do next.
  var FALLBACK = {
    4000: "The arcade turned this tab away.",
    4001: "This game was opened in another tab or window of this browser: play it there, or press Restart to bring it back here.",
    4002: "The game ended.",
    4003: "This tab signed in or out since its game began. Press Restart to start a game as who you are now."
  };
  var goodbye = null;
  function showGoodbye(text, next) {
    var message = document.querySelector(".closed-dialog .message");
    if (!message) {
      return;
    }
    message.textContent = text;
    var after = document.querySelector(".closed-dialog .wom-next");
    if (!after) {
      after = document.createElement("p");
      after.className = "wom-next";
      message.insertAdjacentElement("afterend", after);
    }
    after.textContent = next || "";
    after.hidden = !next;
  }

  // textual.js opens the socket itself and ends the page at its first close ("Session ended"). Wrapped
  // here: the socket is remembered (window.womSocket), and a close that is not the server's word (4000-4999:
  // the game's end, a refusal) reloads the page after a short pause, to reconnect to the same game.
  var Native = window.WebSocket;
  function Wrapped(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    window.womSocket = socket;
    socket.addEventListener("message", function () { sessionStorage.removeItem(TRIES); }, { once: true });
    socket.addEventListener("message", function (event) {
      if (typeof event.data === "string") {
        try {
          var envelope = JSON.parse(event.data);
          if (envelope[0] === "wom_goodbye" && envelope[1]) {
            goodbye = envelope[1];
          }
        } catch (ignored) { /* not ours */ }
      } else if (!socket.womFocused) {
        socket.womFocused = true;
        setTimeout(focusTerminal, 0);
      }
    });
    socket.addEventListener("close", function (event) {
      if (event.code >= 4000 && event.code < 5000) {
        var text = goodbye && goodbye.text ? goodbye.text : (FALLBACK[event.code] || FALLBACK[4002]);
        showGoodbye(text, goodbye ? goodbye.next : "");
        return;
      }
      var tries = parseInt(sessionStorage.getItem(TRIES) || "0", 10);
      if (tries >= 8) {
        showGoodbye("The connection to the arcade was lost.", "Press Restart to try again.");
        return;
      }
      sessionStorage.setItem(TRIES, String(tries + 1));
      setTimeout(function () { window.location.reload(); }, Math.min(250 * Math.pow(2, tries), 8000));
    });
    return socket;
  }
  Wrapped.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) { Wrapped[name] = Native[name]; });
  window.WebSocket = Wrapped;

  function startUrl() {
    var params = new URLSearchParams(window.location.search);
    params.delete("delay");
    return window.location.pathname + "?" + params.toString();
  }

  // -- the grid: a character at least 8 px wide (14 px Roboto Mono, as xterm.js measures it), 16 px where 60x20 still fits --------
  var ADVANCE = 0.6;  // Roboto Mono's advance width, in em
  var MIN_COLUMNS = 60;
  var MIN_ROWS = 20;
  var LINE = 1.2;  // a terminal row, in em (about)

  function fontSize(width, height) {
    for (var size = 16; size > 14; size--) {
      if (width / (size * ADVANCE) >= MIN_COLUMNS && height / (size * LINE) >= MIN_ROWS) {
        return size;
      }
    }
    return 14;
  }

  // -- on-screen keys, where there is no keyboard (a phone, a tablet) -------------------------------------
  var KEYS = [
    [["Esc", "\x1b"], ["Tab", "\t"], ["\u2190", "\x1b[D"], ["\u2191", "\x1b[A"], ["\u2193", "\x1b[B"],
     ["\u2192", "\x1b[C"], ["\u232b", "\x7f"], ["Enter", "\r"]],
    [["0", "0"], ["1", "1"], ["2", "2"], ["3", "3"], ["4", "4"], ["5", "5"], ["6", "6"], ["7", "7"],
     ["8", "8"], ["9", "9"]],
    [["R", "r"], ["G", "g"], ["B", "b"], ["Y", "y"], ["W", "w"], ["K", "k"], ["O", "o"], ["V", "v"],
     ["p", "p"], ["\u2328", null]]
  ];
  var NAMES = { "\u2190": "Left", "\u2191": "Up", "\u2193": "Down", "\u2192": "Right", "\u232b": "Backspace",
                "\u2328": "Keyboard" };

  function send(text) {
    var socket = window.womSocket;
    if (socket && socket.readyState === 1) {
      socket.send(JSON.stringify(["stdin", text]));
    }
  }

  function keyBar(narrow, landscape) {
    var bar = document.createElement("div");
    bar.id = "wom-keys";
    // Sideways the screen is short: two lower rows of keys (the controls with the digits, then the letters).
    var rows = landscape ? [KEYS[0].concat(KEYS[1]), KEYS[2]] : KEYS;
    if (landscape) {
      bar.className = "wom-compact";
    }
    bar.setAttribute("role", "toolbar");
    bar.setAttribute("aria-label", "Keys");
    if (narrow) {
      var hint = document.createElement("p");
      hint.id = "wom-turn";
      hint.textContent = "Turn your phone sideways to see the whole game (or scroll).";
      bar.appendChild(hint);
    }
    rows.forEach(function (row) {
      var line = document.createElement("div");
      line.className = "wom-key-row";
      row.forEach(function (key) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "wom-key";
        button.tabIndex = -1;
        button.textContent = key[0];
        button.setAttribute("aria-label", NAMES[key[0]] || key[0]);
        // The terminal keeps the focus: a tap on a key does not take it (nor open the phone's keyboard).
        button.addEventListener("pointerdown", function (event) { event.preventDefault(); });
        button.addEventListener("mousedown", function (event) { event.preventDefault(); });
        button.addEventListener("click", function (event) {
          event.preventDefault();
          if (key[1] === null) {
            focusTerminal();  // the phone's own keyboard, for names and chat
          } else {
            send(key[1]);
          }
        });
        line.appendChild(button);
      });
      bar.appendChild(line);
    });
    return bar;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    var touch = window.matchMedia("(pointer: coarse)").matches || window.matchMedia("(hover: none)").matches;
    var width = window.innerWidth;
    var bar = null;
    var narrow = false;
    var size = fontSize(width, window.innerHeight);
    narrow = width / (size * ADVANCE) < MIN_COLUMNS;
    if (touch) {
      bar = keyBar(narrow, window.innerWidth > window.innerHeight);
      document.body.appendChild(bar);
      document.body.classList.add("wom-touch");
    }
    var reserved = bar ? bar.offsetHeight : 0;
    size = fontSize(width, window.innerHeight - reserved);
    document.querySelectorAll(".textual-terminal").forEach(function (element) {
      element.dataset.sessionWebsocketUrl = scheme + "//" + window.location.host + "/ws/" + tab;
      element.dataset.fontSize = String(size);
      if (reserved) {
        element.style.height = "calc(100vh - " + reserved + "px)";
      }
      if (narrow) {
        // Too narrow for 60 columns of readable characters: 60 columns anyway, scrolled sideways in a
        // frame as wide as the screen (the page itself keeps the phone's width).
        element.style.width = Math.ceil(MIN_COLUMNS * size * ADVANCE + size) + "px";
        var frame = document.createElement("div");
        frame.id = "wom-scroll";
        element.parentNode.insertBefore(frame, element);
        frame.appendChild(element);
        document.body.classList.add("wom-narrow");
      }
    });
    document.querySelectorAll(".closed-dialog button, #start").forEach(function (button) {
      button.addEventListener("click", function () {
        sessionStorage.removeItem(TRIES);
        window.location.href = startUrl();
      });
    });
    // Turned sideways (or back): the page is laid out again for the new shape; the game waits for it.
    var shape = (window.innerWidth > window.innerHeight);
    window.addEventListener("resize", function () {
      if (touch && (window.innerWidth > window.innerHeight) !== shape) {
        window.location.reload();
      }
    });
  });
  window.addEventListener("focus", function () {
    if (document.body.classList.contains("-first-byte") && !document.body.classList.contains("-closed")) {
      focusTerminal();
    }
  });
})();

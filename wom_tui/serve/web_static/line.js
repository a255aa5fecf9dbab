// Line mode's page (/line, docs/serve.md): each line the game says is appended to the ARIA live region (a
// list, role="log"), which a screen reader announces and a braille display shows; each line typed in the
// form is sent to the game. The field takes the keyboard as the page opens and keeps it after each line.
// The tab's token (sessionStorage) lets a reload or a blink of the connection find the same game again.
(function () {
  "use strict";
  var KEY = "wom-line-tab";
  var KEEP = 500; // lines kept on the page (the oldest go first)
  var tab = sessionStorage.getItem(KEY);
  if (!tab || !/^[A-Za-z0-9_-]{22,64}$/.test(tab)) {
    var bytes = new Uint8Array(24);
    crypto.getRandomValues(bytes);
    tab = btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    sessionStorage.setItem(KEY, tab);
  }

  function start() {
    var log = document.getElementById("line-log");
    var form = document.getElementById("line-form");
    var input = document.getElementById("line-input");
    var status = document.getElementById("line-status");
    var socket = null;
    var over = false;
    var tries = 0;

    function add(text, typed) {
      var item = document.createElement("p");
      item.textContent = typed ? "> " + text : text; // text, never markup
      if (typed) {
        item.className = "typed";
        item.setAttribute("aria-hidden", "true"); // the player knows what they typed: not announced again
      }
      log.appendChild(item);
      while (log.children.length > KEEP) {
        log.removeChild(log.firstChild);
      }
      item.scrollIntoView({ block: "nearest" });
    }

    function connect() {
      var scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + "/line/ws/" + tab);
      socket.onopen = function () {
        tries = 0;
        status.textContent = "";
      };
      socket.onmessage = function (event) {
        var message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        if (!Array.isArray(message)) {
          return;
        }
        if (message[0] === "line" && typeof message[1] === "string") {
          add(message[1], false);
        } else if (message[0] === "goodbye") {
          over = true;
        }
      };
      socket.onclose = function () {
        socket = null;
        if (over) {
          status.textContent = "The game has ended. Load the page again to play again.";
          input.disabled = true;
          return;
        }
        tries += 1;
        status.textContent = "The connection dropped: connecting again.";
        setTimeout(connect, Math.min(5000, 500 * tries));
      };
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var text = input.value;
      if (!text.trim() || socket === null || socket.readyState !== WebSocket.OPEN) {
        return;
      }
      add(text, true);
      socket.send(JSON.stringify(["line", text]));
      input.value = "";
      input.focus();
    });

    input.focus();
    connect();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

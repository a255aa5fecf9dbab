// World of Mastermind's part of the browser page (docs/serve.md): what textual-serve's page did in
// inline script, moved here so that the page's Content-Security-Policy allows no inline script; plus
// the tab's token, by which a reload (or a blink of the connection) finds the same game again.
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

  // textual.js opens the socket itself and ends the page at its first close ("Session ended"). Wrapped
  // here: the socket is remembered (window.womSocket), and a close that is not the server's word (4000-4999:
  // the game's end, a refusal) reloads the page after a short pause, to reconnect to the same game.
  var Native = window.WebSocket;
  function Wrapped(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    window.womSocket = socket;
    socket.addEventListener("message", function () { sessionStorage.removeItem(TRIES); }, { once: true });
    socket.addEventListener("close", function (event) {
      if (event.code >= 4000 && event.code < 5000) {
        return;
      }
      var tries = parseInt(sessionStorage.getItem(TRIES) || "0", 10);
      if (tries >= 8) {
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

  document.addEventListener("DOMContentLoaded", function () {
    var scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    document.querySelectorAll(".textual-terminal").forEach(function (element) {
      element.dataset.sessionWebsocketUrl = scheme + "//" + window.location.host + "/ws/" + tab;
    });
    document.querySelectorAll("button").forEach(function (button) {
      button.addEventListener("click", function () {
        sessionStorage.removeItem(TRIES);
        window.location.href = startUrl();
      });
    });
  });
})();

// The player's page as their companion (issue 33; public/companion.py): when the live
// poll (htmx, static/js/live.js) brings the state "called" after another state, the page
// makes itself noticed: the title flashes ("▶ Table 7 — You're up") until the page is
// looked at, the phone vibrates where navigator.vibrate exists, and a short sound plays
// if the player switched it on (the checkbox "#companion-sound", kept in localStorage).
// The region carries its state as data-state (and the call's title as data-call); the
// page's main element is given the new state too. Without JavaScript the page just shows
// the state, and the checkbox stays hidden.
(function () {
  var KEY = "ginclub.companion.sound";
  var REGION = "player-view";
  var flashing = null;
  var title = document.title;

  function region() {
    return document.getElementById(REGION);
  }

  function soundOn() {
    try {
      return window.localStorage.getItem(KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function stopFlashing() {
    if (flashing !== null) {
      window.clearInterval(flashing);
      flashing = null;
      document.title = title;
    }
  }

  function flash(text) {
    stopFlashing();
    title = document.title;
    var shown = false;
    document.title = text;
    flashing = window.setInterval(function () {
      shown = !shown;
      document.title = shown ? title : text;
    }, 1000);
    // Looked at: the title stops flashing once the page is seen and touched.
    window.setTimeout(function () {
      if (document.visibilityState === "visible" && document.hasFocus()) {
        window.setTimeout(stopFlashing, 8000);
      }
    }, 0);
  }

  function call(element) {
    flash(element.getAttribute("data-call") || document.title);
    if (typeof navigator.vibrate === "function") {
      navigator.vibrate([300, 150, 300, 150, 300]);
    }
    var box = document.getElementById("companion-sound");
    if (box && soundOn()) {
      var sound = new Audio(box.getAttribute("data-src"));
      sound.play().catch(function () {
        // The browser refused to play without a recent tap: the title and vibration stay.
      });
    }
  }

  var last = null;

  function settled() {
    var element = region();
    if (!element) {
      return;
    }
    var state = element.getAttribute("data-state");
    var main = document.querySelector("main[data-state]");
    if (main && state) {
      main.setAttribute("data-state", state);
    }
    if (state === "called" && last !== null && last !== "called") {
      call(element);
    } else if (state !== "called") {
      stopFlashing();
    }
    last = state;
  }

  function setUp() {
    var element = region();
    last = element ? element.getAttribute("data-state") : null;
    var box = document.getElementById("companion-sound");
    if (box) {
      box.checked = soundOn();
      box.closest("[hidden]") && box.closest("[hidden]").removeAttribute("hidden");
      box.addEventListener("change", function () {
        try {
          window.localStorage.setItem(KEY, box.checked ? "1" : "0");
        } catch (error) {
          // Private browsing without storage: the choice lasts as long as the page.
        }
        if (box.checked) {
          // Played once now, on the tap: the browser then lets the page play it later.
          new Audio(box.getAttribute("data-src")).play().catch(function () {});
        }
      });
    }
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        window.setTimeout(stopFlashing, 8000);
      }
    });
    window.addEventListener("focus", function () {
      window.setTimeout(stopFlashing, 8000);
    });
  }

  document.addEventListener("htmx:afterSettle", function () {
    if (region()) {
      settled();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();

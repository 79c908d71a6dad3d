// The round clock: counts down once a second from the seconds the server printed
// (data-clock-left), so the page needs no reload. Without JavaScript the printed time
// stands, as of when the page was loaded.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll("[data-clock-left]").forEach(function (clock) {
      var started = clock.dataset.loadedAt ? Number(clock.dataset.loadedAt) : Date.now();
      clock.dataset.loadedAt = String(started);
      var left = Number(clock.dataset.clockLeft) - Math.floor((Date.now() - started) / 1000);
      var shown = clock.querySelector(".clock-time");
      if (!shown) return;
      if (left <= 0) {
        shown.textContent = shown.dataset.over || "0:00";
        clock.classList.add("over");
      } else {
        var seconds = String(left % 60);
        shown.textContent = Math.floor(left / 60) + ":" + (seconds.length < 2 ? "0" : "") + seconds;
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", tick);
})();

// The round clock: counts down once a second to the end the server printed
// (data-clock-end, milliseconds since the epoch), so the page needs no reload and a page
// served again from the cache is still right. Without JavaScript the printed text stands
// (the time the round ends, and on the director's page the minutes left when loaded).
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll("[data-clock-end]").forEach(function (clock) {
      var shown = clock.querySelector(".clock-time");
      if (!shown) return;
      var left = Math.round((Number(clock.dataset.clockEnd) - Date.now()) / 1000);
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

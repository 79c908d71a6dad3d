// Live regions of the public page: after a refresh, what changed since the last one is
// marked for a moment (class "just-changed": a match box, a standings row). Each thing
// that can change carries a stable data-key; its text before and after the swap is
// compared. Without JavaScript the page reloads whole and nothing is marked.
//
// A region answered as rendered before the latest change carries "Poll-Again-After:
// <seconds>" (public/live.py): its next poll is sent that much sooner than the usual
// interval (the event "poll-again", which each region's hx-trigger listens for), so that
// the change still shows within one poll interval.
(function () {
  var before = new Map();

  document.addEventListener("htmx:afterRequest", function (event) {
    var request = event.detail.xhr;
    var seconds = request && parseFloat(request.getResponseHeader("Poll-Again-After"));
    var id = event.detail.target && event.detail.target.id;
    if (!seconds || !id) {
      return;
    }
    window.setTimeout(function () {
      var region = document.getElementById(id);
      if (region) {
        htmx.trigger(region, "poll-again");
      }
    }, seconds * 1000);
  });

  function texts(region) {
    var seen = new Map();
    region.querySelectorAll("[data-key]").forEach(function (element) {
      seen.set(element.getAttribute("data-key"), element.textContent);
    });
    return seen;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var region = event.detail.target;
    if (region && region.id && region.querySelector("[data-key]")) {
      before.set(region.id, texts(region));
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    before.forEach(function (seen, id) {
      var region = document.getElementById(id);
      if (!region) {
        return;
      }
      region.querySelectorAll("[data-key]").forEach(function (element) {
        var old = seen.get(element.getAttribute("data-key"));
        if (old !== element.textContent) {
          element.classList.add("just-changed");
        }
      });
    });
    before.clear();
  });
})();

// The projector's standings in pages (public/standings_pages.py): the standings panel
// holds every entrant, in pages of at most 16 rows (data-page), the first shown. Each time
// the panel would be fetched again (htmx's "every" trigger on #display-panel), the next
// page is shown instead and the request is not sent; after the last page the next panel
// is fetched as before. Without JavaScript the first page shows, with links to the others.
(function () {
  document.addEventListener("htmx:beforeRequest", function (event) {
    var region = event.detail.elt;
    if (!region || region.id !== "display-panel") {
      return;
    }
    var shown = region.querySelector(".pj-page[data-page]:not([hidden])");
    var next = shown && shown.nextElementSibling;
    if (next && next.matches(".pj-page[data-page]")) {
      event.preventDefault();
      shown.hidden = true;
      next.hidden = false;
    }
  });
})();

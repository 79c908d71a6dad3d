// Marks the page as enhanced so buttons needed only without JavaScript can hide.
document.documentElement.classList.add("htmx-on");

// A region that refreshes itself (hx-trigger "every …") skips its refresh while it is in
// use: while it holds the focus, or a form field in it differs from what the page was
// sent with (a walkover's winner chosen, not yet sent). A refresh would put the page's
// values back and drop the focus to the page body. The next refresh after that goes ahead;
// requests the person starts, and refreshes on an event, are never held back.
(function () {
  function polls(element) {
    return /(^|,)\s*every\s/.test(element.getAttribute("hx-trigger") || "");
  }

  function changed(field) {
    if (field.type === "hidden" || field.type === "submit" || field.type === "button") {
      return false;
    }
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      const options = Array.from(field.options);
      if (field.multiple) {
        return options.some((option) => option.selected !== option.defaultSelected);
      }
      const sent = options.findIndex((option) => option.defaultSelected);
      return field.selectedIndex !== (sent === -1 ? 0 : sent);
    }
    return field.value !== field.defaultValue;
  }

  // Shared with the phones' outbox (static/js/outbox.js): has the person touched the form?
  window.ginclub = window.ginclub || {};
  window.ginclub.fieldChanged = changed;

  function inUse(region) {
    const focus = document.activeElement;
    if (focus && focus !== document.body && region.contains(focus)) {
      return true;
    }
    return Array.from(region.querySelectorAll("input, select, textarea")).some(changed);
  }

  document.addEventListener("htmx:confirm", function (event) {
    const detail = event.detail;
    // A poll has no triggering event; an event-triggered refresh or a submit has one.
    if (detail.triggeringEvent || !polls(detail.elt)) {
      return;
    }
    if (inUse(detail.target) || (detail.elt !== detail.target && inUse(detail.elt))) {
      event.preventDefault();
    }
  });
})();

// A form sent back by the server names where the person goes next with autofocus (the
// first field in error, or the next hand's first question). htmx would otherwise keep the
// focus on the element that had it before the swap (the same id), or drop it to the body.
document.addEventListener("htmx:afterSettle", function (event) {
  const target = event.detail.elt;
  const next = target && target.querySelector ? target.querySelector("[autofocus]") : null;
  if (next && document.activeElement !== next) {
    next.focus();
  }
});

// The card picker of the hand form (scoring/partials/hand_fields.html). Without this script the
// picker is plain checkboxes and the server works everything out when the form is sent.
// With it: a card ticked in one hand is greyed out in the other, each hand's count of
// cards shows as you tap, and when the preview (htmx) answers with what the cards say,
// the form's kind and both deadwood counts are filled from it. A count you typed yourself
// is left alone, so that the preview can say where it disagrees with the cards.
(function () {
  "use strict";
  var HANDS = ["knocker_cards", "defender_cards"];

  function other(name) {
    return name === HANDS[0] ? HANDS[1] : HANDS[0];
  }

  function boxes(form, name) {
    return Array.prototype.slice.call(form.querySelectorAll('input[name="' + name + '"]'));
  }

  function sync(form) {
    HANDS.forEach(function (name) {
      var ticked = {};
      boxes(form, other(name)).forEach(function (box) {
        if (box.checked) {
          ticked[box.value] = true;
        }
      });
      var count = 0;
      boxes(form, name).forEach(function (box) {
        if (box.checked) {
          count += 1;
        }
        var taken = !box.checked && ticked[box.value] === true;
        box.disabled = taken;
        box.parentNode.classList.toggle("taken", taken);
      });
      var shown = form.querySelector('[data-count="' + name + '"]');
      if (shown) {
        shown.textContent = String(count);
      }
    });
  }

  // Fill a field the person has not typed into (empty, or still what was filled last).
  function fill(field, value) {
    if (!field) {
      return;
    }
    if (field.value === "" || field.value === field.dataset.filled) {
      field.value = value;
      field.dataset.filled = value;
    }
  }

  function apply(form, ruling) {
    var kind = ruling.dataset.kind;
    var chosen = form.querySelector('input[name="kind"]:checked');
    if (!chosen || chosen.dataset.filled === "1") {
      var radio = form.querySelector('input[name="kind"][value="' + kind + '"]');
      if (radio && !radio.checked) {
        if (chosen) {
          delete chosen.dataset.filled;
        }
        radio.checked = true;
        radio.dataset.filled = "1";
      }
    }
    if (kind === "knock") {
      fill(form.querySelector('input[name="deadwood"]'), ruling.dataset.deadwood);
    }
    fill(form.querySelector('input[name="defender_deadwood"]'), ruling.dataset.defenderDeadwood);
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box && HANDS.indexOf(box.name) !== -1 && box.form) {
      sync(box.form);
    }
  });

  // The preview region is swapped whole (outerHTML): look for it afresh in each form.
  document.addEventListener("htmx:afterSettle", function () {
    Array.prototype.forEach.call(document.querySelectorAll("form"), function (form) {
      var ruling = form.querySelector("#hand-preview .ruling");
      if (ruling && form.querySelector(".card-picker")) {
        apply(form, ruling);
      }
    });
  });

  function start(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".card-picker"), function (picker) {
      if (picker.closest("form")) {
        sync(picker.closest("form"));
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    start(document);
  });
  document.addEventListener("htmx:load", function (event) {
    start(event.detail.elt.closest ? event.detail.elt : document);
  });
})();

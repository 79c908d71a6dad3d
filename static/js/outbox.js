// The phone's outbox (issue 32): a table link's writes (a hand, a deal, a correction, a
// confirmation: the forms marked data-outbox) are kept on the phone until the server has
// answered them, and resent by themselves if the Wi-Fi dropped.
//
// Before a marked form is sent, its entry (URL, fields with the CSRF token and the
// submission id, a summary of its values, the time) goes into localStorage, under the
// table link's path, so two links on one phone do not mix. Any HTTP answer is definitive
// (the server stored it, or said why not), except a network error, a timeout (10 s: a
// server asleep answers nothing) and 502/503/504 (a proxy's "no server"): the entry then
// stays, is shown as "Not sent yet", and is resent with the SAME submission id after 1, 2,
// 4 … 30 s, at once when the phone says it is back online, and on the next page load.
// The server answers a resend of a stored submission as it answered the first time, so a
// hand whose answer was lost is stored once and the phone still ends on "Saved".
//
// How an answer is shown: a hand form (data-outbox="swap") is sent as htmx sends it and
// its answer replaces the entry region, as htmx would have (events in HX-Trigger included:
// the score regions reload). A full-page form (data-outbox="page": a correction, a
// confirmation) is then submitted by the browser with the same fields: its answer is
// the recorded one (the same redirect and message), and the browser shows it.
//
// Also: a hand entered elsewhere shows in the score (the 20 s poll of #match-head, or a
// reconnect); when the score's version (data-version) is newer than the entry region's,
// an untouched entry region is reloaded, and a form the player has started is kept as it
// is, with a notice (the server refuses it as stale or taken, saying what was stored).
//
// Its words are the page's (#outbox's data attributes, translated). Without JavaScript
// none of this runs: the plain forms post as before.
(function () {
  "use strict";

  var link = /^\/table\/[^/]+\//.exec(window.location.pathname);
  if (!link || !window.fetch || !window.URLSearchParams) {
    return;
  }
  var KEY = "ginclub-outbox:" + link[0];
  var ID = /^[0-9a-f]{32}$/;
  var TIMEOUT = 10000;
  var FIRST_WAIT = 1000;
  var LAST_WAIT = 30000;
  var wait = FIRST_WAIT;
  var timer = null;
  var busy = false;
  var tapped = false; // the player just tapped: show them what became of it
  var memory = []; // if the page's storage is unavailable (a private tab, a full quota)

  function load() {
    try {
      var kept = window.localStorage.getItem(KEY);
      return kept ? JSON.parse(kept) : [];
    } catch (error) {
      return memory.slice();
    }
  }

  function store(entries) {
    memory = entries.slice();
    try {
      if (entries.length) {
        window.localStorage.setItem(KEY, JSON.stringify(entries));
      } else {
        window.localStorage.removeItem(KEY);
      }
    } catch (error) {
      // kept in memory only: still resent while the page is open
    }
  }

  function remove(id) {
    store(
      load().filter(function (entry) {
        return entry.id !== id;
      })
    );
  }

  function newId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, function (byte) {
      return (byte + 256).toString(16).slice(1);
    }).join("");
  }

  // ---- what the notice says ----------------------------------------------------------

  function words() {
    var box = document.getElementById("outbox");
    return box ? box.dataset : {};
  }

  function show(state, entry) {
    var box = document.getElementById("outbox");
    if (!box) {
      return;
    }
    box.classList.remove("sending", "pending", "saved", "refused", "queued", "changed");
    if (!state) {
      box.hidden = true;
      return;
    }
    box.classList.add(state);
    box.querySelector(".outbox-state").textContent = words()[state] || "";
    var what = box.querySelector(".outbox-what");
    what.textContent = "";
    if (entry) {
      var title = document.createElement("strong");
      title.textContent = entry.title + " · " + clock(entry.time);
      what.appendChild(title);
      entry.summary.forEach(function (line) {
        var item = document.createElement("span");
        item.textContent = line;
        what.appendChild(item);
      });
    }
    box.querySelector(".outbox-retry").hidden = state !== "pending";
    box.hidden = false;
    // Save sits at the foot of a long form: bring what became of a tap into view (not a
    // resend by itself, which must not pull the page from under a reading thumb).
    var top = box.getBoundingClientRect().top;
    if (tapped && (top < 0 || top > window.innerHeight - 80)) {
      box.scrollIntoView({ block: "start" });
    }
  }

  // The time as the server's pages write it: Django's TIME_FORMAT for the page's language
  // ("P": "6:40 p.m.", "noon"; "H:i": "18:40") and its words, from the outbox's data-
  // attributes (scoring/templatetags/sheet_text.py); a backslash escapes a letter.
  function clock(time) {
    var date = new Date(time);
    var data = words();
    var format = data.timeFormat || "H:i";
    var out = "";
    for (var i = 0; i < format.length; i++) {
      var letter = format.charAt(i);
      if (letter === "\\" && i + 1 < format.length) {
        i += 1;
        out += format.charAt(i);
      } else {
        out += timePart(date, letter, data);
      }
    }
    return out;
  }

  function timePart(date, letter, data) {
    var hour = date.getHours();
    var minute = date.getMinutes();
    var twelve = hour % 12 || 12;
    switch (letter) {
      case "a": return hour < 12 ? data.am : data.pm;
      case "A": return hour < 12 ? data.amUpper : data.pmUpper;
      case "f": return minute ? twelve + ":" + pad(minute) : String(twelve);
      case "g": return String(twelve);
      case "G": return String(hour);
      case "h": return pad(twelve);
      case "H": return pad(hour);
      case "i": return pad(minute);
      case "s": return pad(date.getSeconds());
      case "P":
        if (!minute && (hour === 0 || hour === 12)) {
          return hour ? data.noon : data.midnight;
        }
        return timePart(date, "f", data) + " " + timePart(date, "a", data);
      default: return letter;
    }
  }

  function pad(number) {
    return number < 10 ? "0" + number : String(number);
  }

  // The values as the player chose them: the labels of the choices ticked, the numbers
  // typed with their labels, the cards picked.
  function summarize(form) {
    var lines = [];
    var chosen = [];
    form.querySelectorAll("fieldset.choice-buttons").forEach(function (set) {
      var picked = set.querySelector("input:checked");
      var label = picked && picked.closest("label");
      if (label) {
        chosen.push(text(label));
      }
    });
    if (chosen.length) {
      lines.push(chosen.join(" · "));
    }
    form.querySelectorAll('input[type="number"], select').forEach(function (field) {
      var label = field.id && form.querySelector('label[for="' + field.id + '"]');
      var shown = field.tagName === "SELECT" ? selected(field) : field.value;
      if (label && shown) {
        lines.push(text(label) + ": " + shown);
      }
    });
    form.querySelectorAll(".pick-count").forEach(function (count) {
      if (count.textContent.trim() !== "0") {
        lines.push(count.parentNode.textContent.replace(/\s+/g, " ").trim());
      }
    });
    return lines;
  }

  // A label's own words, without its small print ("(knock only)").
  function text(label) {
    var copy = label.cloneNode(true);
    copy.querySelectorAll("small").forEach(function (small) {
      small.remove();
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function selected(select) {
    var option = select.options[select.selectedIndex];
    return option && option.value ? option.textContent.trim() : "";
  }

  // ---- sending -------------------------------------------------------------------------

  function fields(form, submitter) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") {
        pairs.push([name, value]);
      }
    });
    if (submitter && submitter.name) {
      pairs.push([submitter.name, submitter.value]);
    }
    return pairs;
  }

  function field(entry, name) {
    var pair = entry.fields.find(function (item) {
      return item[0] === name;
    });
    return pair ? pair[1] : "";
  }

  function send(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) {
      body.append(pair[0], pair[1]);
    });
    var headers = { "X-CSRFToken": field(entry, "csrfmiddlewaretoken") };
    if (entry.mode === "swap") {
      headers["HX-Request"] = "true";
      headers["HX-Target"] = "match-entry";
      headers["HX-Current-URL"] = window.location.href;
    }
    var controller = new AbortController();
    var timeout = window.setTimeout(function () {
      controller.abort();
    }, TIMEOUT);
    return window
      .fetch(entry.url, {
        method: "POST",
        body: body,
        headers: headers,
        credentials: "same-origin",
        cache: "no-store",
        signal: controller.signal,
      })
      .then(function (response) {
        if ([502, 503, 504].indexOf(response.status) !== -1) {
          throw new Error("no server behind the proxy: " + response.status);
        }
        // The body too must arrive before the timeout for the answer to count.
        return response.text().then(function (text) {
          return { response: response, text: text };
        });
      })
      .finally(function () {
        window.clearTimeout(timeout);
      });
  }

  function flush() {
    window.clearTimeout(timer);
    timer = null;
    if (busy) {
      return;
    }
    var entry = load()[0];
    if (!entry) {
      return;
    }
    busy = true;
    show("sending", entry);
    send(entry).then(
      function (answer) {
        busy = false;
        tapped = false;
        remove(entry.id);
        wait = FIRST_WAIT;
        shown(entry, answer.response, answer.text);
        if (load().length) {
          flush();
        }
      },
      function () {
        busy = false;
        show("pending", load()[0] || entry);
        tapped = false;
        timer = window.setTimeout(flush, wait);
        wait = Math.min(wait * 2, LAST_WAIT);
      }
    );
  }

  // The server's answer, shown as htmx (a hand) or the browser (a full page) shows it.
  function shown(entry, response, text) {
    var redirect = response.headers.get("HX-Redirect");
    if (redirect) {
      window.location.assign(redirect);
      return;
    }
    var region = document.getElementById("match-entry");
    if (entry.mode !== "swap" || response.redirected || response.status !== 200 || !region) {
      // A full page's answer: sent again by the browser, it answers the same (the
      // recorded redirect and its message, or a refusal that wrote nothing), and the
      // browser shows it. (The message went to the page this request was redirected to,
      // which nobody saw; the browser's own visit shows it once.)
      show("sending", entry);
      resubmit(entry);
      return;
    }
    htmx.swap(region, text, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
    if (/show:window:top/.test(response.headers.get("HX-Reswap") || "")) {
      window.scrollTo(0, 0);
    }
    triggered(response.headers.get("HX-Trigger"));
    // A refusal (taken, stale, invalid; queued: the match has no table yet) is definitive,
    // never sent again: the region says why; this says what was sent.
    var outcome = response.headers.get("Submission-Outcome");
    show(outcome === "saved" || outcome === "queued" ? outcome : "refused", entry);
  }

  function triggered(header) {
    if (!header) {
      return;
    }
    var events = {};
    if (header.charAt(0) === "{") {
      events = JSON.parse(header);
    } else {
      header.split(",").forEach(function (name) {
        events[name.trim()] = null;
      });
    }
    Object.keys(events).forEach(function (name) {
      htmx.trigger(document.body, name, events[name]);
    });
  }

  // The same fields, sent by the browser: a stored submission answers as the first time.
  function resubmit(entry) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = entry.url;
    form.hidden = true;
    entry.fields.forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);
  }

  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var submitter = event.submitter;
      if (!form.matches || !form.matches("form[data-outbox]")) {
        return;
      }
      if (submitter && submitter.name === "preview") {
        return; // "Show points" (without JavaScript only) writes nothing
      }
      // Before htmx's own handler on the form: the outbox sends it.
      event.preventDefault();
      event.stopImmediatePropagation();
      var submission = form.querySelector('input[name="submission"]');
      if (submission && !ID.test(submission.value)) {
        submission.value = newId();
      }
      var pairs = fields(form, submitter);
      var id = submission ? submission.value : newId();
      var entries = load();
      if (
        entries.some(function (entry) {
          return entry.id === id;
        })
      ) {
        wait = FIRST_WAIT;
        tapped = true;
        flush(); // tapped again while it waits: try now, with what was kept
        return;
      }
      entries.push({
        id: id,
        url: new URL(form.action, window.location.href).pathname,
        mode: form.dataset.outbox === "swap" ? "swap" : "page",
        fields: pairs,
        title: form.dataset.outboxTitle || "",
        summary: summarize(form),
        time: Date.now(),
      });
      store(entries);
      wait = FIRST_WAIT;
      tapped = true;
      flush();
    },
    true
  );

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#outbox .outbox-retry")) {
      wait = FIRST_WAIT;
      tapped = true;
      flush();
    }
  });

  window.addEventListener("online", function () {
    wait = FIRST_WAIT;
    if (load().length) {
      flush(); // its answer refreshes the score
    } else {
      // The score may have moved while the phone was away.
      htmx.trigger(document.body, "score-check");
    }
  });

  // ---- a fresh score -------------------------------------------------------------------

  // Has the player touched this field? (static/js/htmx-on.js, loaded by every page)
  const changed = window.ginclub.fieldChanged;

  function version(element) {
    var value = element && parseInt(element.dataset.version, 10);
    return isNaN(value) ? null : value;
  }

  // After any swap: is the score (#match-head) newer than the entry region's form?
  document.addEventListener("htmx:afterSettle", function () {
    var head = document.getElementById("match-head");
    var region = document.getElementById("match-entry");
    var now = version(head);
    var then = version(region);
    if (now === null || then === null || now <= then || busy || load().length) {
      return;
    }
    var started = Array.from(region.querySelectorAll("input, select, textarea")).some(changed);
    if (started) {
      // Kept as typed, number and seen version included: if it is the hand just entered
      // elsewhere, the server says what was stored rather than storing it twice.
      show("changed", null);
      return;
    }
    htmx.ajax("GET", region.dataset.url, { target: region, swap: "outerHTML" });
  });

  function start() {
    var entries = load();
    if (entries.length) {
      show("pending", entries[0]);
      flush();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

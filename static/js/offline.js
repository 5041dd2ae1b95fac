// ---- The typed round stays on this device until the server has it ----
// Tablets on club Wi-Fi drop out. A round typed and saved while the server cannot be
// reached is kept in localStorage (plain http on the LAN: no service worker), keyed by
// game, round and the revision the page was opened at; the page says so, and sends it by
// itself as soon as the server answers ("Send it now" tries at once). It is sent as the
// form always is (its revision and base scores with it), so a round another device saved
// meanwhile is merged or asked about (409) as usual, and a round is never saved twice
// (one send at a time). A save that reached the server leads to a page flashing "saved"
// (views/rounds.py): only then is it forgotten.
(function () {
  "use strict";
  var PREFIX = "scorekeeper.draft:", SENDING = "scorekeeper.sending";
  var store, tab;
  try { store = window.localStorage; tab = window.sessionStorage; store.getItem(PREFIX); }
  catch (e) { return; }   // storage refused (a private window): the form works as before
  var form = document.getElementById("round-form");

  // A save this tab sent: the page it led to says whether the server took it.
  var sent = tab.getItem(SENDING);
  if (sent) {
    var sentRound = sent.slice(PREFIX.length).split(":").slice(0, 2).join(":");
    if (document.querySelector(".flash.saved")) {
      store.removeItem(sent);
      tab.removeItem(SENDING);
    } else if (form && form.dataset.draft === sentRound) {
      tab.removeItem(SENDING);   // refused and shown again with what was typed: kept
    }   // else the PIN page, or no answer at all: wait for the page that follows
  }
  if (!form || !form.dataset.draft) return;

  var box = document.getElementById("unsent"), text = document.getElementById("unsent-text");
  var sendNow = document.getElementById("unsent-send");
  var saveButton = document.getElementById("save-round");
  var round = form.dataset.draft.split(":")[1];
  var watching = null;

  function draftsOfThisRound() {
    var keys = [];
    for (var i = 0; i < store.length; i++) {
      var k = store.key(i);
      if (k && k.indexOf(PREFIX + form.dataset.draft + ":") === 0) keys.push(k);
    }
    return keys;
  }
  function fields() {
    var out = [];
    new FormData(form).forEach(function (v, k) { if (k !== "csrf_token") out.push([k, String(v)]); });
    return out;
  }
  function keep() {
    draftsOfThisRound().forEach(function (k) { store.removeItem(k); });
    var key = PREFIX + form.dataset.draft + ":" + (form.elements.revision ? form.elements.revision.value : "");
    try { store.setItem(key, JSON.stringify({ fields: fields(), at: Date.now() })); }
    catch (e) { /* storage full: the form is still on the page */ }
    return key;
  }
  function say(sentence, canSend) {
    text.textContent = sentence.replace("{round}", round);
    sendNow.hidden = !canSend;
    sendNow.disabled = false;
    box.hidden = false;
  }
  function reachable(timeout) {
    var ctrl = window.AbortController ? new AbortController() : null;
    var timer = ctrl ? setTimeout(function () { ctrl.abort(); }, timeout) : null;
    return fetch(form.dataset.probe, { cache: "no-store", credentials: "same-origin",
                                       signal: ctrl ? ctrl.signal : undefined })
      .then(function (r) { return r.ok; }, function () { return false; })
      .then(function (ok) { if (timer) clearTimeout(timer); return ok; });
  }
  function watch() {
    // Sent by itself as soon as the server answers: asked on the browser's "online", and
    // every 3 s until then.
    if (watching) return;
    function check() {
      if (!watching || sending) return;
      reachable(4000).then(function (ok) {
        if (!ok || !watching || sending) return;
        clearInterval(watching);
        watching = null;
        window.removeEventListener("online", check);
        say(form.dataset.sending, false);
        send();
      });
    }
    watching = setInterval(check, 3000);
    window.addEventListener("online", check);
  }
  var sending = false;
  function send() {
    if (sending) return;   // one save at a time: a second tap never sends it twice
    sending = true;
    sendNow.disabled = true;   // trying: "Send it now" again once the try has failed
    var key = keep();
    if (saveButton) saveButton.disabled = true;
    reachable(6000).then(function (ok) {
      if (!ok) {
        sending = false;
        if (saveButton) saveButton.disabled = false;
        say(form.dataset.unsent, true);   // sent by itself later; "Send it now" tries again
        watch();
        return;
      }
      tab.setItem(SENDING, key);
      HTMLFormElement.prototype.submit.call(form);   // the form as always, not this handler
    });
  }
  window.addEventListener("pageshow", function (e) {
    // Back to this page from the browser's history: it may be sent again.
    if (e.persisted) {
      sending = false;
      sendNow.disabled = false;
      if (saveButton) saveButton.disabled = false;
    }
  });
  form.addEventListener("submit", function (e) {
    if (!window.fetch) return;
    e.preventDefault();
    send();
  });
  sendNow.addEventListener("click", send);
  document.getElementById("unsent-discard").addEventListener("click", function () {
    draftsOfThisRound().forEach(function (k) { store.removeItem(k); });
    tab.removeItem(SENDING);
    location.reload();
  });

  // A round typed here and never sent: put it back in the form, unless the server has just
  // shown the form again with what was typed (a refusal, a conflict, a warning).
  var kept = draftsOfThisRound();
  if (!kept.length || form.hasAttribute("data-hold")) return;
  var draft;
  try { draft = JSON.parse(store.getItem(kept[kept.length - 1])); } catch (e) { draft = null; }
  if (!draft || !draft.fields) return;
  var differs = draft.fields.some(function (f) {
    var el = form.elements[f[0]];
    return /^score-/.test(f[0]) && el && el.value !== f[1];
  });
  if (!differs) {   // what is stored already: nothing to offer
    kept.forEach(function (k) { store.removeItem(k); });
    return;
  }
  // House scoring's toggles (js/house-scoring.js): a draft holds the ones that were on.
  form.querySelectorAll("input[type=checkbox]").forEach(function (b) { b.checked = false; });
  draft.fields.forEach(function (f) {
    var el = form.elements[f[0]];
    if (!el) return;
    if (el.length !== undefined && !el.tagName) {   // a radio group (a conflict's choice)
      Array.prototype.forEach.call(el, function (r) { r.checked = r.value === f[1]; });
    } else if (el.type === "checkbox") {
      el.checked = true;
    } else {
      el.value = f[1];
    }
  });
  document.dispatchEvent(new CustomEvent("updates:replaced", { bubbles: true }));
  say(form.dataset.restored, false);
})();

// ---- Updates: another device's save shows here within seconds, without a reload ----
// Every 2 s the page asks for itself again with If-None-Match (its ETag: the game's
// version, this device's role, the language); the server answers 304 while nothing
// changed, which costs it almost nothing. On news, the page's updated parts ([data-updates], by
// id) are replaced. A form someone is filling in is never replaced: a notice says another
// device saved, and saving goes through the stale-save merge as usual.
(function () {
  "use strict";
  var body = document.body;
  var etag = body.dataset.updatesEtag;
  if (!etag || !window.fetch || !window.DOMParser) return;
  etag = '"' + etag + '"';
  var busy = false, stopped = false;
  var INTERVAL = 2000;

  function dirty(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") return false;
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      return el.value !== el.defaultValue;
    });
  }
  function notice(text) {
    var box = document.getElementById("updates-notice");
    if (!box || !text) return;
    box.textContent = text;
    box.hidden = false;
  }
  function apply(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var round = fresh.body.dataset.savedRound || "";
    document.querySelectorAll("[data-updates]").forEach(function (old) {
      var next = old.id && fresh.getElementById(old.id);
      if (!next) return;
      var form = old.matches("form[data-keep-typed]") ? old : old.querySelector("form[data-keep-typed]");
      if (form && (form.hasAttribute("data-hold") || dirty(form))) {
        notice((form.dataset.savedElsewhere || "").replace("{round}", round));
        return;
      }
      if (old.contains(document.activeElement) && document.activeElement.matches("input, select, textarea")) return;
      if (old.tagName === "DETAILS") next.open = old.open;
      old.replaceWith(next);
      next.dispatchEvent(new CustomEvent("updates:replaced", { bubbles: true }));
    });
    var title = fresh.querySelector("title");
    if (title) document.title = title.textContent;
  }
  function poll() {
    if (busy || stopped || document.hidden) return;
    busy = true;
    fetch(location.href, { headers: { "If-None-Match": etag }, credentials: "same-origin",
                           cache: "no-store" })
      .then(function (r) {
        // The server's clock, for the running round times (the Date of every answer).
        var date = Date.parse(r.headers.get("Date") || "");
        if (!isNaN(date)) document.dispatchEvent(new CustomEvent("updates:servertime", { detail: date }));
        if (r.status === 304) return null;
        if (r.status === 404) { stopped = true; location.reload(); return null; }
        if (!r.ok) return null;
        etag = r.headers.get("ETag") || etag;
        return r.text();
      })
      .then(function (html) { if (html) apply(html); })
      .catch(function () { /* the Wi-Fi hiccuped: try again next time */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, INTERVAL);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();

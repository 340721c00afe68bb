/* Shared by every page: translated strings, the JSON API with its CSRF token, DOM helpers.
   All user text goes into the page through textContent (see el()), never as HTML. */
"use strict";

const WW = (() => {
  const strings = JSON.parse(document.body.dataset.strings || "{}");

  /** A translated string with {field} placeholders filled in. */
  // French puts a space before ! ? : ; and inside « »: a non-breaking one, so a phone's
  // narrow line never leaves "!" or "?" alone at the start of the next line.
  const french = (document.documentElement.lang || "").startsWith("fr");

  function t(key, params) {
    let text = strings[key] !== undefined ? strings[key] : key;
    if (french) text = text.replace(/ ([!?:;»])/g, "\u00a0$1").replace(/« /g, "«\u00a0");
    return text.replace(/\{(\w+)\}/g, (m, name) =>
      params && params[name] !== undefined ? String(params[name]) : m);
  }

  const lang = document.documentElement.lang || "fr";
  const pluralRules = new Intl.PluralRules(lang);
  const listFormat = new Intl.ListFormat(lang, { style: "long", type: "conjunction" });

  /** Whether there are words under this key (a step's own, "<step>.others"). */
  const has = (key) => strings[key] !== undefined;

  /** A string with a count, in the language's plural form: "<key>.one" or "<key>.other"
      (the forms come from the gettext catalog, see werewolf/web/strings.py). */
  function tn(key, count, params) {
    const form = pluralRules.select(count);
    const chosen = strings[key + "." + form] !== undefined ? key + "." + form : key + ".other";
    return t(chosen, Object.assign({ count }, params || {}));
  }

  /** "Chloé et Hugo", "Alice, Bruno et Chloé" (the language's own list pattern). */
  function list(items) {
    return listFormat.format(items.map(String));
  }

  /** Sentences one after the other: a space between them, none after a full-width stop
      (Chinese: "。獲勝者", not "。 獲勝者"). */
  function sentences(items) {
    return items.filter(Boolean).reduce((out, s) => (!out ? s : out + (/[。！？：；]$/.test(out) ? "" : " ") + s), "");
  }

  let csrfToken = null;

  async function fetchMe() {
    const response = await fetch("/api/me", { credentials: "same-origin", cache: "no-store" });
    const me = await response.json();
    csrfToken = me.csrf_token;
    return me;
  }

  /** Call the API; resolves to {ok, status, data}. Network failures reject.
   * ``extraHeaders``: more request headers (the table page's Prefer, API.md). */
  async function api(method, path, body, extraHeaders, retried) {
    const headers = { "Accept": "application/json", ...(extraHeaders || {}) };
    const options = { method, headers, credentials: "same-origin", cache: "no-store" };
    if (method !== "GET") {
      if (!csrfToken) await fetchMe();
      headers["X-CSRFToken"] = csrfToken;
      headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body || {});
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    const code = data && data.error && data.error.code;
    if (code === "csrf_failed" && !retried) {  // the session changed (login elsewhere, expiry)
      await fetchMe();
      return api(method, path, body, extraHeaders, true);
    }
    return { ok: response.ok, status: response.status, data };
  }

  /** A message people can read for an API error body. */
  function errorText(data) {
    const code = data && data.error && data.error.code;
    if (code && strings["err." + code]) return strings["err." + code];
    return t("err.generic");
  }

  /** Create an element: el("p", {class: "x", dataset: {seat: 1}}, "text", child, ...). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key === "onclick") node.addEventListener("click", value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function showError(node, data) {
    if (!node) return;
    node.textContent = typeof data === "string" ? data : errorText(data);
    node.hidden = false;
  }

  function hideError(node) {
    if (node) node.hidden = true;
  }

  const banner = document.getElementById("banner");
  function setBanner(text) {
    if (!banner) return;
    banner.textContent = text || "";
    banner.hidden = !text;
  }

  /** This browser is no longer this account's: no more "your turn" pushes here (turn.js). */
  async function forgetPush() {
    try {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = registration && await registration.pushManager.getSubscription();
      if (!subscription) return;
      await api("DELETE", "/api/me/push-subscription", { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
      sessionStorage.removeItem("werewolf.push");
    } catch (e) { /* no worker, no push: nothing to forget */ }
  }

  const logout = document.getElementById("logout");
  if (logout) {
    logout.addEventListener("click", async () => {
      try { await forgetPush(); await api("POST", "/api/auth/logout"); } finally { location.href = "/login"; }
    });
  }

  // The installable app: the service worker keeps the shell for « Reconnexion… » offline
  // and shows "your turn" pushes (static/js/sw.js). The site works the same without it.
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

  // The browser's bar takes the page's colour, day or night (body.night, app.css): the body's
  // class names the phase (the catalog's `phases`) whose colour the meta carries as data-<phase>.
  const theme = document.querySelector('meta[name="theme-color"][data-night]');
  if (theme) {
    const paintTheme = () => {
      const phase = [...document.body.classList].find((name) => name in theme.dataset);
      theme.content = phase ? theme.dataset[phase] : theme.dataset.day;
    };
    paintTheme();
    new MutationObserver(paintTheme).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  }

  let catalogLoad = null;
  /** The rules as data (GET /api/catalog, revalidated by its ETag): roles, steps, the night
      order, actions and their choice kinds, indexed by id as role/step/action; the event kinds
      everyone is told (publicEvent) or told at the end (endEvent), as sets; the night's phase
      (nightPhase: the first of `phases`), also the body's class at night. */
  function catalog() {
    if (!catalogLoad) {
      catalogLoad = fetch("/api/catalog", { credentials: "same-origin" }).then((r) => r.json()).then((c) => {
        const byId = (list) => Object.fromEntries(list.map((item) => [item.id, item]));
        return Object.assign(c, { role: byId(c.roles), step: byId(c.steps), action: byId(c.actions),
                                  publicEvent: new Set(c.public_events), endEvent: new Set(c.end_events),
                                  nightPhase: c.phases[0] });
      });
    }
    return catalogLoad;
  }

  /** The act body for one choice of this action: the catalog says which field its kind fills. */
  function actBody(rules, action, choice) {
    const field = rules.action[action] ? rules.action[action].field : null;
    const body = { action };
    if (field) body[field] = choice;
    return body;
  }

  /** A role's emoji (or any pictogram) in the colour emoji font: a text font such as DejaVu Sans
      also draws some (😈 🌑 🃏), in black and white, and would be chosen first. */
  const emoji = (text) => el("span", { class: "emoji", "aria-hidden": "true" }, text);

  /** A moment (POSIX seconds) as the reader's language writes a date and a time. */
  const when = (seconds) => new Date(seconds * 1000).toLocaleString(lang, { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });

  // How often a page polls when the server does not hold its polls (the table, the room's screen).
  const POLL_MS = 1500;

  /** A stream of views (Server-Sent Events, API.md "Streams"), which EventSource reconnects
   * by itself, sending the last view's ETag: ``onView(view, etag)`` for each view;
   * ``onClosed()`` once refused or ended for good (EventSource cannot tell why: the caller
   * polls, and the poll says); ``onTrouble(slow)``: true while reconnecting takes over 3 s,
   * false at each word heard. Silent for 15 s (the server says something every 5 s), it
   * reopens. Returns { reopen }. */
  function stream(url, { onView, onClosed, onTrouble }) {
    const SILENT_MS = 15000;
    let source = null;
    let heardAt = 0;
    const heard = () => { heardAt = Date.now(); onTrouble(false); };
    function close() {
      clearInterval(watchdog);
      if (source) source.close();
      source = null;
    }
    function reopen() {
      if (source) source.close();
      const mine = source = new EventSource(url);
      heardAt = Date.now();
      for (const name of ["open", "beat"]) mine.addEventListener(name, heard);
      mine.addEventListener("state", (e) => { heard(); onView(JSON.parse(e.data), `"${e.lastEventId}"`); });
      mine.addEventListener("error", () => {
        if (mine !== source) return;
        if (mine.readyState === EventSource.CLOSED) {
          close();
          onClosed();
        } else {  // reconnecting by itself: said only if it takes a while
          setTimeout(() => { if (mine === source && mine.readyState !== EventSource.OPEN) onTrouble(true); }, 3000);
        }
      });
    }
    const watchdog = setInterval(() => { if (source && Date.now() - heardAt > SILENT_MS) reopen(); }, 5000);
    reopen();
    return { reopen };
  }

  return { POLL_MS, table: {}, t, tn, has, list, sentences, api, fetchMe, errorText, el, emoji, showError, hideError, setBanner, catalog, actBody, when, stream };
})();

/* The table page: the lobby before the start, then the game, driven only by my view as the
   server sends it (GET /api/tables/<id>/events), or by polling GET /api/tables/<id>/state
   with If-None-Match where it cannot. Every render starts from the view.
   This file polls, writes and says which screen shows; each job is a part of its own
   (table-lobby.js, table-settings.js, table-game.js, table-events.js, table-chat.js: each a
   function WW.table.<job>(T) returning what the others call as T.<name>), called once with
   the shared state T: T.view, T.rules (the catalog), T.etag, T.cardShown, T.story, send... */
"use strict";

(() => {
  const { t, api } = WW;
  const root = document.getElementById("table");
  const tableId = root.dataset.tableId;
  const $ = (id) => document.getElementById(id);

  // What every part shares: the view shown and its ETag, the catalog, my card turned over.
  const T = {
    view: null,             // the last view received
    etag: null,
    rules: null,            // the catalog (GET /api/catalog): roles, steps, actions, kinds
    localDeadline: null,    // Date.now() value when the step's time runs out
    cardShown: false,
  };
  const isNightStep = (id) => !!T.rules.step[id] && T.rules.step[id].phase === T.rules.nightPhase;
  const kindOf = (action) => (T.rules.action[action] || {}).kind;
  // Steps whose ballots the view lists (the election and every elimination round).
  const isBallotStep = (id) => !!T.rules.step[id] && !!T.rules.step[id].ballots;
  // Elimination rounds (the catalog's `eliminates`: vote, revote, runoff, stake): one may
  // abstain there, and a ballot may weigh more than one (the view's `weights`).
  const isRound = (id) => !!T.rules.step[id] && !!T.rules.step[id].eliminates;
  const { POLL_MS } = WW;

  let pollTimer = null;
  let polling = false;
  let busy = false;

  const mySeat = () => (T.view && T.view.me ? T.view.me.seat : null);  // null: a spectator
  // The words of the game (story.js, shared with a past game's page).
  T.story = WW.story({ view: () => T.view, rules: () => T.rules, mySeat });
  const isHost = () => T.view && T.view.me && T.view.table.host_seat === T.view.me.seat;

  // ------------------------------------------------------------------ polling

  // The server holds a poll that finds nothing new until my view changes (Prefer: wait,
  // API.md): after its answer the next one leaves at once (the server holds it), so a
  // change shows as soon as it is told. POLL_MS apart only after an error, or from a
  // server that does not hold this poll (it says so: no Preference-Applied).
  const WAIT_S = 10;
  let pollAbort = null;     // the poll under way, to drop it when its connection may be dead
  let pollStale = false;    // a write showed a view newer than the poll under way may bring
  let serverHolds = false;  // the last poll's answer said Preference-Applied

  async function poll() {
    if (polling) return;
    polling = true;
    pollStale = false;
    clearTimeout(pollTimer);
    const mine = new AbortController();
    pollAbort = mine;
    let next = POLL_MS;
    let answered = false;
    try {
      if (!T.rules) T.rules = await WW.catalog();
      const headers = { "Accept": "application/json", "Prefer": `wait=${WAIT_S}` };
      if (T.etag) headers["If-None-Match"] = T.etag;
      // A held poll answers within WAIT_S: longer means a dead connection.
      const signal = AbortSignal.any ? AbortSignal.any([mine.signal, AbortSignal.timeout((WAIT_S + 10) * 1000)])
        : mine.signal;
      const response = await fetch(`/api/tables/${tableId}/state`,
        { headers, credentials: "same-origin", cache: "no-store", signal });
      WW.setBanner(null);
      serverHolds = response.headers.has("Preference-Applied");
      if (serverHolds) next = 0;
      answered = response.status === 304 || response.ok;
      if (response.status === 304) {
        // nothing new for me
      } else if (response.ok) {
        const newView = await response.json();
        if (!pollStale) adopt(newView, response.headers.get("ETag"));
      } else if (response.status === 403) {
        showOnly("join");
      } else if (response.status === 401) {
        location.href = "/login?next=" + encodeURIComponent(location.pathname);
        return;
      } else if (response.status === 404) {
        showOnly("join");
        WW.showError($("join-error"), t("err.table_not_found"));
      }
    } catch (e) {
      if (pollAbort !== mine) return;  // dropped: another poll has left
      WW.setBanner(t("reconnecting"));
    }
    if (pollAbort !== mine) return;
    // Asked before a write whose view I show: ask again at once, with that view's ETag.
    if (pollStale) next = 0;
    polling = false;
    pollAbort = null;
    if (answered && mayStream()) listen();
    else pollTimer = setTimeout(poll, next);
  }

  /** After a write. A server that holds polls: poll at once with the new ETag (held
   * until something else moves), or when the poll under way answers. Otherwise: after
   * POLL_MS if the write's view is shown, else now (a poll under way answers for it). */
  function pollAfterWrite(shown) {
    if (live) return;  // the stream brings what follows
    if (serverHolds && polling) {
      pollStale = true;
    } else if (serverHolds || !shown) {
      clearTimeout(pollTimer);
      if (serverHolds) pollTimer = setTimeout(poll, 0);
      else poll();
    } else {
      clearTimeout(pollTimer);
      pollTimer = setTimeout(poll, POLL_MS);
    }
  }

  /** Drop the poll under way (back from sleep or a lost network, its connection may be
   * dead) and poll now. */
  function pollAnew() {
    if (pollAbort) pollAbort.abort();
    pollAbort = null;
    polling = false;
    poll();
  }

  // ------------------------------------------------------------------ the stream

  // My views come on one stream as they happen (WW.stream). Refused (no seat, signed out,
  // a busy server: it cannot tell which), the page polls, which says why; a poll answered
  // brings the stream back, STREAM_RETRY_MS after a refusal at the soonest.
  const STREAM_RETRY_MS = 30000;
  let live = null;  // the stream, while there is one
  let refusedAt = -Infinity;
  const mayStream = () => !!window.EventSource && !live && Date.now() - refusedAt > STREAM_RETRY_MS;

  function listen() {
    clearTimeout(pollTimer);
    if (live) {
      live.reopen();
      return;
    }
    live = WW.stream(`/api/tables/${tableId}/events`, {
      onView: (view, etag) => { if (etag !== T.etag) adopt(view, etag); },
      onClosed: () => { live = null; refusedAt = Date.now(); poll(); },
      onTrouble: (slow) => WW.setBanner(slow ? t("reconnecting") : null),
    });
  }

  // Only a request shows the server I am here (a silent phone's stream may stay open): while
  // streaming, the state every PRESENCE_MS, as a quiet held poll would (the view if it moved).
  const PRESENCE_MS = 10000;
  setInterval(async () => {
    if (!live || busy) return;
    try {
      const response = await fetch(`/api/tables/${tableId}/state`, { headers: { "Accept": "application/json",
        ...(T.etag ? { "If-None-Match": T.etag } : {}) }, credentials: "same-origin", cache: "no-store" });
      if (response.ok && live) adopt(await response.json(), response.headers.get("ETag"));
    } catch (e) { /* the stream's own silence tells a dead link */ }
  }, PRESENCE_MS);

  // Only a held poll or a stream may sit on a connection long enough to have died under it.
  const pollNow = () => (live ? listen() : serverHolds ? pollAnew() : poll());
  document.addEventListener("visibilitychange", () => { if (!document.hidden) pollNow(); });
  window.addEventListener("online", pollNow);
  window.addEventListener("pageshow", (e) => { if (e.persisted) pollNow(); });

  /** Show a view and its ETag: a poll's answer, or the one act and chat send back. */
  function adopt(newView, newEtag) {
    T.etag = newEtag;
    root.dataset.etag = newEtag || "";  // the view shown (the browser tests wait for it)
    // « Nouvelle partie » brings the table back to its waiting room, but nobody is pulled
    // off the end screen: each goes when ready (issue 35); a new game started takes everyone.
    if (T.view && T.view.table.status === "ended" && newView.table.status === "lobby" && !T.leaveEnd) {
      T.heldLobby = newView;
      $("back-to-table").hidden = false;
      return;
    }
    T.leaveEnd = false;
    T.heldLobby = null;
    $("back-to-table").hidden = true;
    T.view = newView;
    const step = T.view.step;
    T.localDeadline = step ? Date.now() + step.seconds_left * 1000 : null;
    render();
  }

  // Writes whose answer carries my view and its ETag when asked (Prefer, API.md).
  const ANSWERS_WITH_VIEW = /^\/api\/tables\/[^/]+\/(act|chat)$/;

  /** Send a write, then show its effect: act and chat answer with my view, whose ETag
   * the next poll sends (held until something else moves); other writes poll at once.
   * ``beforeShowing``: what the caller changes on the page before that view is drawn. */
  async function send(method, path, body, errorNode, beforeShowing) {
    if (busy) return null;
    busy = true;
    WW.hideError(errorNode);
    let shown = false;
    try {
      const withView = ANSWERS_WITH_VIEW.test(path);
      const result = await api(method, path, body, withView ? { "Prefer": "return=representation" } : null);
      const late = !result.ok && result.status === 409 && result.data && result.data.error &&
        ["stale_step", "wrong_step"].includes(result.data.error.code);
      // Acting one poll late happens to anyone: said calmly, and the next view follows.
      if (late && errorNode) {
        WW.showError(errorNode, result.data);
        errorNode.classList.add("calm");
      } else if (!result.ok) {
        if (errorNode) errorNode.classList.remove("calm");
        WW.showError(errorNode, result.data);
      }
      else if (result.data && result.data.view && result.data.etag && (serverHolds || !polling)) {
        // Polling every POLL_MS, a poll under way would answer a view of before or after
        // this write: let it decide. A held poll under way is asked again (pollAfterWrite).
        if (beforeShowing) beforeShowing();
        adopt(result.data.view, result.data.etag);
        shown = true;
      }
      return result;
    } catch (e) {
      WW.showError(errorNode, t("err.network"));
      return null;
    } finally {
      busy = false;
      pollAfterWrite(shown);
    }
  }

  function showOnly(section) {
    // A new screen (the game starting under a host who scrolled down the settings) opens at its top.
    if ($(section).hidden) window.scrollTo(0, 0);
    for (const id of ["join", "lobby", "game"]) $(id).hidden = id !== section;
  }

  /** A spectator keeps the join card on top (with its button while the table waits). */
  function renderWatching() {
    const spectator = !T.view.me;
    if (spectator && T.view.table.status === "lobby") $("join").hidden = false;
    $("watching").hidden = !spectator;
    for (const id of ["join-btn", "watch-btn"]) {
      if ($(id)) $(id).hidden = spectator && (id === "watch-btn" || T.view.table.status !== "lobby");
    }
    $("leave-btn").hidden = spectator;
    $("cardface").hidden = spectator;  // a spectator has no card
    $("public-row").hidden = !isHost() || T.view.table.status !== "lobby";
    if (document.activeElement !== $("public-box")) $("public-box").checked = !!T.view.table.public;
    for (const row of document.querySelectorAll(".screen-row")) {  // the host shows the room's screen
      row.hidden = !isHost() || !T.view.table.screen_url;
      row.querySelector("a").href = T.view.table.screen_url || "";
    }
    const line = $("spectators-line");
    line.hidden = !T.view.table.spectators;   // nobody watching takes no line
    line.textContent = t("spectators", { count: T.view.table.spectators || 0 });
  }

  function render() {
    const status = T.view.table.status;
    if (status === "lobby") {
      // Back in the waiting room (or a new game coming): the next game starts face down and fresh.
      T.cardShown = false;
      T.cardSeen = false;   // the next game tells again to look at the card
      T.freshEvents();
      T.freshChat();
      document.body.classList.remove(T.rules.nightPhase);
      document.body.classList.add("day");
      showOnly("lobby");
      T.renderLobby();
    } else {
      showOnly("game");
      T.renderGame();
    }
    renderWatching();
    TURN.cue(T.view.prompt && status === "running" ? String(T.view.prompt.step) : null);  // a prompt is open for me
  }

  // ------------------------------------------------------------------ the parts

  $("back-to-table").addEventListener("click", () => {
    T.leaveEnd = true;
    if (T.heldLobby) adopt(T.heldLobby, T.etag);
  });

  Object.assign(T, { $, root, tableId, send, mySeat, isHost, isNightStep, kindOf, isBallotStep, isRound, pollNow });
  for (const part of ["settings", "lobby", "events", "chat", "game"]) Object.assign(T, WW.table[part](T));

  // A visitor not seated yet sees "join" at once (polling the state would only get a 403).
  // Spectators (when the table allows them) watch a waiting table at once; a game already
  // running waits for the "watch" button.
  if (root.dataset.seated === "0" && (root.dataset.watchable === "0" || $("watch-btn"))) showOnly("join");
  else if (mayStream()) WW.catalog().then((rules) => { T.rules = rules; listen(); }, poll);
  else poll();
})();

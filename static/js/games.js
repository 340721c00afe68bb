/* A finished game's page: its whole end (GET /api/games/<id>), the host's shared link, and
   its replay (GET /api/games/<id>/replay?seat=N): every view in order, as everyone saw it or
   through one player's eyes, with a slider and play/pause. Through a shared link (?key=)
   it is read-only: the end and the public replay only. The words come from story.js. */
"use strict";

(async () => {
  const { t, tn, el } = WW;
  const $ = (id) => document.getElementById(id);
  const root = $("past-game");
  const gameId = root.dataset.gameId;
  const key = root.dataset.key;
  const withKey = (path) => (key ? `${path}${path.includes("?") ? "&" : "?"}key=${encodeURIComponent(key)}` : path);
  const STEP_MS = 900;  // a replay step while playing

  const [rules, answer] = await Promise.all([WW.catalog(), WW.api("GET", withKey(`/api/games/${gameId}`))]);
  if (!answer.ok) {
    WW.setBanner(WW.errorText(answer.data));
    return;
  }
  const game = answer.data;
  const end = { ...game, chat: game.channels, me: game.me ? { seat: game.me } : null };
  const endStory = WW.story({ view: () => end, rules: () => rules, mySeat: () => game.me });
  const emoji = (role) => (rules.role[role] || {}).emoji || "";

  // ------------------------------------------------------------------ the end

  $("game-meta").textContent = [WW.when(game.started_at), game.table,
    tn("past.minutes", Math.max(1, Math.round(game.seconds / 60))), tn("past.nights", game.nights)]
    .filter(Boolean).join(" · ");
  $("winner-title").textContent = endStory.winnerTitle();
  $("winner-seats").textContent = endStory.winnerLine();
  $("timeline").replaceChildren(...endStory.timelineItems());

  /** A player's tile as a view shows them: card if known, dead or alive, Captain, whose the
   * view is (``me``: "you" on the end's tiles only, ``you``; a replay's seat is framed). */
  function tile(p, story, me, won, you) {
    const classes = ["tile", p.alive ? "alive" : "dead"];
    if (p.seat === me) classes.push("me");
    if (won) classes.push("won");
    return el("li", { class: classes.join(" "), dataset: { seat: p.seat } },
      el("div", { class: "tile-button" },
        el("span", { class: "avatar", dataset: { hue: story.hue(p.name) }, "aria-hidden": "true" }, story.initials(p.name)),
        el("span", { class: "tile-name" }, p.name),
        el("span", { class: "tile-seat" }, "#" + p.seat + (you && p.seat === me ? " · " + t("you") : "")),
        p.role ? el("span", { class: "tile-role" }, WW.emoji(emoji(p.role)), " " + story.cardName(p.role, p.was)) : null,
        p.alive ? null : el("span", { class: "sr-only" }, ", " + t("dead")),
        p.captain ? el("span", { class: "badge captain", title: t("captain") }, "🎖️") : null,
        won ? el("span", { class: "tag won-tag" }, t("past.winner")) : null));
  }
  $("players").replaceChildren(...game.players.map((p) => tile(p, endStory, game.me, p.won, true)));
  endStory.paintAvatars($("players"));

  // Every channel, one tab each.
  let channel = Object.keys(game.channels)[0] || null;
  function renderChat() {
    $("chat-tabs").replaceChildren(...Object.keys(game.channels).map((ch) => el("button", {
      type: "button", role: "tab", class: "tab" + (ch === channel ? " active" : ""),
      "aria-selected": ch === channel ? "true" : "false", onclick: () => { channel = ch; renderChat(); },
    }, t("channel." + ch), " ", el("span", { class: "count" }, String(game.channels[ch].length)))));
    const messages = channel ? game.channels[channel] : [];
    $("messages").replaceChildren(...(messages.length ? messages.map(message)
      : [el("li", { class: "muted" }, t("replay.chat_none"))]));
  }
  const message = (m) => el("li", { class: "message" + (m.seat === game.me ? " mine" : "") },
    el("span", { class: "author" }, m.name === undefined ? t("chat.a_wolf") : m.name), el("span", { class: "text" }, m.text));
  renderChat();

  // ------------------------------------------------------------------ sharing (the host)

  function renderShare() {
    $("share").hidden = !game.host;
    if (!game.host) return;
    $("share-hint").textContent = t("past.shared_hint");
    $("share-on").textContent = t("past.share");
    $("share-off").textContent = t("past.unshare");
    $("share-copy").textContent = t("past.copy");
    $("share-on").hidden = !!game.share_url;
    $("share-off").hidden = !game.share_url;
    $("share-link").hidden = !game.share_url;
    $("share-url").value = game.share_url || "";
  }
  async function setShared(on) {
    WW.hideError($("share-error"));
    $("share-done").hidden = true;
    const result = await WW.api(on ? "POST" : "DELETE", `/api/games/${gameId}/share`);
    if (!result.ok) return WW.showError($("share-error"), result.data);
    game.share_url = on ? result.data.url : null;
    renderShare();
  }
  $("share-on").addEventListener("click", () => setShared(true));
  $("share-off").addEventListener("click", () => setShared(false));
  $("share-copy").addEventListener("click", async () => {
    $("share-url").select();
    try { await navigator.clipboard.writeText(game.share_url); } catch (e) { return; }
    $("share-done").textContent = t("past.copied");
    $("share-done").hidden = false;
  });
  renderShare();

  // ------------------------------------------------------------------ the replay

  let steps = [];
  let at = 0;
  let timer = null;
  let frame = null;  // the view shown now
  const frameStory = WW.story({ view: () => frame, rules: () => rules, mySeat: () => (frame && frame.me ? frame.me.seat : null) });
  const seatSelect = $("replay-seat");
  const slider = $("replay-slider");
  const playButton = $("replay-play");

  if (!game.replay) {
    $("replay-unavailable").textContent = t("replay.unavailable");
    $("replay-unavailable").hidden = false;
  } else {
    $("replay-body").hidden = false;
    seatSelect.replaceChildren(el("option", { value: "" }, t("replay.everyone")),
      ...(root.dataset.shared === "1" ? [] : game.players.map((p) =>
        el("option", { value: String(p.seat) }, t("replay.eyes_of", { name: p.name, seat: p.seat })))));
    seatSelect.addEventListener("change", () => load(seatSelect.value));
    slider.addEventListener("input", () => { pause(); show(Number(slider.value)); });
    playButton.addEventListener("click", () => (timer ? pause() : play()));
    await load("");
  }

  async function load(seat) {
    pause();
    const result = await WW.api("GET", withKey(`/api/games/${gameId}/replay` + (seat ? `?seat=${seat}` : "")));
    if (!result.ok) return WW.setBanner(WW.errorText(result.data));
    steps = result.data.steps;
    slider.max = String(steps.length - 1);
    show(0);
  }

  function play() {
    if (at >= steps.length - 1) show(0);
    if (steps.length < 2) return;
    timer = setInterval(() => {
      show(at + 1);
      if (at >= steps.length - 1) pause();  // stopped on the end
    }, STEP_MS);
    renderPlayButton();
  }
  function pause() {
    clearInterval(timer);
    timer = null;
    renderPlayButton();
  }
  function renderPlayButton() {
    playButton.textContent = timer ? "⏸ " + t("replay.pause") : "▶ " + t("replay.play");
    playButton.setAttribute("aria-pressed", timer ? "true" : "false");
  }

  /** The events of the moment: those since the step before the current one (as the table shows them). */
  function momentEvents(view) {
    let seen = 0;
    let from = 0;
    for (let i = view.events.length - 1; i >= 0; i--) {
      if (view.events[i].kind === "step" && ++seen === 2) { from = i + 1; break; }
    }
    return view.events.slice(from);
  }

  function show(index) {
    at = index;
    slider.value = String(index);
    frame = steps[index].view;
    const step = frame.step;
    $("replay-position").textContent = t("replay.position", { n: index + 1, total: steps.length });
    $("replay-position").dataset.at = String(index + 1);
    $("replay-position").dataset.total = String(steps.length);
    if (step) {
      $("replay-phase").textContent = step.night !== undefined ? t("night_n", { n: step.night }) : t("day", { n: step.day });
      $("replay-step").textContent = frameStory.stepText(step);
    } else {
      $("replay-phase").textContent = frameStory.winnerTitle();
      $("replay-step").textContent = "";
    }
    const me = frame.me ? frame.me.seat : null;
    $("replay-prompt").hidden = !(frame.prompt && me);
    if (frame.prompt && me) $("replay-prompt").textContent = t("replay.prompt", { name: frameStory.name(me) });
    const ended = frame.status === "ended";
    $("replay-players").replaceChildren(...frame.players.map((p) =>
      tile(p, frameStory, me, ended && frame.winner && frame.winner.seats.includes(p.seat), false)));
    frameStory.paintAvatars($("replay-players"));
    const lines = momentEvents(frame).map((e) => frameStory.eventText(e)).filter(Boolean);
    if (index === 0) lines.unshift(t("replay.start"));
    $("replay-events").replaceChildren(...lines.reverse().map((text) => el("li", { class: "event" }, text)));
    const said = Object.entries(frame.chat).flatMap(([ch, list]) => list.map((m) => ({ ...m, ch })))
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(-4);
    $("replay-chat").replaceChildren(...(said.length ? said.map((m) => el("li", { class: "message" },
      el("span", { class: "tag" }, t("channel." + m.ch)), " ",
      el("span", { class: "author" }, m.name === undefined ? t("chat.a_wolf") : m.name), el("span", { class: "text" }, m.text)))
      : [el("li", { class: "muted" }, t("replay.chat_none"))]));
    root.classList.toggle("replay-night", !!step && !!rules.step[step.id] && rules.step[step.id].phase === rules.nightPhase);
  }
})();

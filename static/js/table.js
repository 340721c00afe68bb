/* The table page: the lobby before the start, then the game, driven only by polling
   GET /api/tables/<id>/state with If-None-Match. Every render starts from the view. */
"use strict";

(() => {
  const { t, api, el } = WW;
  const root = document.getElementById("table");
  const tableId = root.dataset.tableId;
  const $ = (id) => document.getElementById(id);

  let RULES = null;         // the catalog (GET /api/catalog): roles, steps, actions, kinds
  const isNightStep = (id) => !!RULES.step[id] && RULES.step[id].phase === "night";
  const kindOf = (action) => (RULES.action[action] || {}).kind;
  // Steps whose ballots the view lists (the election and every elimination round).
  const isBallotStep = (id) => !!RULES.step[id] && !!RULES.step[id].ballots;
  // Elimination rounds where a living Captain's ballot counts twice (A3.12; a re-vote
  // happens only without a Captain).
  const isRound = (id) => isBallotStep(id) && id !== "election";
  const POLL_MS = 1500;

  let view = null;          // the last view received
  let etag = null;
  let localDeadline = null; // Date.now() value when the step's time runs out
  let pollTimer = null;
  let polling = false;
  let selection = null;     // {action, count, choices, nullable, seats: []} while choosing
  let lastPromptKey = null;
  let chatTab = null;
  let cardShown = false;
  let busy = false;

  const mySeat = () => (view && view.me ? view.me.seat : null);  // null: a spectator
  // The words of the game (story.js, shared with a past game's page).
  const { name, names, roleName, cardName, roleEmoji, deathLine, eventText, isMoment, winnerTitle,
          winnerLine, timelineItems, voteHistory, ballotsEventLines, ballotLines, initials, hue, paintAvatars } =
    WW.story({ view: () => view, rules: () => RULES, mySeat });
  const isHost = () => view && view.me && view.table.host_seat === view.me.seat;

  // ------------------------------------------------------------------ polling

  // The server holds a poll that finds nothing new until my view changes (Prefer: wait,
  // API.md): the next one leaves at once, but never sooner than POLL_MS after the last one
  // left (a busy table is answered as often as before, a quiet one almost never).
  const WAIT_S = 25;
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
    const startedAt = Date.now();
    let next = POLL_MS;
    try {
      if (!RULES) RULES = await WW.catalog();
      const headers = { "Accept": "application/json", "Prefer": `wait=${WAIT_S}` };
      if (etag) headers["If-None-Match"] = etag;
      // A held poll answers within WAIT_S: longer means a dead connection.
      const signal = AbortSignal.any ? AbortSignal.any([mine.signal, AbortSignal.timeout((WAIT_S + 10) * 1000)])
        : mine.signal;
      const response = await fetch(`/api/tables/${tableId}/state`,
        { headers, credentials: "same-origin", cache: "no-store", signal });
      WW.setBanner(null);
      serverHolds = response.headers.has("Preference-Applied");
      if (serverHolds) next = Math.max(0, startedAt + POLL_MS - Date.now());
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
    pollTimer = setTimeout(poll, next);
  }

  /** After a write. A server that holds polls: poll at once with the new ETag (held
   * until something else moves), or when the poll under way answers. Otherwise: after
   * POLL_MS if the write's view is shown, else now (a poll under way answers for it). */
  function pollAfterWrite(shown) {
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

  // Only a held poll may sit on a connection long enough to have died under it.
  const pollNow = () => (serverHolds ? pollAnew() : poll());
  document.addEventListener("visibilitychange", () => { if (!document.hidden) pollNow(); });
  window.addEventListener("online", pollNow);
  window.addEventListener("pageshow", (e) => { if (e.persisted) pollNow(); });

  /** Show a view and its ETag: a poll's answer, or the one act and chat send back. */
  function adopt(newView, newEtag) {
    etag = newEtag;
    root.dataset.etag = newEtag || "";  // the view shown (the browser tests wait for it)
    view = newView;
    const step = view.step;
    localDeadline = step ? Date.now() + step.seconds_left * 1000 : null;
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
      if (!result.ok) WW.showError(errorNode, result.data);
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
    const spectator = !view.me;
    if (spectator && view.table.status === "lobby") $("join").hidden = false;
    $("watching").hidden = !spectator;
    for (const id of ["join-btn", "watch-btn"]) {
      if ($(id)) $(id).hidden = spectator && (id === "watch-btn" || view.table.status !== "lobby");
    }
    $("leave-btn").hidden = spectator;
    $("cardface").hidden = spectator;  // a spectator has no card
    $("public-row").hidden = !isHost() || view.table.status !== "lobby";
    if (document.activeElement !== $("public-box")) $("public-box").checked = !!view.table.public;
    for (const row of document.querySelectorAll(".screen-row")) {  // the host shows the room's screen
      row.hidden = !isHost() || !view.table.screen_url;
      row.querySelector("a").href = view.table.screen_url || "";
    }
    const line = $("spectators-line");
    line.hidden = view.table.spectators === undefined;
    line.textContent = t("spectators", { count: view.table.spectators || 0 });
  }

  function render() {
    const status = view.table.status;
    if (status === "lobby") {
      // Back in the waiting room (or a new game coming): the next game starts face down and fresh.
      cardShown = false;
      eventsShown = "";
      momentSignature = "";
      recapOpen = null;
      chatSignature = "";
      document.body.classList.remove("night");
      document.body.classList.add("day");
      showOnly("lobby");
      renderLobby();
    } else {
      showOnly("game");
      renderGame();
    }
    renderWatching();
    TURN.cue(view.prompt && status === "running" ? String(view.prompt.step) : null);  // a prompt is open for me
  }

  // ------------------------------------------------------------------ lobby

  if ($("join-btn")) $("join-btn").addEventListener("click", async () => {
    const result = await send("POST", `/api/tables/${tableId}/join`, {}, $("join-error"));
    if (result && result.ok) etag = null;
  });
  if ($("watch-btn")) $("watch-btn").addEventListener("click", pollNow);

  $("leave-btn").addEventListener("click", async () => {
    if (!confirm(t("confirm.leave"))) return;
    const result = await send("POST", `/api/tables/${tableId}/leave`, {}, $("settings-error"));
    if (result && result.ok) location.href = root.dataset.lobbyUrl;
  });

  $("start-btn").addEventListener("click", () =>
    send("POST", `/api/tables/${tableId}/start`, {}, $("settings-error")));

  $("copy-btn").addEventListener("click", async () => {
    const input = $("share-url");
    try { await navigator.clipboard.writeText(input.value); } catch (e) { input.select(); }
  });

  for (const renew of document.querySelectorAll(".screen-renew")) {  // the old link stops working
    renew.addEventListener("click", () => {
      if (window.confirm(t("confirm.renew_screen"))) {
        send("POST", `/api/tables/${tableId}/screen-link`, null, $("settings-error"));
      }
    });
  }

  $("public-box").addEventListener("change", (event) =>
    send("POST", `/api/tables/${tableId}/visibility`, { public: event.target.checked }, $("settings-error")));

  // ------------------------------------------------------------------ the host's settings

  // Everything listed here comes from the catalog (GET /api/catalog): presets, roles,
  // options and their groups, rhythms, steps. The page knows none of them by name.
  const optionsById = () => Object.fromEntries(RULES.options.map((o) => [o.id, o]));
  const hint = (text) => (text ? el("span", { class: "hint" }, text) : null);

  /** The cards of a composition in plain words: "2 Loups-Garous, Voyante, Sorcière, 3 Villageois". */
  function cardWords(wolves, roles, villagers, middle) {
    const words = [WW.tn("count.werewolf", wolves)];
    for (const role of RULES.roles) {
      const count = roles[role.id] || 0;
      if (!count || role.pack || !role.optional) continue;
      words.push(count > 1 ? `${role.name} ×${count}` : role.name);
    }
    if (villagers > 0) words.push(WW.tn("count.villager", villagers));
    if (middle) words.push(t("middle", { count: middle }));
    return words.join(t("summary.separator"));
  }

  /** The deck these settings give for n seated (the engine's rule: A1.2). */
  function settingsDeck(settings, n) {
    const size = Math.min(Math.max(n, RULES.players.min), RULES.players.max);
    const wolves = settings.wolves || RULES.wolf_table[String(size)];
    const roles = {};
    let cards = wolves;
    let middle = 0;
    for (const role of RULES.roles) {
      if (role.optional && settings.roles[role.id]) {
        roles[role.id] = role.cards;
        cards += role.cards;
        middle += role.middle_cards;
      }
    }
    return { wolves, roles, villagers: size - cards, middle };
  }

  /** The options in force (those not at their default), in plain words. */
  function optionWords(options) {
    const byId = optionsById();
    const words = [];
    for (const [id, value] of Object.entries(options || {})) {
      const option = byId[id];
      if (!option || value === option.default || value === false) continue;
      if (option.kind === "choice") words.push(t("summary.option_value", { name: option.name, value: (option.value_names || {})[value] || value }));
      else if (option.kind === "int") words.push(t("summary.option_value", { name: option.name, value: String(value) }));
      else words.push(option.name);
    }
    return words;
  }

  /** Every line a player reads about the table's settings (before and during the game). */
  function settingsLines(settings, n, composition) {
    const lines = [];
    const preset = RULES.presets.find((p) => p.id === settings.preset);
    if (preset) lines.push(t("summary.preset", { name: preset.name }));
    if (composition) {
      const roles = Object.fromEntries(RULES.roles.filter((r) => r.optional).map((r) => [r.id, composition[r.id] || 0]));
      const wolves = RULES.roles.filter((r) => r.pack).reduce((sum, r) => sum + (composition[r.id] || 0), 0);
      lines.push(t("summary.cards", { cards: cardWords(wolves, roles, composition.villager || 0, composition.middle) }));
    } else {
      const deck = settingsDeck(settings, n);
      lines.push(t("summary.cards", { cards: cardWords(deck.wolves, deck.roles, deck.villagers, deck.middle) }));
    }
    lines.push(settings.captain ? t("captain_on") : t("captain_off"));
    const options = optionWords(settings.options);
    lines.push(options.length ? t("summary.options", { options: options.join(" · ") }) : t("summary.no_options"));
    const rhythm = RULES.rhythms.find((r) => r.id === settings.rhythm);
    if (rhythm) lines.push(t("summary.rhythm", { name: rhythm.name }));
    return lines;
  }

  function patchSettings(patch) {
    return send("PATCH", `/api/tables/${tableId}/settings`, patch, $("settings-error"));
  }

  function optionControl(option) {
    const label = (control) => el("label", { class: option.kind === "bool" ? "toggle" : "limit choice" },
      ...(option.kind === "bool" ? [control, el("span", {}, option.name, hint(option.description))]
        : [el("span", {}, option.name, hint(option.description)), control]));
    if (option.kind === "bool") return label(el("input", { type: "checkbox", name: "option", value: option.id }));
    if (option.kind === "choice") {
      return label(el("select", { name: "option", dataset: { option: option.id } },
        option.values.map((v) => el("option", { value: String(v) }, (option.value_names || {})[v] || String(v)))));
    }
    return label(el("input", { type: "number", name: "option", inputmode: "numeric", dataset: { option: option.id },
                               min: option.min !== undefined ? String(option.min) : null,
                               max: option.max !== undefined ? String(option.max) : null }));
  }

  function buildSettingsForm() {
    const form = $("settings");
    if (form.dataset.built) return;
    form.dataset.built = "1";
    // Presets first, each with its line and (filled in at each render) its cards for the number seated.
    $("presets").append(...RULES.presets.map((p) => el("label", { class: "preset" },
      el("input", { type: "radio", name: "preset", value: p.id }),
      el("span", { class: "preset-text" }, el("strong", {}, p.name), hint(p.description),
        el("span", { class: "preset-cards", dataset: { preset: p.id } })))),
    el("label", { class: "preset" }, el("input", { type: "radio", name: "preset", value: "" }),
      el("span", { class: "preset-text" }, el("strong", {}, t("preset.none")), hint(t("settings.custom_help")))));
    // "Composition personnalisée": the roles, the wolves, the Captain, the options by group.
    const wolves = [[null, t("settings.wolves_auto")]];
    for (let n = RULES.wolves.min; n <= RULES.wolves.max; n++) wolves.push([n, String(n)]);
    $("custom-roles").append(
      ...RULES.roles.filter((r) => r.optional).map((role) => el("label", { class: "toggle" },
        el("input", { type: "checkbox", name: "role", value: role.id }),
        el("span", {}, WW.emoji(role.emoji), ` ${role.name}`, hint(role.description)))),
      el("label", { class: "limit choice" }, el("span", {}, t("settings.wolves"), hint(t("settings.wolves_help"))),
        el("select", { name: "wolves" }, wolves.map(([value, label]) =>
          el("option", { value: value === null ? "" : String(value) }, label)))),
      el("label", { class: "toggle" }, el("input", { type: "checkbox", name: "captain" }),
        el("span", {}, t("step.election"), hint(t("settings.captain_help")))));
    for (const group of RULES.option_groups) {
      const options = RULES.options.filter((o) => o.group === group.id && !o.preset_neutral);
      if (options.length) $("custom-options").append(el("fieldset", { class: "options" },
        el("legend", {}, group.name), ...options.map(optionControl)));
    }
    // What adjusts a preset without leaving it: the rhythm, the table's neutral options, single limits.
    $("rhythm-set").append(el("label", { class: "limit choice" }, el("span", { class: "sr-only" }, t("settings.rhythm")),
      el("select", { name: "rhythm" }, RULES.rhythms.map((r) => el("option", { value: r.id }, r.name)))),
    el("p", { class: "hint", id: "rhythm-help" }),
    ...RULES.options.filter((o) => o.preset_neutral).map(optionControl));
    for (const step of RULES.steps) {
      $("limits").append(el("label", { class: "limit" }, el("span", {}, step.name),
        el("input", { type: "number", min: String(RULES.limits.min), max: String(RULES.limits.max), step: "1",
                      inputmode: "numeric", name: "limit", dataset: { step: step.id } })));
    }
    form.addEventListener("change", (event) => {
      const input = event.target;
      const settings = view.table.settings;
      let patch;
      if (input.name === "preset" && input.value) patch = { preset: input.value };
      else if (input.name === "preset") {
        // Custom from the preset's own values, so nothing jumps under the host's thumb.
        patch = { preset: null, roles: settings.roles, wolves: settings.wolves, captain: settings.captain,
                  options: Object.fromEntries(Object.entries(settings.options).filter(([id]) => optionsById()[id])) };
      } else if (input.name === "role") patch = { roles: { [input.value]: input.checked } };
      else if (input.name === "captain") patch = { captain: input.checked };
      else if (input.name === "wolves") patch = { wolves: input.value ? parseInt(input.value, 10) : null };
      else if (input.name === "rhythm") patch = { rhythm: input.value };
      else if (input.name === "option") {
        const option = optionsById()[input.dataset.option || input.value];
        let value = input.type === "checkbox" ? input.checked : input.value;
        if (option.kind === "int") value = parseInt(value, 10);
        else if (option.kind === "choice") value = option.values.find((v) => String(v) === value);
        patch = { options: { [option.id]: value } };
      } else if (input.name === "limit") {
        const seconds = parseInt(input.value, 10);
        if (!(seconds >= 1)) return;
        patch = { limits: { [input.dataset.step]: seconds } };
      } else return;
      patchSettings(patch);
    });
  }

  /** The host's form shows the table's settings (never overwriting the control in use). */
  function renderSettingsForm(settings, n) {
    const form = $("settings");
    const keep = (input) => document.activeElement === input;
    for (const radio of form.querySelectorAll("input[name=preset]")) radio.checked = radio.value === (settings.preset || "");
    for (const line of form.querySelectorAll(".preset-cards")) {
      const preset = RULES.presets.find((p) => p.id === line.dataset.preset);
      const size = Math.min(Math.max(n, preset.sizes[0]), preset.sizes[1]);
      const c = preset.by_size[String(size)];
      line.textContent = (n < preset.sizes[0] || n > preset.sizes[1]
        ? t("summary.sizes", { min: preset.sizes[0], max: preset.sizes[1] }) + " · " : "")
        + cardWords(c.wolves, c.roles, c.villagers, c.middle);
    }
    $("custom").hidden = !!settings.preset;
    for (const box of form.querySelectorAll("input[name=role]")) if (!keep(box)) box.checked = !!settings.roles[box.value];
    form.elements.captain.checked = !!settings.captain;
    for (const key of ["wolves", "rhythm"]) {
      const input = form.elements[key];
      if (!keep(input)) input.value = settings[key] === null ? "" : String(settings[key]);
    }
    const rhythm = RULES.rhythms.find((r) => r.id === settings.rhythm);
    $("rhythm-help").textContent = rhythm ? rhythm.description : "";
    for (const input of form.querySelectorAll("[name=option]")) {
      const id = input.dataset.option || input.value;
      const value = (settings.options || {})[id];
      if (keep(input)) continue;
      if (input.type === "checkbox") input.checked = !!value;
      else input.value = value === undefined ? "" : String(value);
    }
    for (const input of form.querySelectorAll("input[name=limit]")) {
      if (!keep(input)) input.value = settings.limits[input.dataset.step];
    }
  }

  function renderLobby() {
    const table = view.table;
    $("lobby-name").textContent = table.name;
    $("lobby-count").textContent = t("lobby.waiting", { count: view.players.length });
    $("share-code").textContent = table.code;
    $("share-url").value = table.url;
    const qr = $("qr");
    if (!qr.getAttribute("src")) qr.src = root.dataset.qr;

    $("seats").replaceChildren(...view.players.map((p) => el("li", { class: "seat" },
      el("span", { class: "avatar", dataset: { hue: hue(p.name) } }, initials(p.name)),
      el("span", { class: "seat-name" }, p.name),
      p.seat === mySeat() ? el("span", { class: "tag" }, t("you")) : null,
      p.seat === table.host_seat ? el("span", { class: "tag host" }, t("host")) : null,
      p.connected ? null : el("span", { class: "dot off", title: t("disconnected") }),
      isHost() && p.seat !== mySeat() ? el("button", {
        type: "button", class: "small ghost",
        onclick: () => confirm(t("confirm.remove", { name: p.name })) &&
          send("DELETE", `/api/tables/${tableId}/seats/${p.seat}`, {}, $("settings-error")),
      }, t("lobby.remove")) : null)));
    paintAvatars($("seats"));

    const host = isHost();
    const start = $("start-btn");
    start.hidden = !host;
    const seats = RULES.players;  // the engine's limits, from the catalog
    start.disabled = view.players.length < seats.min || view.players.length > seats.max;
    $("lobby-hint").textContent = view.players.length < seats.min ? t("lobby.need", { min: seats.min }) : host ? "" : t("lobby.waiting_host");

    buildSettingsForm();
    const settings = table.settings;
    $("settings").hidden = !host;
    if (host) renderSettingsForm(settings, view.players.length);
    renderSummary($("settings-summary"), settingsLines(settings, view.players.length, null), true);
  }

  /** The settings in force in plain words, for every player (lobby and game). */
  function renderSummary(box, lines, title) {
    const signature = lines.join("\n");
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    box.replaceChildren(...(title ? [el("h2", {}, t("summary.title"))] : []),
      el("ul", {}, lines.map((line) => el("li", {}, line))));
  }

  // ------------------------------------------------------------------ game

  let gameTheme = null;  // night (true) or day (false) as last rendered in a game
  function renderGame() {
    const step = view.step;
    const night = step && isNightStep(step.id);
    // The fade (a veil, app.css) only when the game itself turns night to day or back, not at load.
    if (gameTheme !== null && gameTheme !== !!night) document.body.classList.add("fade");
    gameTheme = !!night;
    document.body.classList.toggle("night", !!night);
    document.body.classList.toggle("day", !night);
    $("game").classList.toggle("ended", view.table.status === "ended");
    renderNarration();
    renderMoment();
    renderPrompt();
    renderPlayers();
    renderEnd();
    renderRecap();
    renderEvents();
    renderChat();
    renderCard();
    renderGameActions();
    renderCues();
  }


  function renderNarration() {
    const step = view.step;
    if (!step) {
      $("phase").textContent = "";
      $("step-text").textContent = view.winner ? winnerTitle() : "";
      $("countdown").hidden = true;
      return;
    }
    $("phase").textContent = step.night !== undefined ? t("night", { n: step.night }) : t("day", { n: step.day });
    $("step-text").textContent = t("step." + step.id,
      { name: step.actor ? name(step.actor) : "", names: step.tied ? names(step.tied) : "" });
    $("countdown").hidden = false;
    tick();
  }

  function tick() {
    if (!view || !view.step || localDeadline === null) return;
    const total = (view.table.settings.limits[view.step.id] || 1) * (view.table.time_scale || 1);
    const left = Math.max(0, (localDeadline - Date.now()) / 1000);
    const whole = Math.ceil(left);
    $("seconds").textContent = whole < 100 ? String(whole)
      : Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
    $("countdown").setAttribute("aria-label", t("time_left", { n: whole }));
    const ring = $("ring");
    const length = 2 * Math.PI * 16;
    ring.style.strokeDasharray = String(length);
    ring.style.strokeDashoffset = String(length * (1 - Math.min(1, left / total)));
    $("countdown").classList.toggle("urgent", left <= 10);
  }
  setInterval(tick, 250);

  // ------------------------------------------------------------------ moments

  // What the table learns when a step ends: it takes the top of the screen during the next
  // step, then goes to the recaps. Private ones (the Seer's answer, the lovers) only while
  // the card is turned over, or at night when every other eye is shut.
  const MOMENT_KINDS = new Set(["deaths", "vote_result", "election_result", "succession", "tiebreak",
                                "hunter_shot", "seer_look", "lover", "player_left", "ballots", "owl_nominee",
                                "little_girl_caught", "freemason"]);
  // What only some seats are told (the catalog says which kinds everyone is told, as they happen
  // or at the end): kept off the screen while the card is face down.
  const isSecretKind = (kind) => !RULES.publicEvent.has(kind) && !RULES.endEvent.has(kind);
  // Elimination rounds: public ballots, the Captain's counting twice.
  const secretsVisible = () => cardShown || document.body.classList.contains("night");

  /** The moment's events: those since the start of the step before the current one. */
  function momentEvents() {
    if (view.table.status === "lobby") return [];
    const events = view.events;
    let steps = 0;
    let from = 0;
    for (let i = events.length - 1; i >= 0; i--) {
      if (events[i].kind === "step" && ++steps === 2) { from = i + 1; break; }
    }
    const secrets = view.table.status === "running" && secretsVisible();
    return events.slice(from).filter((e) => (MOMENT_KINDS.has(e.kind) || isMoment(e.kind)) && (secrets || !isSecretKind(e.kind)));
  }

  function deathItem(d) {
    return el("li", { class: "death" + (d.seat === mySeat() ? " mine" : "") },
      el("span", { class: "avatar", dataset: { hue: hue(name(d.seat)) }, "aria-hidden": "true" }, initials(name(d.seat))),
      el("span", { class: "death-text" }, deathLine(d)),
      el("span", { class: "death-card emoji", "aria-hidden": "true" }, roleEmoji(d.role)));
  }

  function tallyText(tally) {
    const entries = Object.entries(tally || {}).sort((a, b) => b[1] - a[1]);
    return entries.map(([seat, n]) => t("tally", { name: name(Number(seat)), votes: WW.tn("votes_n", n) })).join(" · ");
  }

  /** Headline and lines of one moment event. */
  function momentParts(e) {
    switch (e.kind) {
      case "deaths":
        if (!e.deaths.length) return e.moment === "night" ? { head: t("ev.deaths_none"), lines: [] } : null;
        return { head: e.moment === "night" ? t("moment.night") : null, lines: e.deaths.map(deathItem) };
      case "vote_result": return { head: eventText(e), lines: e.tally && Object.keys(e.tally).length ? [el("li", { class: "tally" }, tallyText(e.tally))] : [] };
      case "election_result": return { head: eventText(e), lines: Object.keys(e.tally || {}).length ? [el("li", { class: "tally" }, tallyText(e.tally))] : [] };
      case "ballots": return { head: t("ev.ballots"), lines: ballotsEventLines(e).map((line) => el("li", { class: "tally" }, line)) };
      default: return { head: eventText(e), lines: [] };
    }
  }

  let momentSignature = "";
  function renderMoment() {
    const events = momentEvents();
    const box = $("moment");
    const parts = events.map(momentParts).filter(Boolean);
    const dead = events.some((e) => e.kind === "deaths" && e.deaths.some((d) => d.seat === mySeat()));
    box.hidden = !parts.length;
    box.classList.toggle("my-death", dead);
    const signature = JSON.stringify(events.map((e) => e.seq)) + dead;
    if (signature === momentSignature) return;
    momentSignature = signature;
    if (!parts.length) return;
    const heads = parts.map((p) => p.head).filter(Boolean);
    $("moment-title").textContent = dead ? t("moment.my_death") : heads[0] || "";
    const lines = [];
    for (const [i, part] of parts.entries()) {
      if (part.head && (dead || i > 0 || part.head !== heads[0])) lines.push(el("li", { class: "moment-head" }, part.head));
      lines.push(...part.lines);
    }
    if (dead) lines.push(el("li", { class: "moment-head" }, t("moment.my_death_more")));
    $("moment-lines").replaceChildren(...lines);
    paintAvatars(box);
    announce([$("moment-title").textContent, ...lines.map((n) => n.textContent)].join(" "));
  }

  // ------------------------------------------------------------------ votes and recaps



  /** Whether the current round's ballots are secret (option secret_ballot, A5.1). */
  function secretRound() {
    const options = (view.table && view.table.settings && view.table.settings.options) || {};
    return !!options.secret_ballot && !!view.step && isRound(view.step.id);
  }


  function voteBlock(vote) {
    const titles = { election: "recap.election", revote: "recap.revote_of", runoff: "recap.runoff_of" };
    const title = t(titles[vote.step] || "recap.vote_of", { n: vote.day });
    return el("div", { class: "recap-vote" },
      el("h3", {}, title),
      vote.result ? el("p", { class: "recap-result" }, eventText(vote.result)) : el("p", { class: "muted" }, t("recap.in_progress")),
      el("ul", { class: "ballots" }, ballotLines(vote).map((line) => el("li", {}, line))));
  }

  function lastNightBlock() {
    const events = view.events;
    let i = events.length - 1;
    while (i >= 0 && !(events[i].kind === "deaths" && events[i].moment === "night")) i--;
    if (i < 0) return [el("p", { class: "muted" }, t("recap.no_night"))];
    const dawn = events[i];
    const start = events.findIndex((e) => e.kind === "step" && e.night === dawn.night);
    const out = [];
    if (dawn.deaths.length) out.push(el("ul", { class: "moment-lines" }, dawn.deaths.map(deathItem)));
    else out.push(el("p", {}, t("ev.deaths_none")));
    if (secretsVisible()) {
      for (const e of events.slice(start, i)) {
        if (isSecretKind(e.kind) && e.kind !== "designation") {
          const text = eventText(e);
          if (text) out.push(el("p", { class: "secret" }, text));
        }
      }
    }
    return out;
  }

  let recapOpen = null;  // "night" | "vote" | "days" | null
  for (const which of ["night", "vote", "days"]) {
    $("recap-" + which).addEventListener("click", () => {
      recapOpen = recapOpen === which ? null : which;
      renderRecap();
    });
  }

  function renderRecap() {
    const votes = voteHistory().filter((v) => v.result);
    const hasNight = view.events.some((e) => e.kind === "deaths" && e.moment === "night");
    $("recaps").hidden = !(hasNight || votes.length) || view.table.status === "lobby";
    $("recap-night").hidden = !hasNight;
    $("recap-vote").hidden = !votes.some((v) => isRound(v.step));
    $("recap-days").hidden = !votes.length;
    for (const which of ["night", "vote", "days"]) {
      $("recap-" + which).setAttribute("aria-expanded", recapOpen === which ? "true" : "false");
    }
    const panel = $("recap-panel");
    if (!recapOpen || $("recap-" + recapOpen).hidden) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    $("recap-title").textContent = $("recap-" + recapOpen).textContent;
    let body;
    if (recapOpen === "night") body = lastNightBlock();
    else if (recapOpen === "vote") body = [voteBlock(votes.filter((v) => isRound(v.step)).pop())];
    else body = votes.slice().reverse().map(voteBlock);
    $("recap-body").replaceChildren(...body);
    paintAvatars(panel);
  }

  // ------------------------------------------------------------------ prompt

  function promptKey() {
    return view.prompt ? view.prompt.step + ":" + view.prompt.actions.map((a) => a.action).join(",") : null;
  }

  function renderPrompt() {
    const prompt = view.prompt;
    const box = $("prompt");
    const key = promptKey();
    let fresh = false;
    if (key !== lastPromptKey) {
      selection = null;
      fresh = key && (!lastPromptKey || lastPromptKey.split(":")[0] !== key.split(":")[0]);
      // Vibrate only once the page has been touched: before that (just after a reload) the
      // browser refuses and logs an error.
      const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (fresh && navigator.vibrate && touched) navigator.vibrate(200);  // my turn
      if (fresh) beep();
      lastPromptKey = key;
    }
    $("status-line").textContent = statusLine();
    if (!prompt) {
      box.hidden = true;
      selection = null;
      return;
    }
    box.hidden = false;
    const actions = Object.fromEntries(prompt.actions.map((a) => [a.action, a]));
    const buttons = [];
    let info = "";
    if (actions["witch.done"]) {
      $("prompt-title").textContent = selection ? t("prompt.witch.poison") : t("prompt.witch");
      info = witchInfo();
      if (!selection) {
        if (actions["witch.save"]) {
          buttons.push(button("🧪 " + t("btn.save", { name: name(actions["witch.save"].target) }), "primary",
            () => act({ action: "witch.save" })));
        }
        if (actions["witch.poison"]) {
          buttons.push(button("☠️ " + t("btn.poison"), "danger", () => choose(actions["witch.poison"])));
        }
        buttons.push(button(t("btn.done"), "", () => act({ action: "witch.done" })));
      }
    } else if (actions["debate.request_vote"]) {
      $("prompt-title").textContent = t("prompt.debate.request_vote");
      buttons.push(button(t("btn.request_vote"), "primary big", () => act({ action: "debate.request_vote" })));
    } else if (kindOf(prompt.actions[0].action) === "card") {
      const spec = prompt.actions[0];
      $("prompt-title").textContent = t("prompt." + spec.action);
      for (const n of spec.choices) {
        buttons.push(button(t("btn.take_card", { n, role: roleName(spec.cards[n - 1]) }), "primary",
          () => act(WW.actBody(RULES, spec.action, n))));
      }
    } else if (prompt.actions.every((a) => kindOf(a.action) === "confirm")) {
      // Nothing to choose (a defense, a speaking turn): the buttons below.
      $("prompt-title").textContent = t("prompt." + prompt.actions[0].action);
      if (secretRound()) info = t("secret_ballot.note");
    } else {
      const spec = prompt.actions.find((a) => kindOf(a.action) !== "confirm") || prompt.actions[0];
      $("prompt-title").textContent = t("prompt." + spec.action);
      if (kindOf(spec.action) === "confirm") selection = null;  // only buttons (the Little Girl's eyes)
      else if (!selection || selection.action !== spec.action) choose(spec, true);
      if (spec.current !== undefined && spec.current !== null) {
        info = t("current", { name: name(spec.current) });
      } else if (spec.voted) {
        info = t("current", { name: t("nobody") });
      } else if (secretRound()) {
        info = t("secret_ballot.note");
      }
    }
    if (selection) {
      const ready = selection.seats.length === selection.count;
      if (selection.seats.length) {
        info = t("chosen", { names: names(selection.seats) });
      } else if (!info) {
        info = t(selection.count > 1 ? "tap_players" : "tap_player", { count: selection.count });
      }
      const secondary = selection.nullable || actions["witch.done"];
      buttons.push(button(t("btn.confirm"), "primary" + (secondary ? " half" : ""), () => confirmSelection(), !ready));
      const spec = prompt.actions.find((a) => a.action === selection.action) || {};
      const abstaining = isRound(RULES.action[selection.action] ? RULES.action[selection.action].step : "");
      if (selection.nullable && (abstaining || (spec.current !== undefined && spec.current !== null))) {
        const label = abstaining ? t("btn.abstain") : t("btn.withdraw");
        buttons.push(button(label, "ghost half", () => act({ action: selection.action, target: null })));
      }
      if (actions["witch.done"]) buttons.push(button(t("btn.cancel"), "ghost half", () => { selection = null; renderGame(); }));
    }
    if (!actions["witch.done"] && !actions["debate.request_vote"]) {
      // The other confirmations of the step (the Guard's "done", the Thief's "keep").
      for (const spec of prompt.actions.filter((a) => kindOf(a.action) === "confirm")) {
        buttons.push(button(t("btn." + spec.action), "", () => act(WW.actBody(RULES, spec.action))));
      }
    }
    $("prompt-info").textContent = info;
    $("prompt-buttons").replaceChildren(...buttons);
    if (fresh) announce($("prompt-title").textContent + " " + info);
  }

  function statusLine() {
    const step = view.step;
    if (!step) return "";
    if (!view.me) return t("spectating");
    if (view.me.left) return t("left_watch");
    if (!$("moment").hidden && $("moment").classList.contains("my-death")) return "";  // the moment says it
    if (view.prompt && !isBallotStep(step.id)) return "";  // a dead Hunter or Captain still has a last thing to do
    const waiting = notVotedYet();
    if (waiting) return waiting;
    if (view.prompt) return "";
    if (!view.me.alive) return t("dead_watch");
    if (isNightStep(step.id)) return t("sleeping");
    if (step.id === "dawn" || step.id === "tally") return "";  // nobody acts: the narration says it all
    if (step.id === "defense") return t("defense.others");
    if (step.id === "speech") return t("speech.others", { name: name(step.actor) });
    if (step.id === "debate" && view.requests && view.requests.length) {
      return WW.tn("requests", view.requests.length);
    }
    return t("waiting_others");
  }

  /** Public votes: who has not voted yet, by name. */
  function notVotedYet() {
    if (!view.step || !isBallotStep(view.step.id) || secretRound()) return "";
    const votes = view.votes || {};
    const tied = view.step.id === "runoff" ? view.step.tied || [] : [];   // the tied do not vote in a run-off
    const missing = view.players.filter((p) => p.alive && !(String(p.seat) in votes) && !tied.includes(p.seat) &&
      !(view.step.id === "election" && votes[p.seat] === null)).map((p) => p.seat);
    return missing.length ? t("not_voted", { names: names(missing) }) : "";
  }

  function witchInfo() {
    const night = view.step.night;
    const seen = view.events.filter((e) => e.kind === "witch_victim" && e.night === night).pop();
    const potions = view.me.potions || {};
    const lines = [];
    if (seen) lines.push(seen.target ? t("witch.victim", { name: name(seen.target) }) : t("witch.no_victim"));
    lines.push(t("witch.potions", {
      life: potions.life ? t("potion.yes") : t("potion.no"),
      death: potions.death ? t("potion.yes") : t("potion.no") }));
    return lines.join(" ");
  }

  function button(label, cls, onclick, disabled) {
    return el("button", { type: "button", class: cls || "", onclick, disabled: !!disabled }, label);
  }

  function choose(spec, keep) {
    selection = { action: spec.action, count: spec.count || 1, choices: spec.choices || [],
                  nullable: !!spec.nullable, seats: [] };
    if (!keep) renderGame();
  }

  function tapSeat(seat) {
    if (!selection || !selection.choices.includes(seat)) return;
    const seats = selection.seats;
    const i = seats.indexOf(seat);
    if (i >= 0) seats.splice(i, 1);
    else if (selection.count === 1) selection.seats = [seat];
    else if (seats.length < selection.count) seats.push(seat);
    renderGame();
  }

  function confirmSelection() {
    if (!selection || selection.seats.length !== selection.count) return;
    act(WW.actBody(RULES, selection.action, selection.count > 1 ? selection.seats.slice() : selection.seats[0]));
  }

  async function act(body) {
    body.step = view.prompt ? view.prompt.step : undefined;
    // Cleared before the act's answer is drawn: no tile left chosen, and the render that
    // follows opens a fresh choice if the prompt stays (a vote one may change).
    let shown = false;
    const result = await send("POST", `/api/tables/${tableId}/act`, body, $("prompt-error"),
      () => { selection = null; shown = true; });
    if (result && result.ok && !shown) {  // no view came back: drawn afresh now, the poll follows
      selection = null;
      renderGame();
    }
  }

  function voteCounts() {
    const counts = {};
    const captain = view.players.find((p) => p.captain && p.alive);
    const double = view.step && isRound(view.step.id);
    for (const [voter, target] of Object.entries(view.votes || {})) {
      if (target === null) continue;
      const weight = double && captain && captain.seat === Number(voter) ? 2 : 1;
      counts[target] = (counts[target] || 0) + weight;
    }
    return counts;
  }

  /** A chip naming a player: the name, or initials when a tile holds many. */
  function chip(seat, short, extra, cls) {
    const full = name(seat);
    return el("span", { class: "chip" + (cls ? " " + cls : ""), title: full },
      (extra || "") + (short ? initials(full) : full));
  }

  function renderPlayers() {
    const counts = voteCounts();
    const votersFor = {};
    for (const [voter, target] of Object.entries(view.votes || {})) {
      if (target !== null) (votersFor[target] = votersFor[target] || []).push(Number(voter));
    }
    const designations = view.designations || {};
    const wolvesOn = {};
    for (const [wolf, target] of Object.entries(designations)) {
      if (target !== null) (wolvesOn[target] = wolvesOn[target] || []).push(Number(wolf));
    }
    const choosable = selection ? selection.choices : [];
    const captain = view.players.find((p) => p.captain && p.alive);
    const doubleVoter = view.step && isRound(view.step.id) && captain ? captain.seat : null;  // counts twice
    const many = view.players.length > 12;
    $("players").classList.toggle("many", many);
    $("players").replaceChildren(...view.players.map((p) => {
      const chosen = selection && selection.seats.includes(p.seat);
      const classes = ["tile", p.alive ? "alive" : "dead"];
      if (selection) classes.push(choosable.includes(p.seat) ? "choosable" : "dim");
      if (chosen) classes.push("chosen");
      if (p.seat === mySeat()) classes.push("me");
      if (p.left) classes.push("left");
      // What only I know about a living player (fellow wolves, the Seer's looks) shows
      // while my card is turned over, so a neighbour glancing at the screen learns nothing.
      const revealed = !p.alive || view.table.status === "ended";
      const shownRole = p.role && (revealed || (cardShown && p.seat !== mySeat())) ? p.role : null;
      const voters = votersFor[p.seat] || [];
      const wolves = wolvesOn[p.seat] || [];
      // States said in words to a screen reader (the page shows them as colour, a badge, a dot).
      const states = [p.alive ? null : t("dead"), p.captain ? t("captain") : null,
        p.left ? null : (p.connected ? null : t("disconnected")),
        voters.length ? t("voted_by", { names: names(voters) }) : null,
        wolves.length ? t("wolves_on", { names: names(wolves) }) : null].filter(Boolean);
      const short = voters.length > 2 || many;
      const tile = el("li", { class: classes.join(" "), dataset: { seat: p.seat } },
        el("button", { type: "button", class: "tile-button", disabled: !selection || !choosable.includes(p.seat),
                       "aria-pressed": chosen ? "true" : "false", onclick: () => tapSeat(p.seat) },
          el("span", { class: "avatar", dataset: { hue: hue(p.name) }, "aria-hidden": "true" }, initials(p.name)),
          el("span", { class: "tile-name" }, p.name),
          states.length ? el("span", { class: "sr-only" }, ", " + states.join(", ") + ",") : null,
          el("span", { class: "tile-seat" }, "#" + p.seat + (p.seat === mySeat() ? " · " + t("you") : "")),
          shownRole ? el("span", { class: "tile-role" }, WW.emoji(roleEmoji(shownRole)), " " + cardName(shownRole, p.was)) : null,
          p.captain ? el("span", { class: "badge captain", title: t("captain") }, "🎖️") : null,
          p.left ? el("span", { class: "tag left-tag" }, t("left")) : null,
          p.connected || p.left ? null : el("span", { class: "dot off", title: t("disconnected") }),
          counts[p.seat] ? el("span", { class: "votes" }, WW.tn("votes_n", counts[p.seat])) : null,
          voters.length ? el("span", { class: "chips", "aria-hidden": "true" },
            voters.map((v) => v === doubleVoter ? chip(v, short, "🎖️", "captain") : chip(v, short))) : null,
          wolves.length ? el("span", { class: "chips wolves", "aria-hidden": "true" }, wolves.map((v) => chip(v, short, "🐺"))) : null));
      return tile;
    }));
    paintAvatars($("players"));
  }

  // ------------------------------------------------------------------ announcements



  // What my role learned (the Seer's looks, the wolves' choice, the Witch's potions, the
  // lovers) stays off the daytime screen unless my card is turned over: a neighbour glancing
  // at my phone by day must not read "Votre victime : Alice". At night everyone's eyes are shut.
  let eventsShown = "";
  function renderEvents() {
    const secrets = secretsVisible();
    const signature = view.events.length + ":" + secrets;
    if (signature === eventsShown) return;
    eventsShown = signature;
    const items = [];
    for (const e of view.events) {
      if (!secrets && isSecretKind(e.kind)) continue;
      const text = eventText(e);
      if (text) items.push(el("li", { class: "event " + e.kind }, text));
    }
    $("events").replaceChildren(...items.reverse());  // newest first
  }




  function renderEnd() {
    const end = $("end");
    const ended = view.table.status === "ended" && !!view.winner;
    $("events-card").hidden = ended;
    $("end-more").hidden = !ended;
    if (!ended) {
      end.hidden = true;
      return;
    }
    end.hidden = false;
    $("winner-title").textContent = winnerTitle();
    $("winner-seats").textContent = winnerLine();
    $("new-game-btn").hidden = !isHost();
    $("timeline").replaceChildren(...timelineItems());
  }

  $("new-game-btn").addEventListener("click", () =>
    send("POST", `/api/tables/${tableId}/reopen`, {}, $("prompt-error")));

  function renderGameActions() {
    const running = view.table.status === "running";
    $("end-game-btn").hidden = !(running && isHost());
    $("quit-game-btn").hidden = !(running && view.me && !view.me.left);
  }

  $("end-game-btn").addEventListener("click", () => {
    if (confirm(t("confirm.end_game"))) send("POST", `/api/tables/${tableId}/end`, {}, $("prompt-error"));
  });
  $("quit-game-btn").addEventListener("click", async () => {
    if (!confirm(t("confirm.quit_game"))) return;
    const result = await send("POST", `/api/tables/${tableId}/leave`, {}, $("prompt-error"));
    if (result && result.ok) location.href = root.dataset.lobbyUrl;
  });

  // ------------------------------------------------------------------ chat

  let chatSignature = "";
  let lastWritable = null;
  let chatOpen = false;
  const readCounts = {};  // channel -> messages seen
  const wide = window.matchMedia("(min-width: 900px)");

  function setChatOpen(open) {
    chatOpen = open;
    $("game").classList.toggle("chat-open", open);
    $("chat-toggle").setAttribute("aria-expanded", open ? "true" : "false");
    if (view) renderChat();
    if (open && !wide.matches) $("chat-input").focus({ preventScroll: true });
  }
  $("chat-toggle").addEventListener("click", () => setChatOpen(!chatOpen));
  $("chat-close").addEventListener("click", () => setChatOpen(false));

  /** Every channel I may write in now (the Medium: `dead` too). */
  const writableChannels = () => view.channels.writable || (view.channels.write ? [view.channels.write] : []);

  function renderChat() {
    const channels = view.channels.read;
    if (view.channels.write !== lastWritable) {  // night falls, day breaks, I die: follow the channel I may write in
      lastWritable = view.channels.write;
      if (lastWritable) chatTab = lastWritable;
    }
    if (!channels.includes(chatTab)) chatTab = view.channels.write || writableChannels()[0] || channels[0] || null;
    $("chat").hidden = !channels.length;
    $("chat-toggle").hidden = !channels.length;
    const visible = chatOpen || wide.matches;
    if (visible && chatTab) readCounts[chatTab] = (view.chat[chatTab] || []).length;
    let unread = 0;
    for (const ch of channels) unread += Math.max(0, (view.chat[ch] || []).length - (readCounts[ch] || 0));
    $("chat-toggle-label").textContent = t("chat.open");
    $("chat-unread").textContent = unread ? String(unread) : "";
    $("chat-unread-words").textContent = unread ? WW.tn("unread", unread) : "";
    $("chat-tabs").replaceChildren(...channels.map((ch) => el("button", {
      type: "button", role: "tab", class: "tab" + (ch === chatTab ? " active" : ""),
      "aria-selected": ch === chatTab ? "true" : "false",
      onclick: () => { chatTab = ch; chatSignature = ""; renderChat(); },
    }, t("channel." + ch), " ", el("span", { class: "count" }, String((view.chat[ch] || []).length)))));
    const messages = (chatTab && view.chat[chatTab]) || [];
    const signature = chatTab + ":" + messages.length;
    if (signature !== chatSignature) {
      chatSignature = signature;
      const list = $("messages");
      list.replaceChildren(...messages.map((m) => el("li", { class: "message" + (m.seat === mySeat() ? " mine" : "") },
        el("span", { class: "author" }, m.name === undefined ? t("chat.a_wolf") : m.name), el("span", { class: "text" }, m.text))));
      list.scrollTop = list.scrollHeight;
    }
    const writable = !!chatTab && writableChannels().includes(chatTab);
    $("chat-form").hidden = !writable;
    $("chat-closed").hidden = !!writable || view.table.status === "ended";
    $("chat-closed").textContent = t("chat.closed");
    $("chat-input").placeholder = t("chat.placeholder");
  }

  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value;
    if (!text.trim() || !writableChannels().includes(chatTab)) return;
    const result = await send("POST", `/api/tables/${tableId}/chat`,
      { channel: chatTab, text }, $("prompt-error"));
    if (result && result.ok) input.value = "";
  });

  // ------------------------------------------------------------------ my card

  $("cardface").addEventListener("click", () => { cardShown = !cardShown; renderGame(); });

  /** The testament (option testament, A6.4): the living Hunter's planned shot, the
   * living Captain's successor, set from the card at any moment, seen by him only. */
  function renderTestament(me) {
    const box = $("card-testament");
    const options = (view.table && view.table.settings && view.table.settings.options) || {};
    const kinds = [];
    if (options.testament && me.alive && view.status === "running") {
      if (me.role === "hunter") kinds.push("hunter");
      if (me.captain) kinds.push("succession");
    }
    box.hidden = !cardShown || !kinds.length;
    if (box.hidden) return;
    const others = view.players.filter((p) => p.alive && p.seat !== me.seat);
    const key = JSON.stringify([kinds, others.map((p) => p.seat), me.testament || {}]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren(...kinds.map((kind) => {
      const current = (me.testament || {})[kind];
      const select = el("select", { "aria-label": t("testament." + kind) },
        el("option", { value: "" }, t("testament.none")),
        ...others.map((p) => el("option", { value: String(p.seat), selected: p.seat === current }, p.name)));
      select.addEventListener("change", () => send("POST", `/api/tables/${tableId}/act`,
        { action: kind + ".testament", target: select.value ? Number(select.value) : null }, $("prompt-error")));
      return el("label", {}, el("span", {}, "📜 " + t("testament.title") + " — " + t("testament." + kind)), select);
    }));
  }

  function renderCard() {
    const me = view.me || {};
    $("card-back").textContent = cardShown ? t("hide_card") : t("tap_card");
    $("card-front").hidden = !cardShown;
    $("cardface").setAttribute("aria-pressed", cardShown ? "true" : "false");
    if (cardShown && me.role) {
      $("card-emoji").textContent = roleEmoji(me.role);
      $("card-role").textContent = cardName(me.role, me.was);
      $("card-help").textContent = t("role_help." + me.role);
      $("card-rules").href = root.dataset.rulesUrl + "#role-" + me.role;
      const extra = [];
      if (me.lover) extra.push(t("ev.lover", { name: name(me.lover) }));
      const mason = view.events.find((e) => e.kind === "freemason");
      if (mason) extra.push(eventText(mason));
      if (me.captain) extra.push("🎖️ " + t("captain"));
      $("card-extra").textContent = extra.join(" ");
    }
    renderTestament(me);
    const composition = view.composition || {};
    $("composition").replaceChildren(...RULES.roles.map((r) => r.id).filter((r) => composition[r]).map((r) =>
      el("li", {}, el("a", { href: root.dataset.rulesUrl + "#role-" + r, target: "_blank", rel: "noopener" },
        WW.emoji(roleEmoji(r)), ` ${roleName(r)}` + (composition[r] > 1 ? ` ×${composition[r]}` : "")))),
      ...(composition.middle ? [el("li", {}, t("middle", { count: composition.middle }))] : []));
    renderSummary($("game-settings"), settingsLines(view.table.settings, view.players.length, composition));
  }

  // ------------------------------------------------------------------ cues

  const live = $("announcer");
  /** Say it to a screen reader (a polite live region). */
  function announce(text) {
    if (!text) return;
    live.textContent = "";
    setTimeout(() => { live.textContent = text; }, 50);
  }

  // My turn: a short sound if I switched it on (off by default); the tab's title and a
  // notification while the page is in the background are turn.js's (see render()).
  function renderCues() {
    $("sound-toggle").setAttribute("aria-pressed", soundOn() ? "true" : "false");
    $("sound-icon").textContent = soundOn() ? "🔔" : "🔕";
  }

  const soundOn = () => localStorage.getItem("werewolf.sound") === "on";
  $("sound-toggle").addEventListener("click", () => {
    localStorage.setItem("werewolf.sound", soundOn() ? "off" : "on");
    if (soundOn()) beep();
    renderCues();
  });
  let audio = null;
  function beep() {
    if (!soundOn()) return;
    try {
      audio = audio || new AudioContext();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.25);
    } catch (e) { /* no sound on this device */ }
  }

  // ------------------------------------------------------------------ avatars


  // A visitor not seated yet sees "join" at once (polling the state would only get a 403).
  // Spectators (when the table allows them) watch a waiting table at once; a game already
  // running waits for the "watch" button.
  if (root.dataset.seated === "0" && (root.dataset.watchable === "0" || $("watch-btn"))) showOnly("join");
  else poll();
})();

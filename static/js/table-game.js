/* The table page, the game: the narration and its countdown, the prompt, the players, my card, the cues.
   A part: table.js calls it once with the shared state T. */
"use strict";

WW.table.game = (T) => {
  const { t, el } = WW;
  const { $, root, tableId, send, mySeat, isHost, isNightStep, kindOf, isBallotStep, isRound } = T;
  const { name, names, roleName, cardName, roleEmoji, eventText, sayOver, isOnCard, winnerTitle, stepText, initials, hue,
          paintAvatars } = T.story;

  // ------------------------------------------------------------------ game

  let selection = null;     // {action, min, max, choices, nullable, seats: []} while choosing
  let lastPromptKey = null;
  // My last act the server took (« C’est envoyé »): {step, phase} of its prompt, until a
  // prompt of another step, a new choice begun, or night turns to day (issue 35).
  let sent = null;

  let gameTheme = null;  // night (true) or day (false) as last rendered in a game
  function renderGame() {
    const step = T.view.step;
    const night = step && isNightStep(step.id);
    // The fade (a veil, app.css) only when the game itself turns night to day or back, not at load.
    if (gameTheme !== null && gameTheme !== !!night) document.body.classList.add("fade");
    gameTheme = !!night;
    document.body.classList.toggle(T.rules.nightPhase, !!night);
    document.body.classList.toggle("day", !night);
    $("game").classList.toggle("ended", T.view.table.status === "ended");
    renderNarration();
    T.renderMoment();
    renderPrompt();
    renderSent();
    renderPlayers();
    T.renderEnd();
    T.renderRecap();
    T.renderEvents();
    T.renderChat();
    renderCard();
    renderGameActions();
    renderCues();
  }


  function renderNarration() {
    const step = T.view.step;
    if (!step) {
      $("phase").textContent = "";
      $("step-text").textContent = T.view.winner ? winnerTitle() : "";
      $("countdown").hidden = true;
      return;
    }
    $("phase").textContent = step.night !== undefined ? t("night_n", { n: step.night }) : t("day", { n: step.day });
    $("step-text").textContent = stepText(step);
    $("countdown").hidden = false;
    tick();
  }

  function tick() {
    if (!T.view || !T.view.step || T.localDeadline === null) return;
    const total = (T.view.table.settings.limits[T.view.step.id] || 1) * (T.view.table.time_scale || 1);
    const left = Math.max(0, (T.localDeadline - Date.now()) / 1000);
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

  // ------------------------------------------------------------------ prompt

  function promptKey() {
    return T.view.prompt ? T.view.prompt.step + ":" + T.view.prompt.actions.map((a) => a.action).join(",") : null;
  }

  function renderPrompt() {
    const prompt = T.view.prompt;
    const box = $("prompt");
    const key = promptKey();
    let fresh = false;
    if (key !== lastPromptKey) {
      selection = null;
      if (key && sent && key.split(":")[0] !== String(sent.step)) sent = null;   // a new question: the last answer is old news
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
    const buttons = [];
    let info = "";
    // Its layout (the catalog's, by the step of its first action): "menu", each action a button
    // (the Witch's potions, the poison opening its choice); "one_button" (the debate's request).
    const stepOf = (action) => (T.rules.action[action] || {}).step;
    const layout = (T.rules.step[stepOf(prompt.actions[0].action)] || {}).layout || null;
    const menu = layout === "menu";
    if (menu) {
      $("prompt-title").textContent = t("prompt." + (selection ? selection.action : stepOf(prompt.actions[0].action)));
      info = promptInfo(stepOf(prompt.actions[0].action));
      if (!selection) {
        for (const spec of prompt.actions) {
          const look = T.rules.action[spec.action] || {};
          const label = (look.icon ? look.icon + " " : "") + t("btn." + spec.action, { name: spec.target ? name(spec.target) : "" });
          buttons.push(button(label, look.style || "", kindOf(spec.action) === "confirm"
            ? () => act(WW.actBody(T.rules, spec.action)) : () => choose(spec)));
        }
      }
    } else if (layout === "one_button") {
      const spec = prompt.actions[0];
      $("prompt-title").textContent = t("prompt." + spec.action);
      buttons.push(button(t("btn." + spec.action), (T.rules.action[spec.action] || {}).style || "primary big",
        () => act(WW.actBody(T.rules, spec.action))));
    } else if (kindOf(prompt.actions[0].action) === "card") {
      const spec = prompt.actions[0];
      $("prompt-title").textContent = t("prompt." + spec.action);
      for (const n of spec.choices) {
        buttons.push(button(t("btn.take_card", { n, role: roleName(spec.cards[n - 1]) }), "primary",
          () => act(WW.actBody(T.rules, spec.action, n))));
      }
    } else if (prompt.actions.every((a) => kindOf(a.action) === "confirm")) {
      // Nothing to choose (a defense, a speaking turn): the buttons below.
      $("prompt-title").textContent = t("prompt." + prompt.actions[0].action);
      if (T.secretRound()) info = t("secret_ballot.note");
    } else {
      const spec = prompt.actions.find((a) => kindOf(a.action) !== "confirm") || prompt.actions[0];
      $("prompt-title").textContent = t("prompt." + spec.action);
      if (kindOf(spec.action) === "confirm") selection = null;  // only buttons (the Little Girl's eyes)
      else if (!selection || selection.action !== spec.action) choose(spec, true);
      if (spec.current !== undefined && spec.current !== null) {
        info = t("current", { name: name(spec.current) });
      } else if (spec.voted) {
        info = t("current", { name: t("nobody") });
      } else if (T.secretRound()) {
        info = t("secret_ballot.note");
      }
    }
    if (selection) {
      const ready = selectionReady();
      if (selection.seats.length) {
        info = t("chosen", { names: names(selection.seats) });
      } else if (!info) {
        info = tapWords(selection);
      }
      const secondary = selection.nullable || menu;
      buttons.push(button(t("btn.confirm"), "primary" + (secondary ? " half" : ""), () => confirmSelection(), !ready));
      const spec = prompt.actions.find((a) => a.action === selection.action) || {};
      const abstaining = isRound(T.rules.action[selection.action] ? T.rules.action[selection.action].step : "");
      if (selection.nullable && (abstaining || (spec.current !== undefined && spec.current !== null))) {
        const label = abstaining ? t("btn.abstain") : t("btn.withdraw");
        buttons.push(button(label, "ghost half", () => act({ action: selection.action, target: null })));
      }
      if (menu) buttons.push(button(t("btn.cancel"), "ghost half", () => { selection = null; renderGame(); }));
    }
    if (!layout) {
      // The other confirmations of the step (the Guard's "done", the Thief's "keep").
      for (const spec of prompt.actions.filter((a) => kindOf(a.action) === "confirm")) {
        buttons.push(button(t("btn." + spec.action), "", () => act(WW.actBody(T.rules, spec.action))));
      }
    }
    $("prompt-info").textContent = info;
    $("prompt-buttons").replaceChildren(...buttons);
    if (fresh) announce($("prompt-title").textContent + " " + info);
  }

  function statusLine() {
    const step = T.view.step;
    if (!step) return "";
    if (!T.view.me) return t("spectating");
    if (T.view.me.left) return t("left_watch");
    if (!$("moment").hidden && $("moment").classList.contains("my-death")) return "";  // the moment says it
    if (T.view.prompt && !isBallotStep(step.id)) return "";  // a dead Hunter or Captain still has a last thing to do
    const waiting = notVotedYet();
    if (waiting) return waiting;
    if (T.view.prompt) return "";
    if (!T.view.me.alive) return t("dead_watch");
    if (isNightStep(step.id)) return t("sleeping");
    if (!(T.rules.step[step.id] || {}).acts) return "";  // nobody acts (dawn, the count): the narration says it all
    if (WW.has(step.id + ".others")) return t(step.id + ".others", { name: step.actor ? name(step.actor) : "" });  // a defense, a speech
    if (T.view.requests && T.view.requests.length) return WW.tn("requests", T.view.requests.length);  // the debate's
    return t("waiting_others");
  }

  /** Public votes: who has not voted yet, by name. */
  function notVotedYet() {
    if (!T.view.step || !isBallotStep(T.view.step.id) || T.secretRound()) return "";
    const votes = T.view.votes || {};
    // the tied do not vote in a run-off (its `tied_sit_out`)
    const tied = (T.rules.step[T.view.step.id] || {}).tied_sit_out ? T.view.step.tied || [] : [];
    const missing = T.view.players.filter((p) => p.alive && !p.left && p.voter !== false && !(String(p.seat) in votes)
      && !tied.includes(p.seat))
      .map((p) => p.seat);
    return missing.length ? t("not_voted", { names: names(missing) }) : "";
  }

  /** A step's prompt words besides its title (the catalog's `info_events` and `info`): the
   * latest of these events this night, then what my view says (the Witch's victim, her potions). */
  function promptInfo(stepId) {
    const declared = T.rules.step[stepId] || {};
    const night = T.view.step.night;
    const lines = [];
    for (const kind of declared.info_events || []) {
      const seen = T.view.events.filter((e) => e.kind === kind && e.night === night).pop();
      if (seen) lines.push(eventText(seen));
    }
    const mine = sayOver(T.view.me || {}, declared.info || []);
    if (mine) lines.push(mine);
    return WW.sentences(lines);
  }

  function button(label, cls, onclick, disabled) {
    return el("button", { type: "button", class: cls || "", onclick, disabled: !!disabled }, label);
  }

  /** A choice of seats: exactly `count` of them, or from `min` to `max` (a prompt's spec); one by default. */
  function choose(spec, keep) {
    const ranged = spec.count === undefined && spec.max !== undefined;
    selection = { action: spec.action, min: ranged ? spec.min || 0 : spec.count || 1,
                  max: ranged ? spec.max : spec.count || 1, choices: spec.choices || [],
                  nullable: !!spec.nullable, seats: [] };
    if (!keep) renderGame();
  }

  const selectionReady = () => !!selection && selection.seats.length >= selection.min
    && selection.seats.length <= selection.max;

  /** What to tap: one player, a number of them, or from min to max. */
  function tapWords(choice) {
    if (choice.max === 1 && choice.min === 1) return t("tap_player");
    if (choice.min === choice.max) return t("tap_players", { count: choice.max });
    return t("tap_players_range", { min: choice.min, max: choice.max });
  }

  function tapSeat(seat) {
    if (!selection || !selection.choices.includes(seat)) return;
    sent = null;   // a new choice, not sent yet
    const seats = selection.seats;
    const i = seats.indexOf(seat);
    if (i >= 0) seats.splice(i, 1);
    else if (selection.max === 1) selection.seats = [seat];
    else if (seats.length < selection.max) seats.push(seat);
    renderGame();
  }

  function confirmSelection() {
    if (!selectionReady()) return;
    // An action choosing seats takes them as a list, however many (docs/API.md); the others one seat.
    const many = kindOf(selection.action) === "seats";
    act(WW.actBody(T.rules, selection.action, many ? selection.seats.slice() : selection.seats[0]));
  }

  async function act(body) {
    body.step = T.view.prompt ? T.view.prompt.step : undefined;
    const phase = phaseOf(T.view.step);
    // Cleared before the act's answer is drawn: no tile left chosen, and the render that
    // follows opens a fresh choice if the prompt stays (a vote one may change).
    let shown = false;
    const result = await send("POST", `/api/tables/${tableId}/act`, body, $("prompt-error"),
      () => { selection = null; shown = true; });
    if (result && result.ok && body.step !== undefined) sent = { step: body.step, phase };
    if (result && result.ok && !shown) {  // no view came back: drawn afresh now, the poll follows
      selection = null;
    }
    if (result && result.ok) renderGame();
  }

  /** The night or day a step belongs to ("n1", "d2"). */
  const phaseOf = (step) => (!step ? "" : step.night !== undefined && step.night !== null ? "n" + step.night : "d" + step.day);

  /** « C’est envoyé » under the prompt once the server took my act: the choice went out. */
  function renderSent() {
    if (sent && (sent.phase !== phaseOf(T.view.step) || T.view.table.status !== "running")) sent = null;
    $("sent-line").hidden = !sent;
  }

  /** What a ballot weighs (the view's `weights`: the Captain's, in a round). */
  const weighs = (voter) => (T.view.weights || {})[voter] || 1;

  function voteCounts() {
    const counts = {};
    for (const [voter, target] of Object.entries(T.view.votes || {})) {
      if (target === null) continue;
      counts[target] = (counts[target] || 0) + weighs(voter);
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
    for (const [voter, target] of Object.entries(T.view.votes || {})) {
      if (target !== null) (votersFor[target] = votersFor[target] || []).push(Number(voter));
    }
    const designations = T.view.designations || {};
    const wolvesOn = {};
    for (const [wolf, target] of Object.entries(designations)) {
      if (target !== null) (wolvesOn[target] = wolvesOn[target] || []).push(Number(wolf));
    }
    const choosable = selection ? selection.choices : [];
    const many = T.view.players.length > 12;
    $("players").classList.toggle("many", many);
    const night = !!T.view.step && isNightStep(T.view.step.id);
    $("players").replaceChildren(...T.view.players.map((p) => {
      const chosen = selection && selection.seats.includes(p.seat);
      const classes = ["tile", p.alive ? "alive" : "dead"];
      if (selection) classes.push(choosable.includes(p.seat) ? "choosable" : "dim");
      if (chosen) classes.push("chosen");
      if (p.seat === mySeat()) classes.push("me");
      if (p.left) classes.push("left");
      // What only I know about a living player (fellow wolves, the Seer's looks) shows
      // while my card is turned over, so a neighbour glancing at the screen learns nothing.
      // A card turned face up for everyone (the view's `face_up`) shows like a dead player's.
      const revealed = !p.alive || p.face_up || T.view.table.status === "ended";
      const shownRole = p.role && (revealed || (T.cardShown && p.seat !== mySeat())) ? p.role : null;
      const voters = votersFor[p.seat] || [];
      const wolves = wolvesOn[p.seat] || [];
      const noVote = p.voter === false && p.alive && !night;   // may not vote today (the view's `voter`), said by day
      // States said in words to a screen reader (the page shows them as colour, a badge, a dot).
      const states = [p.alive ? null : t("dead"), p.captain ? t("captain") : null,
        (T.view.lovers || []).includes(p.seat) ? t("lover") : null,
        p.left ? null : (p.connected ? null : t("disconnected")),
        noVote ? t("no_vote") : null,
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
          // The end marks the couple (view.lovers, only once the game is over).
          (T.view.lovers || []).includes(p.seat) ? el("span", { class: "badge lover", title: t("lover") }, "💘") : null,
          p.left ? el("span", { class: "tag left-tag" }, t("left")) : null,
          noVote ? el("span", { class: "tag no-vote-tag", "aria-hidden": "true" }, t("no_vote")) : null,
          p.connected || p.left ? null : el("span", { class: "dot off", title: t("disconnected") }),
          counts[p.seat] ? el("span", { class: "votes" }, WW.tn("votes_n", counts[p.seat])) : null,
          voters.length ? el("span", { class: "chips", "aria-hidden": "true" },
            voters.map((v) => weighs(v) > 1 ? chip(v, short, "🎖️", "captain") : chip(v, short))) : null,
          wolves.length ? el("span", { class: "chips wolves", "aria-hidden": "true" }, wolves.map((v) => chip(v, short, "🐺"))) : null));
      return tile;
    }));
    paintAvatars($("players"));
  }

  function renderGameActions() {
    const running = T.view.table.status === "running";
    $("end-game-btn").hidden = !(running && isHost());
    $("quit-game-btn").hidden = !(running && T.view.me && !T.view.me.left);
  }

  $("end-game-btn").addEventListener("click", () => {
    if (confirm(t("confirm.end_game"))) send("POST", `/api/tables/${tableId}/end`, {}, $("prompt-error"));
  });
  $("quit-game-btn").addEventListener("click", async () => {
    if (!confirm(t("confirm.quit_game"))) return;
    const result = await send("POST", `/api/tables/${tableId}/leave`, {}, $("prompt-error"));
    if (result && result.ok) location.href = root.dataset.lobbyUrl;
  });

  // ------------------------------------------------------------------ my card

  $("cardface").addEventListener("click", () => { T.cardShown = !T.cardShown; renderGame(); });

  /** The testament (option testament, A6.4): the living Hunter's planned shot, the
   * living Captain's successor, set from the card at any moment, seen by him only. */
  function renderTestament(me) {
    const box = $("card-testament");
    const options = (T.view.table && T.view.table.settings && T.view.table.settings.options) || {};
    // The standing actions of the options on, open to my card or to the Captain (the catalog's
    // role, captain), each kept under its slot in my view's field of its option.
    const open = !(me.alive && T.view.status === "running") ? [] : T.rules.options.filter((o) => options[o.id])
      .flatMap((o) => o.actions.map((id) => ({ ...T.rules.action[id], option: o.id })))
      .filter((a) => a.slot && ((a.role && a.role === me.role) || (a.captain && me.captain)));
    box.hidden = !T.cardShown || !open.length;
    if (box.hidden) return;
    const others = T.view.players.filter((p) => p.alive && p.seat !== me.seat);
    const key = JSON.stringify([open.map((a) => a.id), others.map((p) => p.seat), open.map((a) => me[a.option] || {})]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren(...open.map((a) => {
      const current = (me[a.option] || {})[a.slot];
      const select = el("select", { "aria-label": t("testament." + a.slot) },
        el("option", { value: "" }, t("testament.none")),
        ...others.map((p) => el("option", { value: String(p.seat), selected: p.seat === current }, p.name)));
      select.addEventListener("change", () => send("POST", `/api/tables/${tableId}/act`,
        { action: a.id, target: select.value ? Number(select.value) : null }, $("prompt-error")));
      return el("label", {}, el("span", {}, "📜 " + t("testament.title") + " — " + t("testament." + a.slot)), select);
    }));
  }

  // The last event told on my card that I saw turned over (kept through a reload of the page).
  const seenKey = "werewolf.card_seen." + tableId;
  let cardNewsSeen = 0;
  try { cardNewsSeen = Number(sessionStorage.getItem(seenKey)) || 0; } catch (e) { /* no storage: from 0 */ }
  function renderCard() {
    const me = T.view.me || {};
    // What my card tells (the Seer's answer, Cupid's pair) is read on its face, turned over:
    // the card says when it has something new, never the secret itself (issue 35).
    const onCard = T.view.events.filter((e) => isOnCard(e.kind));
    const newest = onCard.length ? onCard[onCard.length - 1].seq : 0;
    if (newest < cardNewsSeen) cardNewsSeen = 0;   // a new game at this table
    if (T.cardShown && newest > cardNewsSeen) {
      cardNewsSeen = newest;
      try { sessionStorage.setItem(seenKey, String(newest)); } catch (e) { /* private mode: kept in memory */ }
    }
    const news = !T.cardShown && newest > cardNewsSeen;
    $("cardface").classList.toggle("news", news);
    $("card-news").hidden = !news;
    $("card-back").textContent = T.cardShown ? t("hide_card") : t("tap_card");
    $("card-front").hidden = !T.cardShown;
    $("cardface").setAttribute("aria-pressed", T.cardShown ? "true" : "false");
    if (T.cardShown && me.role) {
      $("card-emoji").textContent = roleEmoji(me.role);
      $("card-role").textContent = cardName(me.role, me.was);
      $("card-help").textContent = t("role_help." + me.role);
      $("card-rules").href = root.dataset.rulesUrl + "#role-" + me.role;
      const extra = [];
      if (me.lover) extra.push(t("ev.lover", { name: name(me.lover) }));
      // What the card's holder was told (the other Freemason, the charmed): the latest of each kind.
      const latest = new Map(T.view.events.filter((e) => isOnCard(e.kind)).map((e) => [e.kind, e]));
      for (const e of latest.values()) extra.push(eventText(e));
      if (me.captain) extra.push("🎖️ " + t("captain"));
      $("card-extra").textContent = WW.sentences(extra);
    }
    renderTestament(me);
    const composition = T.view.composition || {};
    $("composition").replaceChildren(...T.rules.roles.map((r) => r.id).filter((r) => composition[r]).map((r) =>
      el("li", {}, el("a", { href: root.dataset.rulesUrl + "#role-" + r, target: "_blank", rel: "noopener" },
        WW.emoji(roleEmoji(r)), ` ${roleName(r)}` + (composition[r] > 1 ? ` ×${composition[r]}` : "")))),
      ...(composition.middle ? [el("li", {}, t("middle", { count: composition.middle }))] : []));
    T.renderSummary($("game-settings"), T.settingsLines(T.view.table.settings, T.view.players.length, composition));
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

  return { announce, renderGame };
};

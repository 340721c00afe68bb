/* The table page, what the game tells: the moment, the recaps, the events list, the end.
   A part: table.js calls it once with the shared state T. */
"use strict";

WW.table.events = (T) => {
  const { t, el } = WW;
  const { $, tableId, send, mySeat, isHost, isRound } = T;
  const { name, roleEmoji, deathLine, eventText, eventParts, isMoment, momentTitle, fieldType, fieldsOfType, fieldAt,
          winnerTitle, winnerLine, timelineItems, voteHistory, ballotLines, initials, hue, paintAvatars } = T.story;

  // ------------------------------------------------------------------ moments

  // What the table learns when a step ends: it takes the top of the screen during the next
  // step, then goes to the recaps. Private ones (the Seer's answer, the lovers) only while
  // the card is turned over, or at night when every other eye is shut.
  // What only some seats are told (the catalog says which kinds everyone is told, as they happen
  // or at the end): kept off the screen while the card is face down.
  const isSecretKind = (kind) => !T.rules.publicEvent.has(kind) && !T.rules.endEvent.has(kind);
  // Elimination rounds: public ballots, the Captain's counting twice.
  const secretsVisible = () => T.cardShown || document.body.classList.contains(T.rules.nightPhase);

  /** Where the day's first screen starts: at the dawn's deaths, while every step since is a
   * day step before the vote (the Hunter's shot, the election, the debate): the night's dead
   * stay with their cards until the village votes (issue 35). -1 at night and from the vote on. */
  function dawnStart(events) {
    let i = events.length - 1;
    for (; i >= 0; i--) {
      const e = events[i];
      if (e.kind === "deaths" && e.moment === T.rules.nightPhase) break;
      if (e.kind === "step" && (e.day === undefined || e.day === null || isRound(e.step))) return -1;   // night, or the vote
    }
    return i;
  }

  /** The moment's events: those since the start of the step before the current one (by day
   * before the vote, since the dawn's deaths). */
  function momentEvents() {
    if (T.view.table.status === "lobby") return [];
    const events = T.view.events;
    let steps = 0;
    let from = 0;
    for (let i = events.length - 1; i >= 0; i--) {
      if (events[i].kind === "step" && ++steps === 2) { from = i + 1; break; }
    }
    if (T.view.table.status === "running") {
      const dawn = dawnStart(events);
      if (dawn >= 0) from = Math.min(from, dawn);
    }
    const secrets = T.view.table.status === "running" && secretsVisible();
    return events.slice(from).filter((e) => isMoment(e.kind) && (secrets || !isSecretKind(e.kind)));
  }

  function deathItem(d) {
    return el("li", { class: "death" + (d.seat === mySeat() ? " mine" : "") },
      el("span", { class: "avatar", dataset: { hue: hue(name(d.seat)) }, "aria-hidden": "true" }, initials(name(d.seat))),
      el("span", { class: "death-text" }, deathLine(d)),
      el("span", { class: "death-card emoji", "aria-hidden": "true" }, roleEmoji(d.role)));
  }

  function tallyText(tally) {
    const entries = Object.entries(tally || {}).sort((a, b) => b[1] - a[1]);
    return entries.map(([seat, n]) => t("count_of", { name: name(Number(seat)), votes: WW.tn("votes_n", n) })).join(" · ");
  }

  /** Headline and lines of one moment event, from its declaration: its words, then the
   * lines of its field of deaths (with their cards) or of ballots, and each tally. */
  function momentParts(e) {
    const parts = eventParts(e);
    if (!parts) return null;
    const lines = [];
    if (parts.from && fieldType(e, parts.from) === "deaths") lines.push(...fieldAt(e, parts.from).map(deathItem));
    else lines.push(...parts.lines.map((line) => el("li", { class: "count-line" }, line)));
    for (const field of fieldsOfType(e, "counts")) {
      if (Object.keys(e[field] || {}).length) lines.push(el("li", { class: "count-line" }, tallyText(e[field])));
    }
    return { head: momentTitle(e) || parts.head || null, lines };
  }

  /** Before the first night's first act, a first-timer is told to look at the card (issue 35),
   * until the card has been turned over once. */
  function lookAtCard() {
    if (T.cardShown) T.cardSeen = true;
    if (T.cardSeen || !T.view.me || T.view.table.status !== "running") return false;
    const steps = T.view.events.filter((e) => e.kind === "step").length;
    return steps <= 2 && !!T.view.step && T.view.step.night === 1;
  }

  let momentSignature = "";
  function renderMoment() {
    const events = momentEvents();
    const box = $("moment");
    const parts = events.map(momentParts).filter(Boolean);
    $("look-card").hidden = !(!parts.length && lookAtCard());
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
    // Who died of grief is told why, on their own screen only (me.died_of; dawn keeps the causes).
    if (dead && T.view.me && T.view.me.died_of === "grief") {
      lines.push(el("li", { class: "moment-head my-grief" }, t("moment.my_grief", { name: name(T.view.me.lover) })));
    }
    if (dead) lines.push(el("li", { class: "moment-head" }, t("moment.my_death_more")));
    $("moment-lines").replaceChildren(...lines);
    paintAvatars(box);
    T.announce([$("moment-title").textContent, ...lines.map((n) => n.textContent)].join(" "));
  }

  // ------------------------------------------------------------------ votes and recaps



  /** Whether the current round's ballots are secret (option secret_ballot, A5.1). */
  function secretRound() {
    const options = (T.view.table && T.view.table.settings && T.view.table.settings.options) || {};
    return !!options.secret_ballot && !!T.view.step && isRound(T.view.step.id);
  }


  function voteBlock(vote) {
    return el("div", { class: "recap-vote" },
      el("h3", {}, T.story.voteTitle(vote)),
      vote.result ? el("p", { class: "recap-result" }, eventText(vote.result)) : el("p", { class: "muted" }, t("recap.in_progress")),
      el("ul", { class: "ballots" }, ballotLines(vote).map((line) => el("li", {}, line))));
  }

  function lastNightBlock() {
    const events = T.view.events;
    let i = events.length - 1;
    while (i >= 0 && !(events[i].kind === "deaths" && events[i].moment === T.rules.nightPhase)) i--;
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

  let recapOpen = null;  // "lastnight" | "ballot" | "days" | null
  for (const which of ["lastnight", "ballot", "days"]) {
    $("recap-" + which).addEventListener("click", () => {
      recapOpen = recapOpen === which ? null : which;
      renderRecap();
    });
  }

  function renderRecap() {
    const votes = voteHistory().filter((v) => v.result);
    const hasNight = T.view.events.some((e) => e.kind === "deaths" && e.moment === T.rules.nightPhase);
    $("recaps").hidden = !(hasNight || votes.length) || T.view.table.status === "lobby";
    $("recap-lastnight").hidden = !hasNight;
    $("recap-ballot").hidden = !votes.some((v) => isRound(v.step));
    $("recap-days").hidden = !votes.length;
    for (const which of ["lastnight", "ballot", "days"]) {
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
    if (recapOpen === "lastnight") body = lastNightBlock();
    else if (recapOpen === "ballot") body = [voteBlock(votes.filter((v) => isRound(v.step)).pop())];
    else body = votes.slice().reverse().map(voteBlock);
    $("recap-body").replaceChildren(...body);
    paintAvatars(panel);
  }

  // ------------------------------------------------------------------ announcements



  // What my role learned (the Seer's looks, the wolves' choice, the Witch's potions, the
  // lovers) stays off the daytime screen unless my card is turned over: a neighbour glancing
  // at my phone by day must not read "Votre victime : Alice". At night everyone's eyes are shut.
  let eventsShown = "";
  function renderEvents() {
    const secrets = secretsVisible();
    const signature = T.view.events.length + ":" + secrets;
    if (signature === eventsShown) return;
    eventsShown = signature;
    const items = [];
    for (const e of T.view.events) {
      if (!secrets && isSecretKind(e.kind)) continue;
      const text = eventText(e);
      if (text) items.push(el("li", { class: "event " + e.kind }, text));
    }
    $("events").replaceChildren(...items.reverse());  // newest first
  }




  function renderEnd() {
    const end = $("end");
    const ended = T.view.table.status === "ended" && !!T.view.winner;
    $("events-card").hidden = ended;
    $("end-more").hidden = !ended;
    if (!ended) {
      end.hidden = true;
      return;
    }
    end.hidden = false;
    $("winner-title").textContent = winnerTitle();
    $("winner-seats").textContent = winnerLine();
    // The whole story: the couple, and the cards nobody held (issue 35).
    const lovers = T.view.lovers || [];
    $("end-lovers").hidden = !lovers.length;
    $("end-lovers").textContent = lovers.length ? t("end.lovers", { names: T.story.names(lovers) }) : "";
    const middle = T.view.middle || [];
    $("end-middle").hidden = !middle.length;
    $("end-middle").textContent = middle.length
      ? t("end.middle", { roles: WW.list(middle.map((r) => roleEmoji(r) + " " + T.story.roleName(r))) }) : "";
    $("new-game-btn").hidden = !isHost();
    $("timeline").replaceChildren(...timelineItems());
  }

  $("new-game-btn").addEventListener("click", () => {
    T.leaveEnd = true;   // the host goes to the waiting room; the others when they choose
    send("POST", `/api/tables/${tableId}/reopen`, {}, $("prompt-error"));
  });

  /** A new game: nothing of the last one shown, every recap closed. */
  function freshEvents() {
    eventsShown = "";
    momentSignature = "";
    recapOpen = null;
  }

  return { freshEvents, renderEnd, renderEvents, renderMoment, renderRecap, secretRound };
};

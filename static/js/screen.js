/* The room's big screen: streams the table's public view (GET /api/tables/<id>/screen/events?key=;
   without a stream it polls GET /api/tables/<id>/screen?key=) and shows it large: the step and
   its countdown, the narration, the players living and dead, the live votes with names, each
   moment big, and the end with every card. Optional spoken narration (speechSynthesis), off
   until the button is pressed: browsers need a gesture. */
"use strict";

(() => {
  const { t, tn, el } = WW;
  const root = document.getElementById("screen");
  const $ = (id) => document.getElementById(id);
  const STATE_URL = `/api/tables/${root.dataset.tableId}/screen?key=${encodeURIComponent(root.dataset.key)}`;
  const STREAM_URL = STATE_URL.replace("/screen?", "/screen/events?");
  let RULES = { role: {}, step: {}, publicEvent: new Set() };  // the engine's catalog (GET /api/catalog)
  // A step with ballots (the election and every elimination round), from the catalog; in the
  // rounds a living Captain counts twice.
  const isBallotStep = (id) => !!RULES.step[id] && !!RULES.step[id].ballots;
  const isRound = (id) => !!RULES.step[id] && !!RULES.step[id].eliminates;
  const { POLL_MS } = WW;
  const MOMENT_MS = 7000;

  let view = null;
  let etag = null;
  let deadline = null;      // Date.now() value when the step's time runs out
  let lastSeq = null;       // events up to this one were already shown
  let lastNarration = "";
  const moments = [];       // texts waiting to be shown big
  let momentTimer = null;

  // The words of the game: the one renderer of the phones and the end (story.js).
  const story = WW.story({ view: () => view, rules: () => RULES, mySeat: () => null });
  const { name, cardName, winnerTitle, winnerLine } = story;

  // ------------------------------------------------------------------ the views

  // Each view as it happens on a stream (WW.stream). Refused or ended (a renewed key, a busy
  // server), the screen polls; a poll answered brings the stream back STREAM_RETRY_MS later.
  const STREAM_RETRY_MS = 30000;
  let refusedAt = -Infinity;

  function adopt(newView, newEtag) {
    if (newEtag && newEtag === etag) return;  // streamed again after a reconnection
    etag = newEtag;
    view = newView;
    deadline = view.step ? Date.now() + view.step.seconds_left * 1000 : null;
    render();
  }

  async function poll() {
    let answered = false;
    try {
      const headers = { "Accept": "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      const response = await fetch(STATE_URL, { headers, cache: "no-store", credentials: "omit" });
      $("offline").hidden = true;
      answered = response.ok || response.status === 304;
      if (response.ok && response.status !== 304) adopt(await response.json(), response.headers.get("ETag"));
    } catch (e) {
      $("offline").hidden = false;
    }
    if (answered && window.EventSource && Date.now() - refusedAt > STREAM_RETRY_MS) {
      WW.stream(STREAM_URL, {
        onView: adopt,
        onClosed: () => { refusedAt = Date.now(); poll(); },
        onTrouble: (slow) => { $("offline").hidden = !slow; },
      });
    } else {
      setTimeout(poll, POLL_MS);
    }
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    const status = view.table.status;
    const night = !!(view.step && view.step.night !== undefined);  // a night step carries its night
    if (RULES.nightPhase) document.body.classList.toggle(RULES.nightPhase, night);
    document.body.classList.toggle("day", !night);
    $("waiting").hidden = status !== "lobby";
    if (status === "lobby") {
      const qr = $("qr");
      if (!qr.getAttribute("src")) qr.src = root.dataset.qr;
      $("url").textContent = view.table.url;
    }
    $("phase").textContent = !view.step ? "" : view.step.night !== undefined
      ? "🌙 " + t("night_n", { n: view.step.night }) : "☀️ " + t("day", { n: view.step.day });
    narrate(narration());
    tick();
    renderTiles();
    renderRecall();
    renderEnd();
    collectMoments();
  }

  function narration() {
    if (view.table.status === "lobby") return t("lobby.waiting", { count: view.players.length });
    if (view.winner) return winnerTitle(view.winner);
    if (!view.step) return "";
    return story.stepText(view.step);
  }

  function narrate(text) {
    $("narration").textContent = text;
    if (text && text !== lastNarration) speak(text);
    lastNarration = text;
  }

  function tick() {
    const clock = $("clock");
    if (!view || !view.step || deadline === null) {
      clock.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    clock.hidden = false;
    $("seconds").textContent = left < 100 ? String(left) : Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    clock.classList.toggle("urgent", left <= 10);
  }
  setInterval(tick, 250);

  function renderTiles() {
    const voting = view.step && isBallotStep(view.step.id);
    const voters = {};
    const counts = {};
    for (const [voter, target] of Object.entries(view.votes || {})) {
      if (target === null) continue;
      const weight = (view.weights || {})[voter] || 1;   // the Captain's, in a round
      counts[target] = (counts[target] || 0) + weight;
      (voters[target] = voters[target] || []).push(name(Number(voter)) + (weight > 1 ? " ×" + weight : ""));
    }
    const most = Math.max(0, ...Object.values(counts));
    $("tiles").replaceChildren(...view.players.map((p) => {
      const classes = ["tile", p.alive ? "alive" : "dead"];
      if (voting && most && counts[p.seat] === most) classes.push("leading");
      return el("li", { class: classes.join(" ") },
        el("span", { class: "who" }, (p.captain ? "🎖️ " : "") + p.name),
        el("span", { class: "seat" }, "#" + p.seat + (p.alive ? "" : " · " + t("dead"))),
        p.role ? el("span", { class: "role" }, WW.emoji(story.roleEmoji(p.role)), " " + cardName(p.role, p.was)) : null,
        voting && counts[p.seat] ? el("span", { class: "count" }, tn("votes_n", counts[p.seat])) : null,
        voting && voters[p.seat] ? el("span", { class: "voters" }, WW.list(voters[p.seat])) : null);
    }));
    const cast = Object.keys(view.votes || {}).length;
    const living = view.players.filter((p) => p.alive).length;
    // A secret ballot (A5.1): nobody is told how many have voted.
    const secret = !!(view.table && view.table.settings && (view.table.settings.options || {}).secret_ballot);
    $("ballot-count").textContent = voting && !(secret && isRound(view.step.id)) ? t("screen.voted", { count: cast, total: living }) : "";
  }

  /** By day: last night's dead with their cards, and the last elimination round's result
   * and ballots, for the room to debate with (issue 35). */
  function renderRecall() {
    const day = view.table.status === "running" && !!view.step && view.step.day !== undefined && view.step.day !== null;
    const dawn = day ? story.lastDawn() : null;
    const rounds = day ? story.voteHistory().filter((v) => v.result && isRound(v.step)) : [];
    const round = rounds[rounds.length - 1] || null;
    $("recall").hidden = !dawn && !round;
    $("recall-lastnight").hidden = !dawn;
    if (dawn) {
      $("recall-lastnight-lines").replaceChildren(...(dawn.deaths.length ? dawn.deaths.map((d) =>
        el("li", { class: "recall-death" }, WW.emoji(story.roleEmoji(d.role)),
          " " + story.deathLine(d))) : [el("li", {}, story.eventText(dawn) || "")]));
    }
    $("recall-ballot").hidden = !round;
    if (round) {
      $("recall-ballot-title").textContent = story.voteTitle(round);
      $("recall-ballot-result").textContent = story.eventText(round.result) || "";
      $("recall-ballot-lines").replaceChildren(...story.ballotLines(round).map((line) => el("li", {}, line)));
    }
  }

  function renderEnd() {
    const ended = view.table.status === "ended" && view.winner;
    $("end").hidden = !ended;
    if (!ended) return;
    $("why").textContent = winnerLine();
  }

  // ------------------------------------------------------------------ moments

  // Every public event kind with words (RULES-VARIANTS A9: what a spectator may see) is told
  // big, in the phones' words (story.js), a line each (a death, a target's ballots); the end
  // has its own part of the screen. The others never reach the room (its view is the public one).
  const SHOWN_ELSEWHERE = new Set(["game_end"]);
  const momentText = (e) => (RULES.publicEvent.has(e.kind) && !SHOWN_ELSEWHERE.has(e.kind)
    ? (story.eventLines(e) || []).join("\n") : "");

  function collectMoments() {
    const events = view.events || [];
    const newest = events.length ? events[events.length - 1].seq : 0;
    if (lastSeq === null || newest < lastSeq) {  // first view, or a new game: nothing to replay
      lastSeq = newest;
      return;
    }
    for (const e of events) {
      if (e.seq <= lastSeq) continue;
      const text = momentText(e);
      if (text) moments.push(text);
    }
    lastSeq = newest;
    if (!momentTimer) nextMoment();
  }

  function nextMoment() {
    const box = $("moment");
    const text = moments.shift();
    if (text === undefined) {
      box.hidden = true;
      momentTimer = null;
      return;
    }
    $("moment-text").textContent = text;
    box.hidden = false;
    chime();
    speak(text);
    momentTimer = setTimeout(nextMoment, moments.length ? MOMENT_MS / 2 : MOMENT_MS);  // a queue goes faster
  }
  $("moment").addEventListener("click", () => { clearTimeout(momentTimer); nextMoment(); });

  // ------------------------------------------------------------------ spoken narration

  const synth = window.speechSynthesis;
  let speaking = false;
  const LANGS = { fr: ["fr-FR", "fr"], en: ["en-GB", "en-US", "en"], zh: ["zh-TW", "zh-HK", "cmn", "zh"] };

  function voice() {
    const lang = (document.documentElement.lang || "fr").slice(0, 2);
    const voices = synth.getVoices();
    for (const wanted of LANGS[lang] || [lang]) {
      const found = voices.find((v) => v.lang.replace("_", "-").toLowerCase().startsWith(wanted.toLowerCase()));
      if (found) return found;
    }
    return null;
  }

  function speak(text) {
    if (!speaking || !synth) return;
    const utterance = new SpeechSynthesisUtterance(text);
    const chosen = voice();
    if (chosen) {
      utterance.voice = chosen;
      utterance.lang = chosen.lang;
    } else {
      utterance.lang = document.documentElement.lang || "fr";
    }
    synth.speak(utterance);
  }

  // A soft bell before each moment, for a room (three sine notes fading out): with the
  // narration only, which a press turns on (browsers start sound only after a gesture).
  let audio = null;
  function chime() {
    if (!speaking || !window.AudioContext) return;
    try {
      audio = audio || new AudioContext();
      const start = audio.currentTime;
      [523.25, 659.25, 783.99].forEach((frequency, i) => {
        const at = start + i * 0.14;
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 1.1);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + 1.2);
      });
    } catch (e) { /* no sound on this screen */ }
  }

  const speakButton = $("speak");
  if (!synth) speakButton.hidden = true;
  speakButton.addEventListener("click", () => {
    speaking = !speaking;
    speakButton.setAttribute("aria-pressed", speaking ? "true" : "false");
    if (!speaking) synth.cancel();
    else {
      chime();   // within the press: the browser lets the sound start
      if (lastNarration) speak(lastNarration);
    }
  });

  WW.catalog().then((rules) => { RULES = rules; }).catch(() => {}).finally(poll);
})();

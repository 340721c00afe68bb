/* How a game is told in words, shared by the table page and a past game's page (games.js):
   names and cards, each event as a sentence, the end's timeline with every public ballot,
   the winners. Everything reads the view the page shows now (``source.view()``), with the
   catalog (``source.rules()``) and the reader's seat (``source.mySeat()``: null for none). */
"use strict";

WW.story = (source) => {
  const { t, el } = WW;
  const V = () => source.view();
  const R = () => source.rules();
  // Steps whose ballots the view lists (the election and every elimination round).
  const isBallotStep = (id) => !!R().step[id] && !!R().step[id].ballots;

  const name = (seat) => {
    const p = V() && V().players.find((q) => q.seat === seat);
    return p ? p.name : "?";
  };

  const names = (seats) => WW.list(seats.map(name));

  const roleName = (role) => t("role." + role);

  // A card with what it was before (a bitten Cursed: "Loup-Garou (Maudit mordu)").
  const cardName = (role, was) => (was ? t("role_was." + was) : roleName(role));

  const roleEmoji = (role) => (R().role[role] || {}).emoji || "";

  // The role inside a sentence, with its article where the language wants one.
  const roleInSentence = (role) => (t("role_a." + role) !== "role_a." + role ? t("role_a." + role) : roleName(role));

  function deathLine(d) {
    return t(d.cause === "grief" ? "ev.death_grief" : "ev.death", { name: name(d.seat), role: roleInSentence(d.role) });
  }

  // ---------------------------------------------------------------- the one renderer
  // Every event kind is declared in the engine (registry.Event: its fields' types, its
  // Says; GET /api/catalog `event_shapes`) and reads by that declaration: the first Say
  // whose conditions hold, its placeholders filled by each field's type. The phone, the end's
  // timeline, a past game and the room's screen all tell events here; nothing here knows a
  // kind, a card or a step.

  /** The declared shape of a kind, or undefined (a kind this catalog does not know). */
  const shapeOf = (kind) => (R().event_shapes || {})[kind];

  /** A field of an event by its path ("targets.0": an item of a list). */
  const fieldAt = (e, path) => path.split(".").reduce((v, k) => (v === null || v === undefined ? v : v[k]), e);

  const isSet = (v) => !(v === null || v === undefined || v === false || (Array.isArray(v) && !v.length));

  function holds(e, when) {
    return Object.entries(when).every(([path, wanted]) => {
      const value = fieldAt(e, path);
      if (wanted === null) return value === null || value === undefined;
      if (wanted === true || wanted === false) return isSet(value) === wanted;
      if (wanted === "@me") return value === source.mySeat();
      return value === wanted;
    });
  }

  /** The type a path's value has: its field's, an item's for an index into a list. */
  function typeAt(shape, path) {
    const [head, ...rest] = path.split(".");
    const type = ((shape && shape.fields) || {})[head] || "text";
    return rest.length && typeof type === "string" ? type.replace(/s\??$/, "") : type;
  }

  /** The seat holding a card (the end shows every card). */
  const holderOf = (role) => (V().players.find((q) => q.role === role) || {}).seat;

  /** A value in words, by its type (registry.FIELD_TYPES). */
  function written(value, type) {
    switch (String(type).replace("?", "")) {
      case "seat": return value === null || value === undefined ? t("nobody") : name(value);
      case "seats": return names(value || []);
      case "role": return roleName(value);
      case "role_a": return roleInSentence(value);
      case "roles": return WW.list((value || []).map(roleName));
      case "camp": return t("camp." + value);
      case "winner": return winnerTitle(value);
      case "available": return t(value ? "potion.yes" : "potion.no");   // a potion still to use, or used
      default: return value === null || value === undefined ? "" : String(value);
    }
  }

  /** A field shown as lines, by its type: a death each, a target's ballots each. */
  function linesOf(e, path, type) {
    const value = fieldAt(e, path);
    if (type === "deaths") return (value || []).map(deathLine);
    if (type === "ballots") return ballotsEventLines(e);
    return [written(value, type)];
  }

  /** The Say that tells an event (or, `each`, every one that holds): {head, lines}, or null. */
  function told(e, says, each) {
    const shape = shapeOf(e.kind);
    const chosen = each ? (says || []).filter((s) => holds(e, s.when)) : [(says || []).find((s) => holds(e, s.when))];
    const heads = [];
    let lines = [];
    let from = null;   // the field the lines are of
    for (const say of chosen.filter(Boolean)) {
      const params = {};
      for (const [slot, arg] of Object.entries(say.args)) {
        if (arg && arg.says) params[slot] = (told(e, arg.says) || {}).head || "";   // said only sometimes
        else if (Array.isArray(arg) && arg[1] === "holder") params[slot] = name(holderOf(arg[0]));
        else {
          const [path, type] = Array.isArray(arg) ? arg : [arg, typeAt(shape, arg)];
          params[slot] = written(fieldAt(e, path), type);
        }
      }
      if (say.key) heads.push(t(say.key, params));
      else if (!say.lines) heads.push(Object.values(params).join(" "));
      if (say.lines) {
        from = say.lines;
        lines = lines.concat(linesOf(e, say.lines, typeAt(shape, say.lines)));
      }
    }
    if (!heads.length && !lines.length) return null;
    return { head: WW.sentences(heads), lines, from };
  }

  /** Says told over any object (the prompt's words over my view's `me`), or null. */
  const sayOver = (data, says) => sentence(told(data, says));

  /** Words and lines as one sentence: "Dépouillement — Contre A : B · Contre C : D". */
  const sentence = (parts) => (!parts ? null : parts.head && parts.lines.length
    ? parts.head + " — " + parts.lines.join(" · ") : parts.head || parts.lines.join(" ") || null);

  /** Whether a kind takes the top of the screen when it happens (its declaration says). */
  const isMoment = (kind) => !!(shapeOf(kind) || {}).moment;

  /** A moment's own title, when its declaration gives one that holds ("Cette nuit"), or null. */
  function momentTitle(e) {
    const moment = (shapeOf(e.kind) || {}).moment;
    return Array.isArray(moment) ? (told(e, moment) || {}).head || null : null;
  }

  /** The type of an event's field (its declaration). */
  const fieldType = (e, path) => typeAt(shapeOf(e.kind), path);

  /** The fields of an event whose declared type is this one. */
  const fieldsOfType = (e, type) => Object.entries((shapeOf(e.kind) || {}).fields || {})
    .filter(([, declared]) => String(declared).replace("?", "") === type).map(([field]) => field);

  /** Whether a kind is also told on its reader's card (turned over). */
  const isOnCard = (kind) => !!(shapeOf(kind) || {}).on_card;

  /** An event as it is told to whom it is for: {head, lines} (a moment's title and lines), or null. */
  const eventParts = (e) => {
    const shape = shapeOf(e.kind);
    return shape ? told(e, shape.says, shape.each) : null;
  };

  /** One event in words, or null for those shown elsewhere (steps, single votes). */
  const eventText = (e) => sentence(eventParts(e));

  /** One event as lines (a death each, the count's ballots each), for a screen that shows
   * them one under the other; null for those shown elsewhere. */
  function eventLines(e) {
    const parts = eventParts(e);
    if (!parts) return null;
    return [...(parts.head ? [parts.head] : []), ...parts.lines];
  }

  /** The game master's words for a step ("Second tour entre Alice et Bruno"). */
  const stepText = (step) => t("step." + step.id,
    { name: step.actor ? name(step.actor) : "", names: step.tied ? names(step.tied) : "" });

  /** An event of the end-of-game timeline, told in the third person (its declared timeline,
   * or as it is told). */
  function timelineText(e) {
    const shape = shapeOf(e.kind);
    if (!shape) return null;
    return sentence(told(e, shape.timeline === null ? shape.says : shape.timeline, shape.each));
  }

  function winnerTitle(winner) {
    const w = winner || V().winner;
    if (!w) return "";
    return w.reason ? t("winner." + w.reason) : t("winner." + w.camp);
  }

  /** Every public vote of the game, from the public events: who voted for whom, each result. */
  function voteHistory() {
    const alive = new Set(V().players.map((p) => p.seat));
    const votes = [];
    let open = null;
    for (const e of V().events) {
      if (e.kind === "step" && isBallotStep(e.step)) {
        open = { step: e.step, day: e.day, ballots: {}, living: [...alive], result: null };
        votes.push(open);
      } else if (e.kind === "vote_cast" && open) {
        // a null ballot: an abstention in a round, a withdrawn choice elsewhere (the election)
        if (e.target === null && !(R().step[e.step] || {}).eliminates) delete open.ballots[e.seat];
        else open.ballots[e.seat] = e.target;
      } else if (e.kind === "ballots" && open) {
        open.ballots = Object.assign({}, e.ballots);   // a secret round, published at the count
      } else if ((e.kind === "vote_result" || e.kind === "election_result") && open) {
        open.result = e;
        open = null;
      } else if (e.kind === "deaths") {
        for (const d of e.deaths) alive.delete(d.seat);
      }
    }
    return votes;
  }

  /** A vote's title: "Vote du jour 2", or its step's own ("Second tour du jour 2"). */
  const voteTitle = (vote) => t(WW.has("recap." + vote.step) ? "recap." + vote.step : "recap.vote_of", { n: vote.day });

  /** The last night's deaths event (the one right after a night step), or null. */
  function lastDawn() {
    let dawn = null;
    let inNight = false;
    for (const e of V().events) {
      if (e.kind === "step") inNight = e.night !== undefined && e.night !== null;
      else if (e.kind === "deaths" && inNight) dawn = e;
    }
    return dawn;
  }

  /** The ballots published at a secret round's count (A5.1): every voter, null included. */
  function ballotsEventLines(e) {
    const lines = ballotLines({ ballots: e.ballots, living: [] });
    if (e.captain !== null && e.captain !== undefined && String(e.captain) in e.ballots && e.ballots[e.captain] !== null) {
      lines.push(t("ev.ballots_captain", { name: name(e.captain) }));
    }
    return lines;
  }

  /** Who voted for whom: one line per target, then abstentions and silent voters. */
  function ballotLines(vote) {
    const by = {};
    const abstained = [];
    for (const [voter, target] of Object.entries(vote.ballots)) {
      if (target === null) abstained.push(Number(voter));
      else (by[target] = by[target] || []).push(Number(voter));
    }
    const lines = Object.entries(by).sort((a, b) => b[1].length - a[1].length).map(([target, voters]) =>
      // A round that eliminates nobody (the Captain's election) counts ballots "for", not "against" (issue 35).
      t(R().step[vote.step] && !R().step[vote.step].eliminates ? "ballots.for_captain" : "ballots.for", { name: name(Number(target)), voters: names(voters) }));
    if (abstained.length) lines.push(t("ballots.abstained", { names: names(abstained) }));
    const silent = vote.living.filter((s) => !(String(s) in vote.ballots));
    if (silent.length) lines.push(t("ballots.silent", { names: names(silent) }));
    return lines;
  }

  /** Up to two initials, from letters and digits only ("<b>x</b>" gives "BX", not "<"). */
  function initials(text) {
    const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    return words.slice(0, 2).map((w) => Array.from(w)[0]).join("").toUpperCase() || "?";
  }

  function hue(text) {
    let h = 0;
    for (const ch of text) h = (h * 31 + ch.codePointAt(0)) % 360;
    return String(h);
  }

  function paintAvatars(scope) {
    for (const node of scope.querySelectorAll(".avatar[data-hue]")) {
      node.style.setProperty("--hue", node.dataset.hue);
    }
  }

  /** The end's timeline, night by night and day by day: every event told in the third person,
   * each vote's ballots under its result (elements for an <ol>). */
  function timelineItems() {
    const votes = voteHistory();
    const items = [];
    let phase = "";
    for (const e of V().events) {
      if (e.kind === "step") {
        const heading = e.night !== undefined && e.night !== null ? t("night_n", { n: e.night }) : t("day", { n: e.day });
        if (heading !== phase && (R().step[e.step] || {}).heading !== false) {   // dawn: the night's news
          phase = heading;
          items.push(el("li", { class: "phase-head" }, heading));
        }
        continue;
      }
      const text = timelineText(e);
      if (text) items.push(el("li", { class: "event " + e.kind }, text));
      const vote = (e.kind === "vote_result" || e.kind === "election_result") && votes.find((v) => v.result === e);
      if (vote) items.push(...ballotLines(vote).map((line) => el("li", { class: "ballot" }, line)));
    }
    return items;
  }

  /** Why the winners won, then who they are (one line). */
  function winnerLine() {
    const w = V().winner;
    const why = w.reason ? "" : t("why." + w.camp);
    const who = w.seats.length ? t("winners", { names: names(w.seats) }) : "";
    return WW.sentences([why, who]);
  }

  return { name, names, roleName, cardName, roleEmoji, roleInSentence, deathLine, eventText, eventParts, eventLines,
           sayOver, stepText, timelineText, isMoment, momentTitle, fieldType, fieldsOfType, fieldAt, isOnCard,
           winnerTitle, winnerLine, timelineItems, voteHistory, voteTitle, lastDawn, ballotsEventLines, ballotLines,
           initials, hue, paintAvatars };
};

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
  // An event kind the catalog declares (engine registry.Event: its fields' types, its Says)
  // reads by its declaration: the first Say whose conditions hold, its placeholders filled
  // by each field's type. Nothing here knows a kind, a card or a step.

  /** The declared shape of a kind (GET /api/catalog `event_shapes`), or undefined. */
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
      case "holder": return name(holderOf(value));
      default: return value === null || value === undefined ? "" : String(value);
    }
  }

  /** An event told by one list of Says (its `says` or its `timeline`), or null. */
  function said(e, says) {
    const chosen = (says || []).find((s) => holds(e, s.when));
    if (!chosen) return null;
    const shape = shapeOf(e.kind);
    const params = {};
    for (const [slot, arg] of Object.entries(chosen.args)) {
      const [path, type] = Array.isArray(arg) ? arg : [arg, typeAt(shape, arg)];
      params[slot] = written(fieldAt(e, path), type);
    }
    return t(chosen.key, params);
  }

  /** Whether a kind takes the top of the screen when it happens (its declaration says). */
  const isMoment = (kind) => !!(shapeOf(kind) || {}).moment;

  /** One event in words, or null for those shown elsewhere (steps, single votes). */
  function eventText(e) {
    const shape = shapeOf(e.kind);
    if (shape) return said(e, shape.says);
    switch (e.kind) {
      case "game_start": return t("ev.game_start");
      case "deaths": return e.deaths.length ? e.deaths.map(deathLine).join(" ") : (e.moment === "night" ? t("ev.deaths_none") : null);
      case "seer_look": return e.camp ? t("ev.seer_camp", { name: name(e.target), camp: t("camp." + e.camp) })
        : t("ev.seer_look", { name: name(e.target), role: roleInSentence(e.role) });
      case "lover": return t("ev.lover", { name: name(e.partner) });
      case "cupid_pair": return t("ev.cupid_pair", { a: name(e.targets[0]), b: name(e.targets[1]) });
      case "designation": return e.target === null ? t("ev.designation_none", { name: name(e.seat) })
        : t("ev.designation", { name: name(e.seat), target: name(e.target) });
      case "wolves_victim": return e.target === null ? t("ev.wolves_no_victim") : t("ev.wolves_victim", { name: name(e.target) });
      case "witch_victim": return e.target === null ? t("witch.no_victim") : t("witch.victim", { name: name(e.target) });
      case "witch_save": return t("ev.witch_save", { name: name(e.target) });
      case "witch_poison": return t("ev.witch_poison", { name: name(e.target) });
      case "hunter_shot": return e.target === null ? t("ev.hunter_silent", { hunter: name(e.hunter) })
        : t(e.testament ? "ev.hunter_testament" : "ev.hunter_shot", { hunter: name(e.hunter), name: name(e.target) });
      case "succession": return e.captain === null ? t("ev.succession_none")
        : t(e.testament ? "ev.succession_testament" : "ev.succession", { previous: name(e.previous), name: name(e.captain) });
      case "election_result": return e.captain === null ? t("ev.election_none") : t("ev.election_result", { name: name(e.captain) });
      case "vote_result":
        if (e.candidates) return t("ev.stake_candidates", { names: names(e.candidates) });
        if (e.eliminated !== null) return t("ev.vote_result", { name: name(e.eliminated) });
        return e.tied.length ? t("ev.vote_tie", { names: names(e.tied) }) : t("ev.vote_none");
      case "tiebreak": return e.target === null ? t("ev.tiebreak_none") : t("ev.tiebreak", { name: name(e.target) });
      case "ballots": return t("ev.ballots") + " — " + ballotsEventLines(e).join(" · ");
      case "vote_request": return t("ev.vote_request", { name: name(e.seat) });
      case "player_left": return t("ev.player_left", { name: name(e.seat) });
      case "night_summary": return t("ev.night_summary", {
        night: e.night, victim: e.victim === null ? t("nobody") : name(e.victim),
        saved: e.saved ? t("ev.saved") : "",
        poisoned: e.poisoned === null ? "" : t("ev.poisoned", { name: name(e.poisoned) }) });
      case "cupid_silent": return t("ev.cupid_silent");
      case "thief_cards": return t("ev.thief_cards", { a: roleName(e.cards[0]), b: roleName(e.cards[1]) });
      case "thief_swap": return e.card === null ? t("ev.thief_keep") : t("ev.thief_swap", { n: e.card, role: roleName(e.role) });
      case "wolves_joined": return t("ev.wolves_joined", { names: names(e.seats) });
      case "guard_protect": return e.target === null ? t("ev.guard_protect_none") : t("ev.guard_protect", { name: name(e.target) });
      case "cursed_bitten": return t("ev.cursed_bitten");
      case "stalemate": return t("ev.stalemate");
      case "little_girl_spy": return t(e.open ? "ev.little_girl_open" : "ev.little_girl_closed");
      case "little_girl_caught": return e.seat === source.mySeat() ? t("ev.little_girl_caught_me")
        : t("ev.little_girl_caught", { name: name(e.seat) });
      case "owl_designate": return e.target === null ? t("ev.owl_designate_none") : t("ev.owl_designate", { name: name(e.target) });
      case "owl_nominee": return t("ev.owl_nominee", { name: name(e.target) });
      case "freemason": return e.partner === null ? t("ev.freemason_alone") : t("ev.freemason", { name: name(e.partner) });
      case "game_end": return winnerTitle(e.winner);
      default: return null;
    }
  }

  /** An event of the end-of-game timeline, told in the third person. */
  function timelineText(e) {
    const shape = shapeOf(e.kind);
    if (shape) return said(e, shape.timeline === null ? shape.says : shape.timeline);
    switch (e.kind) {
      case "cupid_pair": return t("tl.cupid_pair", { a: name(e.targets[0]), b: name(e.targets[1]) });
      case "seer_look": return e.camp ? t("tl.seer_camp", { name: name(e.target), camp: t("camp." + e.camp) })
        : t("tl.seer_look", { name: name(e.target), role: roleName(e.role) });
      case "wolves_victim": return e.target === null ? t("tl.wolves_no_victim") : t("tl.wolves_victim", { name: name(e.target) });
      case "witch_save": return t("tl.witch_save", { name: name(e.target) });
      case "witch_poison": return t("tl.witch_poison", { name: name(e.target) });
      case "cursed_bitten": return t("tl.cursed_bitten", { name: name(e.audience) });
      case "little_girl_spy": return t(e.open ? "tl.little_girl_open" : "tl.little_girl_closed", { name: name(littleGirl()) });
      case "little_girl_caught": return t("tl.little_girl_caught", { name: name(e.seat) });
      case "owl_designate": return e.target === null ? t("tl.owl_designate_none") : t("tl.owl_designate", { name: name(e.target) });
      case "freemason": return e.partner === null ? null : t("tl.freemason", { name: name(e.partner) });
      case "owl_nominee": return t("tl.owl_nominee", { name: name(e.target) });
      case "testament": return [e.hunter && t("tl.testament_hunter", { hunter: name(e.seat), name: name(e.hunter) }),
        e.succession && t("tl.testament_succession", { previous: name(e.seat), name: name(e.succession) })]
        .filter(Boolean).join(" ");
      case "lover": case "witch_victim": case "night_summary": case "night_deaths":
      case "vote_request": case "game_end": return null;
      default: return eventText(e);
    }
  }

  /** The seat of the Little Girl's card (the end shows every card). */
  function littleGirl() {
    const p = V().players.find((q) => q.role === "little_girl");
    return p ? p.seat : null;
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
        if (e.target === null && e.step === "election") delete open.ballots[e.seat];
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
      t("ballots.for", { name: name(Number(target)), voters: names(voters) }));
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
        const heading = e.night !== undefined && e.night !== null ? t("night", { n: e.night }) : t("day", { n: e.day });
        if (heading !== phase && e.step !== "dawn") {
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
    return [why, w.seats.length ? t("winners", { names: names(w.seats) }) : ""].join(" ");
  }

  return { name, names, roleName, cardName, roleEmoji, roleInSentence, deathLine, eventText, timelineText, isMoment,
           winnerTitle, winnerLine, timelineItems, voteHistory, ballotsEventLines, ballotLines, initials, hue,
           paintAvatars };
};

/* The table page, the waiting room: who is seated, the share code and link, join, leave, start.
   A part: table.js calls it once with the shared state T. */
"use strict";

WW.table.lobby = (T) => {
  const { t, el } = WW;
  const { $, root, tableId, send, mySeat, isHost, pollNow } = T;
  const { initials, hue, paintAvatars } = T.story;

  // ------------------------------------------------------------------ lobby

  if ($("join-btn")) $("join-btn").addEventListener("click", async () => {
    const result = await send("POST", `/api/tables/${tableId}/join`, {}, $("join-error"));
    if (result && result.ok) T.etag = null;
  });
  if ($("watch-btn")) $("watch-btn").addEventListener("click", pollNow);

  $("leave-btn").addEventListener("click", async () => {
    if (!confirm(t("confirm.leave"))) return;
    const result = await send("POST", `/api/tables/${tableId}/leave`, {}, $("settings-error"));
    if (result && result.ok) location.href = root.dataset.lobbyUrl;
  });

  $("start-btn").addEventListener("click", () =>
    send("POST", `/api/tables/${tableId}/start`, {}, $("start-error")));

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

  function renderLobby() {
    const table = T.view.table;
    $("lobby-name").textContent = table.name;
    $("lobby-count").textContent = t("lobby.waiting", { count: T.view.players.length });
    $("share-code").textContent = table.code;
    $("share-url").value = table.url;
    const qr = $("qr");
    if (!qr.getAttribute("src")) qr.src = root.dataset.qr;

    $("seats").replaceChildren(...T.view.players.map((p) => el("li", { class: "seat" },
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
    const seats = T.rules.players;  // the engine's limits, from the catalog
    // The card counter (table.deck, the start's own checks): cards chosen for the seats, and
    // why the start would be refused, under the button where the eye is (issue 35).
    const deck = table.deck;
    const counter = $("deck-counter");
    counter.hidden = !deck;
    if (deck) {
      counter.textContent = t("lobby.deck", { cards: deck.cards, seats: deck.seats });
      counter.classList.toggle("too-many", deck.error === "bad_composition");
    }
    const refused = deck && deck.error && T.view.players.length >= seats.min ? deck.error : null;
    start.disabled = T.view.players.length < seats.min || T.view.players.length > seats.max || !!refused;
    if (host && refused) WW.showError($("start-error"), t("err." + refused));
    else if (refused === null && $("start-error").dataset.deck) WW.hideError($("start-error"));
    $("start-error").dataset.deck = refused ? "1" : "";
    $("lobby-hint").textContent = T.view.players.length < seats.min ? t("lobby.need", { min: seats.min }) : host ? "" : t("lobby.waiting_host");

    T.buildSettingsForm();
    const settings = table.settings;
    $("settings").hidden = !host;
    if (host) T.renderSettingsForm(settings, T.view.players.length);
    T.renderSummary($("settings-summary"), T.settingsLines(settings, T.view.players.length, null), true);
  }

  return { renderLobby };
};

/* The lobby: waiting tables, create a table, join one by its code. */
"use strict";

(() => {
  const { t, api, el } = WW;
  const list = document.getElementById("tables");
  const error = document.getElementById("lobby-error");

  function renderTables(tables) {
    if (!tables.length) {
      list.replaceChildren(el("li", { class: "muted empty" }, t("lobby.empty")));
      return;
    }
    list.replaceChildren(...tables.map((table) =>
      el("li", {},
        el("a", { class: "table-link", href: table.url },
          el("span", { class: "table-title" }, table.name),
          el("span", { class: "table-meta" },
            WW.tn("lobby.players", table.seated),
            table.host ? " · " + t("lobby.host_is", { name: table.host }) : ""),
          el("span", { class: "code small" }, table.code)))));
  }

  async function refresh() {
    try {
      // "no-cache": the browser asks with If-None-Match and keeps its copy on a 304.
      const response = await fetch("/api/tables", { credentials: "same-origin", cache: "no-cache",
                                                     headers: { "Accept": "application/json" } });
      if (response.ok) renderTables((await response.json()).tables);
      WW.setBanner(null);
    } catch (e) {
      WW.setBanner(t("reconnecting"));
    }
  }

  document.getElementById("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    WW.hideError(error);
    const name = event.target.elements.name.value.trim();
    const result = await api("POST", "/api/tables", name ? { name } : {});
    if (result.ok) location.href = "/t/" + result.data.table.code;
    else WW.showError(error, result.data);
  });

  document.getElementById("code-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    WW.hideError(error);
    const code = event.target.elements.code.value.trim().toUpperCase();
    if (!code) return;
    const found = await api("GET", "/api/tables/by-code/" + encodeURIComponent(code));
    if (found.status === 404) return WW.showError(error, t("err.code_not_found", { code }));
    if (!found.ok) return WW.showError(error, found.data);
    const joined = await api("POST", `/api/tables/${found.data.table.id}/join`);
    // A table already playing opens its page all the same: it offers to watch, or says why not.
    const started = joined.data && joined.data.error && ["game_running", "game_ended"].includes(joined.data.error.code);
    // In-site paths, not table.url: that one is the public address (WEREWOLF_PUBLIC_URL) for other phones.
    if (joined.ok || started) location.href = "/t/" + found.data.table.code;
    else WW.showError(error, joined.data);
  });

  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
})();

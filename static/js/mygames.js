/* My account: my finished games, newest first (GET /api/me/games), each a link to its page. */
"use strict";

(async () => {
  const { t, tn, el } = WW;
  const list = document.getElementById("game-list");
  const none = document.getElementById("my-games-none");
  const [rules, answer] = await Promise.all([WW.catalog(), WW.api("GET", "/api/me/games")]);
  if (!answer.ok) return;
  const games = answer.data.games;
  none.hidden = games.length > 0;
  none.textContent = t("past.none");
  const emoji = (role) => (rules.role[role] || {}).emoji || "";
  list.replaceChildren(...games.map((g) => {
    const others = g.players.filter((p) => p.seat !== g.seat).map((p) => p.name);
    return el("li", { class: "game-item " + (g.won ? "won" : "lost") },
      el("a", { href: `/games/${g.id}` },
        el("span", { class: "game-when" }, [WW.when(g.started_at), g.table].filter(Boolean).join(" · ")),
        el("span", { class: "game-card" }, WW.emoji(emoji(g.role)), " ", t("past.my_card", { role: t("role." + g.role) })),
        el("span", { class: "tag " + (g.won ? "won-tag" : "lost-tag") }, g.won ? t("past.won") : t("past.lost")),
        el("span", { class: "game-with muted" }, t("past.with", { names: WW.list(others) }) + " · "
          + tn("past.minutes", Math.max(1, Math.round(g.seconds / 60))))));
  }));
})();

/* My stats among the people I played with (GET /api/me/stats), as small charts: a ring for
   my win rate, bars (CSS widths set through a custom property) for camps, cards, survival
   and my group's leaderboard. Each chart says its numbers in words too. */
"use strict";

(async () => {
  const { t, tn, el } = WW;
  const $ = (id) => document.getElementById(id);
  const [rules, answer] = await Promise.all([WW.catalog(), WW.api("GET", "/api/me/stats")]);
  if (!answer.ok) return WW.setBanner(WW.errorText(answer.data));
  const stats = answer.data;
  const percent = (rate) => Math.round(rate * 100);
  const percentText = (rate) => new Intl.NumberFormat(document.documentElement.lang, { style: "percent" }).format(rate);
  if (!stats.games) {
    $("stats-none").textContent = t("stats.none");
    $("stats-none").hidden = false;
    return;
  }
  $("stats-head").hidden = false;
  $("stats-games").textContent = tn("stats.games_n", stats.games);
  $("stats-rate").textContent = t("stats.win_rate", { percent: percentText(stats.win_rate) });
  $("stats-ring-value").style.setProperty("--rate", String(percent(stats.win_rate)));

  /** One bar: a label, the games as the bar's length against ``most``, the wins filled in. */
  function bar(label, wins, games, most, extra) {
    const track = el("span", { class: "bar-track", "aria-hidden": "true" },
      el("span", { class: "bar-games" }, el("span", { class: "bar-wins" })));
    track.firstChild.style.setProperty("--share", String(Math.round((games / most) * 100)));
    track.firstChild.firstChild.style.setProperty("--share", String(games ? Math.round((wins / games) * 100) : 0));
    return el("li", { class: "bar" + (extra ? " " + extra : "") },
      el("span", { class: "bar-label" }, label),
      el("span", { class: "bar-figure" }, t("stats.row", { wins, games })), track);
  }
  const most = (rows) => Math.max(1, ...rows.map((r) => r.games));
  const emoji = (role) => (rules.role[role] || {}).emoji || "";

  function section(id, title, items) {
    $(id + "-title").textContent = title;
    $(id).replaceChildren(...items);
    $(id + "-card").hidden = !items.length;
  }
  section("stats-camps", t("stats.by_camp"), stats.by_camp.map((r) =>
    bar(t("camp." + r.camp), r.wins, r.games, most(stats.by_camp), "camp-" + r.camp)));
  section("stats-cards", t("stats.by_card"), stats.by_card.map((r) =>
    bar(el("span", {}, WW.emoji(emoji(r.role)), " " + t("role." + r.role)), r.wins, r.games, most(stats.by_card))));
  const survival = stats.survival;
  const alive = bar(t("stats.alive_at_end", { n: survival.alive_at_end, total: stats.games }),
    survival.alive_at_end, stats.games, stats.games, "survival");
  alive.querySelector(".bar-figure").textContent = "";
  section("stats-survival", t("stats.survival"), [alive,
    el("li", { class: "bar-note" }, t("stats.nights_lived", { n: survival.nights_lived_average.toLocaleString(document.documentElement.lang) }))]);
  section("stats-board", t("stats.leaderboard"), stats.leaderboard.map((r) =>
    bar(r.me ? `${r.name} (${t("you")})` : r.name, r.wins, r.games, most(stats.leaderboard), r.me ? "me" : "")));
})();

/* The table page, the host's settings form and the settings in plain words (lobby and game).
   A part: table.js calls it once with the shared state T. */
"use strict";

WW.table.settings = (T) => {
  const { t, el } = WW;
  const { $, tableId, send } = T;

  // ------------------------------------------------------------------ the host's settings

  // Everything listed here comes from the catalog (GET /api/catalog): presets, roles,
  // options and their groups, rhythms, steps. The page knows none of them by name.
  const optionsById = () => Object.fromEntries(T.rules.options.map((o) => [o.id, o]));
  const hint = (text) => (text ? el("span", { class: "hint" }, text) : null);

  /** The cards of a composition in plain words: "2 Loups-Garous, Voyante, Sorcière, 3 Villageois". */
  function cardWords(wolves, roles, villagers, middle) {
    const words = [WW.tn("count.wolves", wolves)];
    for (const role of T.rules.roles) {
      const count = roles[role.id] || 0;
      if (!count || role.pack || !role.optional) continue;
      words.push(count > 1 ? `${role.name} ×${count}` : role.name);
    }
    if (villagers > 0) words.push(WW.tn("count.villagers", villagers));
    if (middle) words.push(t("middle", { count: middle }));
    return words.join(t("summary.separator"));
  }

  /** The deck these settings give for n seated (the engine's rule: A1.2). */
  function settingsDeck(settings, n) {
    const size = Math.min(Math.max(n, T.rules.players.min), T.rules.players.max);
    const wolves = settings.wolves || T.rules.wolf_table[String(size)];
    const roles = {};
    let cards = wolves;
    let middle = 0;
    for (const role of T.rules.roles) {
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
    const preset = T.rules.presets.find((p) => p.id === settings.preset);
    if (preset) lines.push(t("summary.preset", { name: preset.name }));
    if (composition) {
      const roles = Object.fromEntries(T.rules.roles.filter((r) => r.optional).map((r) => [r.id, composition[r.id] || 0]));
      const wolves = T.rules.roles.filter((r) => r.pack).reduce((sum, r) => sum + (composition[r.id] || 0), 0);
      lines.push(t("summary.cards", { cards: cardWords(wolves, roles, composition.villager || 0, composition.middle) }));
    } else {
      const deck = settingsDeck(settings, n);
      lines.push(t("summary.cards", { cards: cardWords(deck.wolves, deck.roles, deck.villagers, deck.middle) }));
    }
    lines.push(settings.captain ? t("captain_on") : t("captain_off"));
    const options = optionWords(settings.options);
    lines.push(options.length ? t("summary.options", { options: options.join(" · ") }) : t("summary.no_options"));
    const rhythm = T.rules.rhythms.find((r) => r.id === settings.rhythm);
    if (rhythm) {
      lines.push((settings.limits_changed || []).length
        ? t("summary.rhythm_changed", { name: rhythm.name, count: settings.limits_changed.length })
        : t("summary.rhythm", { name: rhythm.name }));
    }
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
    $("presets").append(...T.rules.presets.map((p) => el("label", { class: "preset" },
      el("input", { type: "radio", name: "preset", value: p.id }),
      el("span", { class: "preset-text" }, el("strong", {}, p.name), hint(p.description),
        el("span", { class: "preset-cards", dataset: { preset: p.id } })))),
    el("label", { class: "preset" }, el("input", { type: "radio", name: "preset", value: "" }),
      el("span", { class: "preset-text" }, el("strong", {}, t("preset.none")), hint(t("settings.custom_help")))));
    // "Composition personnalisée": the roles, the wolves, the Captain, the options by group.
    const wolves = [[null, t("settings.wolves_auto")]];
    for (let n = T.rules.wolves.min; n <= T.rules.wolves.max; n++) wolves.push([n, String(n)]);
    $("custom-roles").append(
      ...T.rules.roles.filter((r) => r.optional).map((role) => el("label", { class: "toggle" },
        el("input", { type: "checkbox", name: "role", value: role.id }),
        el("span", {}, WW.emoji(role.emoji), ` ${role.name}`, hint(role.description)))),
      el("label", { class: "limit choice" }, el("span", {}, t("settings.wolves"), hint(t("settings.wolves_help"))),
        el("select", { name: "wolves" }, wolves.map(([value, label]) =>
          el("option", { value: value === null ? "" : String(value) }, label)))),
      el("label", { class: "toggle" }, el("input", { type: "checkbox", name: "captain" }),
        el("span", {}, t("settings.captain"), hint(t("settings.captain_help")))));
    for (const group of T.rules.option_groups) {
      const options = T.rules.options.filter((o) => o.group === group.id && !o.preset_neutral);
      if (options.length) $("custom-options").append(el("fieldset", { class: "options" },
        el("legend", {}, group.name), ...options.map(optionControl)));
    }
    // What adjusts a preset without leaving it: the rhythm, the table's neutral options, single limits.
    $("rhythm-set").append(el("label", { class: "limit choice" }, el("span", { class: "sr-only" }, t("settings.rhythm")),
      el("select", { name: "rhythm" }, T.rules.rhythms.map((r) => el("option", { value: r.id }, r.name)))),
    el("p", { class: "hint", id: "rhythm-help" }),
    ...T.rules.options.filter((o) => o.preset_neutral).map(optionControl));
    for (const step of T.rules.steps) {
      $("limits").append(el("label", { class: "limit" }, el("span", {}, step.name),
        el("input", { type: "number", min: String(T.rules.limits.min), max: String(T.rules.limits.max), step: "1",
                      inputmode: "numeric", name: "limit", dataset: { step: step.id } })));
    }
    form.addEventListener("change", (event) => {
      const input = event.target;
      const settings = T.view.table.settings;
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
      const preset = T.rules.presets.find((p) => p.id === line.dataset.preset);
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
    const rhythm = T.rules.rhythms.find((r) => r.id === settings.rhythm);
    $("rhythm-help").textContent = (rhythm ? rhythm.description : "") +
      ((settings.limits_changed || []).length ? " " + t("settings.limits_changed", { count: settings.limits_changed.length }) : "");
    for (const input of form.querySelectorAll("[name=option]")) {
      const id = input.dataset.option || input.value;
      const value = (settings.options || {})[id];
      // An option about cards out of the deck is not offered (the Witch's, without a Witch).
      const about = (optionsById()[id] || {}).roles || [];
      input.closest("label").hidden = !about.every((role) => settings.roles[role]);
      if (keep(input)) continue;
      if (input.type === "checkbox") input.checked = !!value;
      else input.value = value === undefined ? "" : String(value);
    }
    for (const input of form.querySelectorAll("input[name=limit]")) {
      if (!keep(input)) input.value = settings.limits[input.dataset.step];
    }
  }

  /** The settings in force in plain words, for every player (lobby and game). */
  function renderSummary(box, lines, title) {
    const signature = lines.join("\n");
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    box.replaceChildren(...(title ? [el("h2", {}, t("summary.title"))] : []),
      el("ul", {}, lines.map((line) => el("li", {}, line))));
  }

  return { buildSettingsForm, renderSettingsForm, renderSummary, settingsLines };
};

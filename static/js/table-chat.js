/* The table page, the chat drawer: its channels, unread counts, sending.
   A part: table.js calls it once with the shared state T. */
"use strict";

WW.table.chat = (T) => {
  const { t, el } = WW;
  const { $, tableId, send, mySeat } = T;

  // ------------------------------------------------------------------ chat

  let chatTab = null;      // the channel shown
  let chatSignature = "";
  let lastWritable = null;
  let chatOpen = false;
  const readCounts = {};  // channel -> messages seen
  const wide = window.matchMedia("(min-width: 900px)");

  // On a phone the open chat sits in the page, under the prompt and above the tiles: reading
  // an accusation and voting happen on one screen, nothing fixed covers a tile (issue 35).
  // Beside the table on a wide screen, where it always is.
  const home = $("chat").parentNode;
  function placeChat() {
    const inline = !wide.matches;
    const chat = $("chat");
    if (inline && chat.previousElementSibling !== $("prompt")) $("prompt").after(chat);
    else if (!inline && chat.parentNode !== home) home.append(chat);
  }
  placeChat();
  wide.addEventListener("change", placeChat);

  function setChatOpen(open, focus = true) {
    chatOpen = open;
    $("game").classList.toggle("chat-open", open);
    $("chat-toggle").setAttribute("aria-expanded", open ? "true" : "false");
    if (T.view) renderChat();
    if (open && focus && !wide.matches) $("chat-input").focus({ preventScroll: true });
  }
  $("chat-toggle").addEventListener("click", () => setChatOpen(!chatOpen));
  $("chat-close").addEventListener("click", () => setChatOpen(false));

  /** Every channel I may write in now (the Medium: `dead` too). */
  const writableChannels = () => T.view.channels.writable || (T.view.channels.write ? [T.view.channels.write] : []);

  let spying = false;
  let readBefore = [];
  function renderChat() {
    const channels = T.view.channels.read;
    // Who spies (me.spying: the Little Girl's eyes open) sees what she spies: the channel she
    // may read and not write in (the one newly read, else the last listed), open at once.
    const unwritable = channels.filter((ch) => !writableChannels().includes(ch));
    const spied = unwritable.find((ch) => !readBefore.includes(ch)) || unwritable[unwritable.length - 1];
    readBefore = channels;
    const spyingNow = !!(T.view.me && T.view.me.spying) && !!spied;
    if (spyingNow && !spying) {
      spying = true;
      chatTab = spied;
      if (!chatOpen) { setChatOpen(true, false); return; }   // no keyboard over the tiles
    } else if (!spyingNow) spying = false;
    if (T.view.channels.write !== lastWritable) {  // night falls, day breaks, I die: follow the channel I may write in
      lastWritable = T.view.channels.write;
      if (lastWritable) chatTab = lastWritable;
    }
    if (!channels.includes(chatTab)) chatTab = T.view.channels.write || writableChannels()[0] || channels[0] || null;
    $("chat").hidden = !channels.length;
    $("chat-toggle").hidden = !channels.length;
    const visible = chatOpen || wide.matches;
    if (visible && chatTab) readCounts[chatTab] = (T.view.chat[chatTab] || []).length;
    let unread = 0;
    for (const ch of channels) unread += Math.max(0, (T.view.chat[ch] || []).length - (readCounts[ch] || 0));
    $("chat-toggle-label").textContent = t("chat.open");
    $("chat-unread").textContent = unread ? String(unread) : "";
    $("chat-unread-words").textContent = unread ? WW.tn("unread", unread) : "";
    $("chat-tabs").replaceChildren(...channels.map((ch) => el("button", {
      type: "button", role: "tab", class: "tab" + (ch === chatTab ? " active" : ""),
      "aria-selected": ch === chatTab ? "true" : "false",
      onclick: () => { chatTab = ch; chatSignature = ""; renderChat(); },
    }, t("channel." + ch), " ", el("span", { class: "count" }, String((T.view.chat[ch] || []).length)))));
    const messages = (chatTab && T.view.chat[chatTab]) || [];
    const signature = chatTab + ":" + messages.length;
    if (signature !== chatSignature) {
      chatSignature = signature;
      const list = $("messages");
      list.replaceChildren(...messages.map((m) => el("li", { class: "message" + (m.seat === mySeat() ? " mine" : "") },
        el("span", { class: "author" }, m.name === undefined ? t("chat.a_wolf") : m.name), el("span", { class: "text" }, m.text))));
      list.scrollTop = list.scrollHeight;
    }
    const writable = !!chatTab && writableChannels().includes(chatTab);
    $("chat-form").hidden = !writable;
    $("chat-closed").hidden = !!writable || T.view.table.status === "ended";
    $("chat-closed").textContent = t("chat.closed");
    $("chat-input").placeholder = t("chat.placeholder");
  }

  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value;
    if (!text.trim() || !writableChannels().includes(chatTab)) return;
    const result = await send("POST", `/api/tables/${tableId}/chat`,
      { channel: chatTab, text }, $("prompt-error"));
    if (result && result.ok) input.value = "";
  });

  /** A new game: its chat drawn afresh. */
  const freshChat = () => { chatSignature = ""; };

  return { freshChat, renderChat };
};

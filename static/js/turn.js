/* "Your turn" while the page is in the background: the tab's title and icon change, and, once
   the player allowed it from the button (never asked on load), a notification with its
   vibration; where the server has VAPID keys, a Web Push subscription, so that the phone hears
   of its turn with the page closed too (werewolf/push.py, static/js/sw.js).

   The page calls TURN.cue(key) after each render: key names the prompt open for me (any
   string that changes when a new one opens), null when none is. That is all it tells. */
"use strict";

const TURN = (() => {
  const { t, api } = WW;
  const rows = [...document.querySelectorAll(".notify-row")];
  const settings = rows.length ? rows[0].dataset : {};
  const canNotify = "Notification" in window && "serviceWorker" in navigator;
  const tag = "turn-" + (settings.table || "");   // the push of the same turn replaces it (sw.js)
  const baseTitle = document.title;
  const icon = document.querySelector("link[rel=icon]");
  const baseIcon = icon ? icon.href : null;
  let open = null;   // the prompt open for me now
  let told = null;   // the last prompt I was shown or told of: never twice

  function cue(key) {
    open = key;
    if (key !== null && key !== told) {
      told = key;
      if (document.hidden) notify();
    }
    if (key === null) closeNotifications();
    paintTitle();
  }

  function paintTitle() {
    const flag = open !== null && document.hidden;
    document.title = flag ? "🔔 " + t("your_turn") + " · " + baseTitle : baseTitle;
    if (icon && settings.turnIcon) icon.href = flag ? settings.turnIcon : baseIcon;
  }

  document.addEventListener("visibilitychange", () => {
    paintTitle();
    if (!document.hidden) closeNotifications();  // back on the page: it shows the prompt itself
  });

  async function worker() {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration && registration.active ? registration : null;
  }

  async function notify() {
    if (!canNotify || Notification.permission !== "granted") return;
    const options = { body: settings.tableName || "", tag, icon: settings.icon, badge: settings.icon };
    try {
      const registration = await worker();
      if (registration) {
        if ((await registration.getNotifications({ tag })).length) return;  // the push of this turn came first
        await registration.showNotification(t("your_turn"), {
          ...options, renotify: true, vibrate: [200, 100, 200], data: { url: location.pathname } });
      } else {
        new Notification(t("your_turn"), options);  // no worker (yet): a plain one, without vibration
      }
    } catch (e) { /* the browser refused: the title still says it */ }
  }

  async function closeNotifications() {
    if (!canNotify) return;
    const registration = await worker();
    if (registration) for (const n of await registration.getNotifications({ tag })) n.close();
  }

  // ---------------------------------------------------------------- the button

  function keyBytes(base64url) {
    const raw = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  /** Subscribe this browser to "your turn" pushes and give the server its address (again
   * once a session: the server forgets them when the password changes). */
  async function subscribe() {
    if (!settings.pushKey || !("PushManager" in window)) return;
    try {
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription()
        || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(settings.pushKey) });
      if (sessionStorage.getItem("werewolf.push") === subscription.endpoint) return;
      const result = await api("POST", "/api/me/push-subscription", subscription.toJSON());
      if (result.ok) sessionStorage.setItem("werewolf.push", subscription.endpoint);
    } catch (e) { /* no push service here: the page's own notifications remain */ }
  }

  /** The rows: the button while the browser has not been answered; what the answer was, just after. */
  function paintRows(answered) {
    const state = canNotify ? Notification.permission : "unsupported";
    for (const row of rows) {
      row.hidden = state === "unsupported" || (state !== "default" && !answered);
      row.querySelector(".notify-btn").hidden = state !== "default";
      row.querySelector(".notify-on").hidden = state !== "granted";
      row.querySelector(".notify-off").hidden = state !== "denied";
    }
  }

  for (const row of rows) {
    row.querySelector(".notify-btn").addEventListener("click", async () => {
      const answer = await Notification.requestPermission();
      paintRows(true);
      if (answer === "granted") await subscribe();
    });
  }
  paintRows(false);
  if (canNotify && Notification.permission === "granted") subscribe();

  return { cue };
})();

/* The service worker (served at /sw.js, after the SHELL the server writes above this line:
   the offline pages, the shell's fingerprinted files, the words of "your turn").

   - It keeps the shell: the offline page in each language, and its CSS, JS and icons.
   - A page the server cannot send (no network, or a proxy's 502-504) is replaced by the offline
     page in the language of the last page seen: « Reconnexion… », which comes back by itself.
   - It never keeps a view nor a page: /api/ is not even looked at (the browser fetches it as
     if there were no worker), pages always come from the server, and nothing is cached at
     run time but the last page's language (two letters): the rest is what the install put there.
   - "Your turn" pushes (werewolf/push.py) become notifications, unless the table's page is
     in front of the player already; tapping one opens (or brings forward) that page. */
"use strict";

const CACHE = "shell-" + SHELL.version;
const LANGUAGE_KEY = "/offline/language";  // the language of the last page seen, kept in CACHE
let lastLanguage = null;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Without cookies: the kept offline page is nobody's.
    await Promise.all([...Object.values(SHELL.offline), ...SHELL.assets].map(async (url) => {
      const response = await fetch(url, { credentials: "omit", cache: "no-cache" });
      if (!response.ok) throw new Error(url + ": " + response.status);
      await cache.put(url, response);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;  // never a view
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (SHELL.assets.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(url.pathname + url.search, { ignoreVary: true })
      .then((kept) => kept || fetch(request)));
  }
});

async function page(request) {
  try {
    const response = await fetch(request);
    if (response.status < 502 || response.status > 504) {
      remember(response.headers.get("Content-Language"));
      return response;
    }
  } catch (e) { /* unreachable: the offline page */ }
  const lang = await language();
  const kept = await caches.match(SHELL.offline[lang] || SHELL.offline[SHELL.default_language]);
  return kept || Response.error();
}

/** "zh-Hant" → "zh": the offline page's key. */
function languageOf(tag) {
  const code = (tag || "").split("-")[0].toLowerCase();
  return SHELL.offline[code] ? code : null;
}

function remember(tag) {
  const lang = languageOf(tag);
  if (!lang || lang === lastLanguage) return;
  lastLanguage = lang;
  caches.open(CACHE).then((cache) => cache.put(LANGUAGE_KEY, new Response(lang)));
}

async function language() {
  if (!lastLanguage) {
    const kept = await caches.match(LANGUAGE_KEY);
    lastLanguage = kept ? await kept.text() : languageOf(self.navigator.language) || SHELL.default_language;
  }
  return lastLanguage;
}

// ---------------------------------------------------------------- "your turn"

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  event.waitUntil(showTurn(data));
});

/** Only a path of this site: a push names the table's page, nothing else. */
function sitePath(value) {
  const url = new URL(typeof value === "string" ? value : "/", location.origin);
  return url.origin === location.origin ? url.pathname : "/";
}

async function showTurn(data) {
  const path = sitePath(data.url);
  const tag = typeof data.tag === "string" ? data.tag : "turn";
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  if (windows.some((w) => w.visibilityState === "visible" && new URL(w.url).pathname === path)) return;  // it shows the prompt
  if ((await self.registration.getNotifications({ tag })).length) return;  // the page told already
  const title = typeof data.title === "string" ? data.title : SHELL.turn[await language()];
  await self.registration.showNotification(title, {
    tag, data: { url: path }, icon: SHELL.icon, badge: SHELL.icon, vibrate: [200, 100, 200], renotify: true,
  });
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = sitePath(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).pathname === path);
    if (open) return open.focus();
    return self.clients.openWindow(path);
  })());
});

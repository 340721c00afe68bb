/* The offline page, shown by the service worker in place of a page the server did not send:
   it tries again by itself (and from its button), and brings the page back once the server
   answers. */
"use strict";

(() => {
  // Opened as itself (/offline/<lang>): the way back is the lobby.
  const target = location.pathname.startsWith("/offline/") ? "/" : location.href;
  const FIRST_WAIT_MS = 2000;
  const LONGEST_WAIT_MS = 15000;
  let wait = FIRST_WAIT_MS;
  let timer = null;

  async function retry() {
    clearTimeout(timer);
    try {
      const response = await fetch(target, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
      if (response.status < 502 || response.status > 504) {  // the server answers (a proxy's 502-504: not yet)
        location.replace(target);
        return;
      }
    } catch (e) { /* still unreachable */ }
    wait = Math.min(wait * 1.5, LONGEST_WAIT_MS);
    timer = setTimeout(retry, wait);
  }

  const now = () => { wait = FIRST_WAIT_MS; retry(); };
  document.getElementById("retry-btn").addEventListener("click", now);
  window.addEventListener("online", now);
  timer = setTimeout(retry, wait);
})();

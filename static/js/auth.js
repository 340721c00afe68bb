/* Log in or register, then go where the player was heading. */
"use strict";

(() => {
  const form = document.getElementById("auth-form");
  if (!form) return;  // registration closed: the page only says so
  const error = document.getElementById("auth-error");
  const mode = form.dataset.mode;

  // The server sends only a path of this site (pages.same_site_path); the browser's own
  // reading of it must agree, or the player goes to the lobby.
  function sameSite(next) {
    const target = new URL(next || "/", location.href);
    return target.origin === location.origin ? target.pathname + target.search + target.hash : "/";
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    WW.hideError(error);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const body = { name: form.elements.name.value, password: form.elements.password.value };
      // Arrived by a table's link: the same request seats the new player there (and, when
      // registration is by invitation, its code lets them in; else they type a table's code).
      if (form.elements.table_code) body.table_code = form.elements.table_code.value;
      else if (form.dataset.tableCode) body.table_code = form.dataset.tableCode;
      // By a table's link a name is enough: a guest's account, protected later on "Mon compte".
      if (mode === "register" && form.dataset.tableCode && !body.password) delete body.password;
      const result = await WW.api("POST", mode === "login" ? "/api/auth/login" : "/api/auth/register", body);
      if (result.ok) {
        location.href = sameSite(form.dataset.next);
        return;
      }
      WW.showError(error, result.data);
    } catch (e) {
      WW.showError(error, WW.t("err.network"));
    }
    button.disabled = false;
  });
})();

/* My account: change the password, log out everywhere, delete the account. */
"use strict";

(() => {
  function onSubmit(form, send) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        await send();
      } catch (e) {
        WW.showError(form.querySelector(".error"), WW.t("err.network"));
      }
      button.disabled = false;
    });
  }

  const passwordForm = document.getElementById("password-form");
  const done = document.getElementById("password-done");
  onSubmit(passwordForm, async () => {
    const error = document.getElementById("password-error");
    WW.hideError(error);
    done.hidden = true;
    const body = { new_password: passwordForm.elements.new_password.value };
    // A guest's first password needs no old one (the form has none).
    if (passwordForm.elements.old_password) body.old_password = passwordForm.elements.old_password.value;
    const result = await WW.api("POST", "/api/auth/password", body);
    if (!result.ok) return WW.showError(error, result.data);
    await WW.fetchMe();  // this session goes on; its CSRF token is the new one
    if (passwordForm.dataset.guest) { location.reload(); return; }  // now an ordinary account's form
    passwordForm.reset();
    done.hidden = false;
  });

  const sessionsForm = document.getElementById("sessions-form");
  onSubmit(sessionsForm, async () => {
    const error = document.getElementById("sessions-error");
    WW.hideError(error);
    if (!window.confirm(WW.t("confirm.logout_everywhere"))) return;
    const result = await WW.api("POST", "/api/auth/logout-everywhere");
    if (!result.ok) return WW.showError(error, result.data);
    location.href = "/login";
  });

  const deleteForm = document.getElementById("delete-form");
  onSubmit(deleteForm, async () => {
    const error = document.getElementById("delete-error");
    WW.hideError(error);
    if (!window.confirm(WW.t("confirm.delete_account"))) return;
    const password = deleteForm.elements.password;
    const result = await WW.api("DELETE", "/api/me", password ? { password: password.value } : {});
    if (!result.ok) return WW.showError(error, result.data);
    location.href = "/register";
  });
})();

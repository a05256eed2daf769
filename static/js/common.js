// Behaviour every page shares, without inline handlers (a strict Content-Security-Policy allows
// no inline script): a <select data-autosubmit> or <input data-autosubmit> submits its form on change; a <form
// data-confirm="question"> asks before it is sent.
(function () {
  for (const field of document.querySelectorAll("[data-autosubmit]")) {
    field.addEventListener("change", () => field.form.submit());
  }
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
})();

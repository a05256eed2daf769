// Behaviour every page shares, without inline handlers (a strict Content-Security-Policy allows
// no inline script): a <select data-autosubmit> submits its form on change; a <form
// data-confirm="question"> asks before it is sent.
(function () {
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.submit());
  }
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
})();

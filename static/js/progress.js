// Polls the contract's status while a job runs; reloads the page when the status changes.
(function () {
  const box = document.getElementById("progress");
  if (!box) return;
  const bar = document.getElementById("progress-bar");
  const step = document.getElementById("progress-step");
  const initial = document.getElementById("status").textContent.trim();
  async function poll() {
    try {
      const r = await fetch(box.dataset.url, { headers: { Accept: "application/json" } });
      if (r.ok) {
        const s = await r.json();
        if (s.status_display !== initial) { window.location.reload(); return; }
        // a queued job that nobody takes: the page shows why, with a retry
        if (s.run && Boolean(s.run.stuck) !== Boolean(document.getElementById("stuck"))) { window.location.reload(); return; }
        if (s.run) {
          bar.value = s.run.percent;
          if (s.run.state === "running") step.textContent = s.run.text;  // the step, its pages, the time left
        }
      }
    } catch (e) { /* network hiccup: try again */ }
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 1000);
})();

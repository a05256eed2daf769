// Review page: proposal boxes over page images, the grouped list, decisions, manual boxes and
// text selection, keyboard shortcuts and the redacted preview. Boxes arrive in PDF points
// ([page, x0, y0, x1, y1], pages from 1) and are placed in percent of the page size.
(function () {
  const cfg = JSON.parse(document.getElementById("review-config").textContent);
  const T = JSON.parse(document.getElementById("review-i18n").textContent);
  const csrf = document.querySelector("[name=csrfmiddlewaretoken]")?.value
    || (document.cookie.match(/csrftoken=([^;]+)/) || [])[1];
  let proposals = cfg.state.proposals;
  let current = null; // selected proposal id
  const pages = {};
  document.querySelectorAll("figure.page").forEach((fig) => {
    pages[fig.dataset.page] = { fig, w: parseFloat(fig.dataset.width), h: parseFloat(fig.dataset.height) };
    // set here, not in a style attribute: the Content-Security-Policy allows no inline styles
    fig.querySelector(".sheet").style.aspectRatio = `${fig.dataset.width} / ${fig.dataset.height}`;
  });
  const mode = () => (document.querySelector("input[name=mode]:checked") || { value: "select" }).value;

  // the sticky toolbar's height as --toolbar-h: a page a link jumps to starts below the toolbar
  // (its caption and page-wide buttons stay visible) and the side column fits under it
  const toolbar = document.getElementById("toolbar");
  const keepToolbarHeight = () => document.documentElement.style.setProperty("--toolbar-h", `${toolbar.offsetHeight}px`);
  keepToolbarHeight();
  new ResizeObserver(keepToolbarHeight).observe(toolbar);
  // the side column (proposals above the approval card) ends at the window's bottom wherever it
  // starts: lower at the page's top, under the toolbar once it sticks there
  const side = document.querySelector(".side");
  let sizing = false;
  const fitSide = () => {
    sizing = false;
    const top = Math.max(side.getBoundingClientRect().top, toolbar.getBoundingClientRect().bottom);
    document.documentElement.style.setProperty("--side-h", `${Math.max(240, window.innerHeight - top - 8)}px`);
  };
  const fitSoon = () => { if (!sizing) { sizing = true; requestAnimationFrame(fitSide); } };
  if (side) {
    fitSide();
    window.addEventListener("scroll", fitSoon, { passive: true });
    window.addEventListener("resize", fitSoon);
  }

  function pct(v, total) { return (100 * v / total).toFixed(3) + "%"; }
  function stateOf(p) {
    if (p.decision === "accepted") return "redact";
    if (p.decision === "rejected") return "keep";
    return p.suggestion === "review" ? "review" : p.suggestion; // pending: the suggestion applies
  }
  // "why?" on demand: the rules that made and decided the suggestion, each by its name (its id in
  // the tooltip) and the document's words it saw
  function whyOf(p) {
    const lines = el("ul", {}, ...p.why.map((r) => el("li", { title: r.id, "data-rule": r.id },
      r.name, r.words ? ` – ${T.sawWords.replace("%(words)s", r.words)}` : "")));
    const box = el("details", { class: "why" }, el("summary", {}, T.why), lines);
    box.addEventListener("click", (e) => e.stopPropagation()); // opening it selects nothing
    return box;
  }

  // the reason already opens with the engine's suggestion; a reviewer's decision is said before it
  function reasonOf(p) {
    if (p.decision === "accepted") return `${T.decidedRedact} – ${p.reason}`;
    if (p.decision === "rejected") return `${T.decidedKeep} – ${p.reason}`;
    return p.reason;
  }
  function catClass(p) { return "cat-" + ((p.category || 0) % 8); }

  function drawBoxes() {
    Object.values(pages).forEach((pg) => { pg.fig.querySelector(".overlay").innerHTML = ""; });
    for (const p of proposals) {
      for (const b of p.boxes) {
        const pg = pages[b[0]];
        if (!pg) continue;
        const d = document.createElement("div");
        d.className = `box ${catClass(p)} state-${stateOf(p)} decision-${p.decision}` + (p.id === current ? " current" : "");
        d.style.left = pct(b[1], pg.w); d.style.top = pct(b[2], pg.h);
        d.style.width = pct(b[3] - b[1], pg.w); d.style.height = pct(b[4] - b[2], pg.h);
        d.title = `${p.category_name}: ${p.text}\n${p.reason}`;
        d.dataset.id = p.id;
        d.addEventListener("click", (e) => { if (mode() === "select") { e.stopPropagation(); select(p.id, false); } });
        pg.fig.querySelector(".overlay").appendChild(d);
      }
    }
  }

  // "<n> <noun>" in the page's language: forms {one, few, other} chosen by the language's plural
  // rules (Czech: 1 výskyt, 2 výskyty, 5 výskytů)
  const pluralRules = new Intl.PluralRules(document.documentElement.lang || "cs");
  function counted(forms, n) {
    return (forms[pluralRules.select(n)] || forms.other).replace("%(n)s", n);
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => { if (k === "class") e.className = v; else e.setAttribute(k, v); });
    children.forEach((c) => e.append(c));
    return e;
  }

  function drawList() {
    const list = document.getElementById("proposal-list");
    list.innerHTML = "";
    const counts = { redact: 0, keep: 0, review: 0 };
    proposals.forEach((p) => { counts[stateOf(p)] += 1; });
    document.getElementById("summary").textContent =
      `${counts.redact} ${T.toRedact} · ${counts.keep} ${T.toKeep} · ${counts.review} ${T.undecided}`;
    const groups = new Map();
    for (const p of proposals) {
      const cat = p.category_name || T.manual;
      if (!groups.has(cat)) groups.set(cat, new Map());
      const party = p.party || T.noParty;
      const g = groups.get(cat);
      if (!g.has(party)) g.set(party, []);
      g.get(party).push(p);
    }
    for (const [cat, parties] of [...groups.entries()].sort()) {
      const section = el("details", { class: "group", open: "" }, el("summary", {}, `${cat} (${[...parties.values()].flat().length})`));
      for (const [party, items] of parties) {
        const head = el("div", { class: "party" }, party);
        // the group's open review items at once (only these occurrences: nothing is learned)
        const open = items.filter((p) => p.suggestion === "review" && p.decision === "pending").map((p) => p.id);
        if (cfg.editable && open.length > 1) {
          const bulk = (label, decision, cls) => {
            const b = el("button", { type: "button", class: `group-action ${cls}` }, `${label} (${open.length})`);
            b.addEventListener("click", (e) => { e.stopPropagation(); decide(open, decision, false); });
            head.append(" ", b);
          };
          bulk(T.groupRedact, "accept", "group-accept");
          bulk(T.groupKeep, "reject", "group-reject");
        }
        section.append(head);
        for (const p of items) {
          const li = el("div", { class: `item state-${stateOf(p)}` + (p.id === current ? " current" : ""), "data-id": p.id },
            el("span", { class: `swatch ${catClass(p)}` }),
            el("span", { class: "text" }, p.text || "▭"),
            el("span", { class: "where" }, ` ${T.page} ${p.page}`),
            el("div", { class: "reason" + (p.rule ? " by-rule" : "") }, reasonOf(p)));
          if (p.legal_ground && p.legal_ground !== "personal_data") {
            li.append(el("div", { class: "ground" }, `${T.ground}: ${p.legal_ground_label}`));
          }
          if ((p.why || []).length) li.append(whyOf(p));
          if (cfg.editable) {
            const btns = el("div", { class: "buttons" });
            const mk = (label, decision, all, cls) => {
              const b = el("button", { type: "button", class: cls }, label);
              b.addEventListener("click", (e) => { e.stopPropagation(); decide([p.id], decision, all); });
              btns.append(b);
            };
            // one click decides every occurrence (inflected forms too); "only here" is the exception
            mk(T.accept, "accept", true, "accept");
            mk(T.reject, "reject", true, "reject");
            mk(`${T.accept}: ${T.onlyHere}`, "accept", false, "accept-one");
            mk(`${T.reject}: ${T.onlyHere}`, "reject", false, "reject-one");
            if (p.decision !== "pending" && (p.source === "engine" || p.source === "reader_check")) mk(T.undo, "reset", false, "reset");
            li.append(btns);
          }
          li.addEventListener("click", () => select(p.id, true));
          section.append(li);
        }
      }
      list.append(section);
    }
  }

  // each page's open review items at once (only these occurrences: nothing is learned), for a
  // reviewer who confirms a scan page by page
  function drawPageActions() {
    Object.entries(pages).forEach(([num, pg]) => {
      const slot = pg.fig.querySelector(".page-actions");
      if (!slot) return;
      slot.innerHTML = "";
      const pending = proposals.filter((p) => p.decision === "pending" && p.boxes.some((b) => String(b[0]) === num));
      const open = pending.filter((p) => p.suggestion === "review").map((p) => p.id);
      const earlier = (cfg.repeated || {})[num];
      if (earlier) {
        slot.append(el("span", { class: "repeat-note" }, `${T.repeats} `), el("a", { href: `#page-${earlier}` }, String(earlier)), " ");
        // the earlier page's decisions for the same texts, applied to this page's open items
        const key = (p) => (p.text || "").trim().toLowerCase();
        const decided = new Map();
        proposals.filter((q) => q.page === earlier && q.decision !== "pending").forEach((q) => decided.set(key(q), q.decision));
        const like = { accepted: [], rejected: [] };
        pending.forEach((p) => { const d = decided.get(key(p)); if (d in like) like[d].push(p.id); });
        const n = like.accepted.length + like.rejected.length;
        if (cfg.editable && n) {
          const b = el("button", { type: "button", class: "page-action page-like" }, `${T.likePage} ${earlier} (${n})`);
          b.addEventListener("click", async (e) => {
            e.stopPropagation();
            if (like.accepted.length) await decide(like.accepted, "accept", false);
            if (like.rejected.length) await decide(like.rejected, "reject", false);
          });
          slot.append(b, " ");
        }
      }
      // a page repeating a page of the agency's earlier published contract: its decisions, here
      const elsewhere = (cfg.repeated_elsewhere || {})[num];
      if (elsewhere) {
        slot.append(
          el("span", { class: "repeat-note" }, `${T.repeatsElsewhere.replace("%(page)s", elsewhere.page)} `),
          el("a", { href: elsewhere.url, class: "repeat-elsewhere" }, `„${elsewhere.title}“`), " ",
        );
        if (cfg.editable && elsewhere.count) {
          const b = el("button", { type: "button", class: "page-action page-like-earlier" }, `${T.likeEarlier} (${elsewhere.count})`);
          b.addEventListener("click", (e) => {
            e.stopPropagation();
            post("review/like-earlier/", { page: Number(num) }).then((data) => {
              if (!data) return;
              elsewhere.count = 0;
              render();
              report(data, "like");
            });
          });
          slot.append(b, " ");
        }
      }
      if (!cfg.editable || open.length < 2) return;
      const bulk = (label, decision, cls) => {
        const b = el("button", { type: "button", class: `page-action ${cls}` }, `${label} (${open.length})`);
        b.addEventListener("click", (e) => { e.stopPropagation(); decide(open, decision, false); });
        slot.append(b, " ");
      };
      bulk(T.pageRedact, "accept", "page-accept");
      bulk(T.pageKeep, "reject", "page-reject");
    });
  }

  function render() { drawBoxes(); drawList(); drawPageActions(); }

  function select(id, scroll) {
    current = id;
    render();
    const p = proposals.find((x) => x.id === id);
    if (!p) return;
    const item = document.querySelector(`.item[data-id="${id}"]`);
    if (item) item.scrollIntoView({ block: "nearest" });
    if (scroll) document.querySelector(`.box[data-id="${id}"]`)?.scrollIntoView({ block: "center" });
  }

  async function post(url, body) {
    const r = await fetch(cfg.base + url, {
      method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify(body),
    });
    const data = await r.json();
    // a decision that would publish a person's name nobody chose: the reviewer is asked, naming them
    if (!r.ok && data.code === "confirm_names") {
      return window.confirm(data.message) ? post(url, { ...body, confirm_names: true }) : null;
    }
    if (!r.ok) { alert(data.message || r.statusText); return null; }
    proposals = data.proposals;
    render();
    refreshWatchdog();
    if (document.getElementById("preview").checked) refreshImages(true);
    return data;
  }

  // the watchdog's score of the decisions as they stand, drawn by the server
  async function refreshWatchdog() {
    const box = document.getElementById("watchdog");
    if (!box) return;
    const r = await fetch(`${cfg.base}review/watchdog/`);
    if (r.ok) box.outerHTML = await r.text();
  }

  // the legal ground a reviewer's own box is drawn on (personal data unless chosen otherwise)
  const ground = () => document.getElementById("ground")?.value || "personal_data";
  // a trade secret is the counterparty's designation: who designated it and when go with the box
  const claim = () => ({
    claimant: document.getElementById("claimant")?.value || "",
    claimed_on: document.getElementById("claimed-on")?.value || "",
  });
  document.getElementById("ground")?.addEventListener("change", (e) => {
    const shown = e.target.value === "trade_secret";
    const fields = document.getElementById("trade-secret-claim");
    if (fields) fields.hidden = !shown;
  });
  const learn = () => document.getElementById("learn")?.checked !== false;

  function decide(ids, decision, sameCluster) {
    return post("review/decide/", { ids, decision, same_cluster: sameCluster, learn: learn() }).then((data) => {
      if (data) report(data, decision);
    });
  }

  // what the last action did: how many occurrences, which forms, which rules; with undo
  function report(data, decision) {
    const box = document.getElementById("last-action");
    if (!box) return;
    const verb = decision === "accept" ? T.redacted : decision === "reject" ? T.kept : decision === "like" ? T.likeDone : T.reset;
    const forms = (data.forms || []).slice(0, 6).join(", ") + ((data.forms || []).length > 6 ? ", …" : "");
    box.innerHTML = "";
    box.append(el("span", { id: "last-count" }, `${verb}: ${counted(T.occurrences, data.affected.length)}`));
    if (forms) box.append(el("span", { class: "forms" }, ` (${forms})`));
    for (const r of data.rule_info || []) {
      box.append(el("div", { class: "rule-note" }, `${T.ruleLearned} „${r.pattern}“ – ${r.action}, ${r.decisions} ${T.decisions}`));
    }
    if (data.batch) {
      const undo = el("button", { type: "button", id: "undo-last" }, T.undoAction);
      undo.addEventListener("click", () => post("review/undo/", { batch: data.batch }).then((d) => {
        if (d) { box.innerHTML = ""; box.append(el("span", {}, `${T.undone}: ${counted(T.occurrences, d.restored.length)}`)); }
      }));
      box.append(" ", undo);
    }
    box.hidden = false;
    flash(`${data.changed.length} ${T.changed}`);
  }

  function flash(msg) {
    const s = document.getElementById("summary");
    s.dataset.flash = msg; s.classList.add("flash");
    setTimeout(() => s.classList.remove("flash"), 1200);
  }

  // -- preview -------------------------------------------------------------------------------
  function refreshImages(preview) {
    document.querySelectorAll("figure.page img").forEach((img) => {
      const base = img.src.split("?")[0];
      img.src = preview ? `${base}?preview=1&t=${Date.now()}` : base;
    });
    document.getElementById("pages").classList.toggle("previewing", preview);
  }
  document.getElementById("preview").addEventListener("change", (e) => refreshImages(e.target.checked));

  // -- manual box ----------------------------------------------------------------------------
  function pointFromEvent(e, sheet, pg) {
    const r = sheet.getBoundingClientRect();
    return [(e.clientX - r.left) / r.width * pg.w, (e.clientY - r.top) / r.height * pg.h];
  }
  Object.entries(pages).forEach(([num, pg]) => {
    const sheet = pg.fig.querySelector(".sheet");
    let start = null; let ghost = null;
    sheet.addEventListener("mousedown", (e) => {
      if (!cfg.editable || mode() !== "box") return;
      e.preventDefault();
      start = pointFromEvent(e, sheet, pg);
      ghost = el("div", { class: "box ghost" });
      sheet.querySelector(".overlay").append(ghost);
    });
    sheet.addEventListener("mousemove", (e) => {
      if (!start) return;
      const [x, y] = pointFromEvent(e, sheet, pg);
      ghost.style.left = pct(Math.min(x, start[0]), pg.w); ghost.style.top = pct(Math.min(y, start[1]), pg.h);
      ghost.style.width = pct(Math.abs(x - start[0]), pg.w); ghost.style.height = pct(Math.abs(y - start[1]), pg.h);
    });
    sheet.addEventListener("mouseup", (e) => {
      if (!start) return;
      const [x, y] = pointFromEvent(e, sheet, pg);
      const box = [parseInt(num, 10), Math.min(x, start[0]), Math.min(y, start[1]), Math.max(x, start[0]), Math.max(y, start[1])];
      start = null; ghost.remove();
      if (box[3] - box[1] >= 2 && box[4] - box[2] >= 2) post("review/manual/", { boxes: [box], ground: ground(), ...claim() });
    });
  });

  // -- text selection ------------------------------------------------------------------------
  const loaded = new Set();
  async function loadWords(num) {
    if (loaded.has(num)) return;
    loaded.add(num);
    const pg = pages[num];
    const r = await fetch(`${cfg.base}pages/${num}/words.json`);
    const data = await r.json();
    const layer = pg.fig.querySelector(".words");
    const sheetHeight = pg.fig.querySelector(".sheet").getBoundingClientRect().height;
    for (const [text, x0, y0, x1, y1] of data.words) {
      const s = el("span", { "data-box": JSON.stringify([parseInt(num, 10), x0, y0, x1, y1]) }, text + " ");
      s.style.left = pct(x0, pg.w); s.style.top = pct(y0, pg.h);
      s.style.width = pct(x1 - x0, pg.w); s.style.height = pct(y1 - y0, pg.h);
      s.style.fontSize = ((y1 - y0) / pg.h * sheetHeight * 0.8).toFixed(1) + "px";
      layer.append(s);
    }
  }
  document.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", () => {
    document.getElementById("pages").dataset.mode = mode();
    if (mode() === "text") Object.keys(pages).forEach(loadWords);
  }));
  document.getElementById("pages").addEventListener("mouseup", () => {
    if (!cfg.editable || mode() !== "text") return;
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed) return;
    const range = sel.getRangeAt(0);
    const words = [...document.querySelectorAll(".words span")].filter((s) => range.intersectsNode(s));
    if (!words.length) return;
    const boxes = words.map((s) => JSON.parse(s.dataset.box));
    const text = words.map((s) => s.textContent.trim()).join(" ");
    sel.removeAllRanges();
    post("review/manual/", { boxes, text, selection: true, learn: learn(), ground: ground(), ...claim() }).then((data) => {
      if (data) report({ ...data, forms: [text] }, "accept");
    });
  });

  // -- buttons and keys ----------------------------------------------------------------------
  document.getElementById("accept-suggested")?.addEventListener("click", () => {
    const ids = proposals.filter((p) => p.suggestion === "redact" && p.decision === "pending").map((p) => p.id);
    if (ids.length) decide(ids, "accept", false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    const order = proposals.map((p) => p.id);
    const at = order.indexOf(current);
    if (e.key === "j" || e.key === "ArrowDown") { select(order[Math.min(order.length - 1, at + 1)], true); e.preventDefault(); }
    else if (e.key === "k" || e.key === "ArrowUp") { select(order[Math.max(0, at - 1)], true); e.preventDefault(); }
    else if (e.key === "p") { const c = document.getElementById("preview"); c.checked = !c.checked; refreshImages(c.checked); }
    else if (!cfg.editable || current === null) return;
    else if (e.key === "a") decide([current], "accept", true);
    else if (e.key === "r") decide([current], "reject", true);
    else if (e.key === "A") decide([current], "accept", false);
    else if (e.key === "R") decide([current], "reject", false);
  });

  render();
  // the watchdog's figure comes after the page: it renders every page of the document
  if (document.querySelector("#watchdog[data-pending]")) refreshWatchdog();
})();

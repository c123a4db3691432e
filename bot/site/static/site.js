// rfd site: theme switch, search box, and the board's filters, sorting and pages.
// No framework, no network: everything comes from this site (board.json, _pagefind/).
"use strict";

(function theme() {
  const saved = localStorage.getItem("rfd-theme");
  if (saved) document.documentElement.dataset.theme = saved;
  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme");
    if (!button) return;
    button.addEventListener("click", () => {
      const dark = getComputedStyle(document.documentElement).colorScheme === "dark";
      const next = dark ? "light" : "dark";
      document.documentElement.dataset.theme = next;
      localStorage.setItem("rfd-theme", next);
    });
  });
})();

window.addEventListener("DOMContentLoaded", () => {
  if (window.PagefindUI && document.getElementById("search")) {
    new window.PagefindUI({
      element: "#search", showSubResults: true, showImages: false, resetStyles: false,
      translations: { placeholder: "Search the RFDs — results open at the section" },
    });
  }
  const rows = document.getElementById("rows");
  const form = document.getElementById("filters");
  if (rows && form) board(rows, form);
});

function board(tbody, form) {
  const root = document.body.dataset.root || "";
  const shown = document.getElementById("shown");
  const pager = document.getElementById("pager");
  let data = null;
  let page = 1;

  const fields = () => Object.fromEntries(new FormData(form).entries());

  function fromUrl() {
    const params = new URLSearchParams(location.search);
    for (const el of form.elements) {
      if (el.name && params.has(el.name)) el.value = params.get(el.name);
    }
    page = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
  }

  function toUrl() {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields())) if (v && !(k === "sort" && v === "id")) params.set(k, v);
    if (page > 1) params.set("page", String(page));
    const query = params.toString();
    history.replaceState(null, "", query ? `?${query}` : location.pathname);
  }

  function matches(row, f) {
    if (f.status && row.status !== f.status) return false;
    if (f.category && row.category !== f.category) return false;
    if (f.author && !row.authors.includes(f.author)) return false;
    if (f.label && !row.labels.includes(f.label)) return false;
    if (f.q && !`${row.id} ${row.title}`.toLowerCase().includes(f.q.toLowerCase())) return false;
    return true;
  }

  const order = ["Draft", "Discussion", "Accepted", "Implemented", "Abandoned", "Superseded"];
  const sorters = {
    id: null,
    updated: (a, b) => (b.updated || "").localeCompare(a.updated || ""),
    status: (a, b) => order.indexOf(a.status) - order.indexOf(b.status),
    title: (a, b) => a.title.localeCompare(b.title),
  };

  function cell(html) { const td = document.createElement("td"); td.append(...html); return td; }
  function text(s, cls) { const el = document.createElement("span"); el.textContent = s; if (cls) el.className = cls; return el; }

  function tr(row) {
    const link = document.createElement("a");
    link.href = `${root}rfd/${encodeURIComponent(row.id)}.html`;
    link.textContent = row.title;
    const title = [link];
    if (row.concerns) title.push(" ", text(`⚑ ${row.concerns}`, "flag"));
    const pill = text(row.word || row.status, `pill st-${row.status.toLowerCase()}`);
    let plan = [text("—", "mute")];
    if (row.progress) {
      const [done, total] = row.progress;
      const bar = document.createElement("span");
      bar.className = "bar"; bar.setAttribute("role", "img");
      bar.setAttribute("aria-label", `${done} of ${total} phases done`);
      const fill = document.createElement("i");
      fill.style.width = `${total ? (100 * done) / total : 0}%`;
      bar.append(fill);
      plan = [bar, " ", text(`${done}/${total}`, "mute")];
    }
    const el = document.createElement("tr");
    const num = cell([row.id]); num.className = "num";
    const cat = cell([row.category]); cat.className = "wide";
    const who = cell([row.authors.join(", ")]); who.className = "wide";
    const when = cell([row.updated]); when.className = "mute";
    el.append(num, cell(title), cell([pill]), cell(plan), cat, who, when);
    return el;
  }

  function button(label, target, disabled) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = label; b.disabled = disabled;
    b.addEventListener("click", () => { page = target; draw(); tbody.closest("table").scrollIntoView(); });
    return b;
  }

  function draw() {
    const f = fields();
    let found = data.rows.filter((row) => matches(row, f));
    if (sorters[f.sort]) found = found.slice().sort(sorters[f.sort]);
    const size = data.page_size;
    const pages = Math.max(1, Math.ceil(found.length / size));
    page = Math.min(page, pages);
    tbody.replaceChildren(...found.slice((page - 1) * size, page * size).map(tr));
    const noun = found.length === 1 ? "RFD" : "RFDs";
    shown.textContent = `${found.length} ${noun}` + (found.length < data.rows.length ? ` of ${data.rows.length}` : "") + (pages > 1 ? `, page ${page} of ${pages}` : "");
    pager.replaceChildren();
    if (pages > 1) {
      pager.append(button("← previous", page - 1, page === 1), text(`page ${page} of ${pages}`, "mute"), button("next →", page + 1, page === pages));
    }
    for (const a of document.querySelectorAll(".counts a")) a.classList.toggle("on", a.dataset.status === f.status);
    toUrl();
  }

  for (const kind of ["input", "change"]) {
    form.addEventListener(kind, () => { page = 1; if (data) draw(); });
  }
  form.addEventListener("submit", (event) => { event.preventDefault(); });
  for (const a of document.querySelectorAll(".counts a")) {
    a.addEventListener("click", (event) => {
      event.preventDefault();
      const select = form.elements.namedItem("status");
      select.value = select.value === a.dataset.status ? "" : a.dataset.status;
      page = 1; draw();
    });
  }
  fromUrl();
  fetch(`${root}board.json`).then((r) => r.json()).then((json) => { data = json; draw(); });
}

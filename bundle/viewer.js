// The bundle's viewer: the list and a trajectory's timeline, drawn from the folder's data scripts.
// Every text from the data is set as text (textContent), never as markup. No request leaves the folder.

(() => {
  const state = { sets: [], rows: null, shown: 100 };

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
    for (const c of children.flat(Number.POSITIVE_INFINITY))
      if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }
  const text = (v) => (v === null || v === undefined ? "" : String(v));
  const folder = (n) => String(Math.floor(n / 1000)).padStart(3, "0");
  const load = (src) => document.body.append(el("script", { src }));

  async function unpack(b64) {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function hashParams() {
    return new URLSearchParams(location.hash.slice(1));
  }

  // The list: filters in the address's hash, a figure's set first when a table's count opened it.
  const FILTERS = [
    ["benchmark", "Benchmark"],
    ["model", "Model"],
    ["network", "Network"],
    ["prompt", "Prompt"],
    ["panel", "Panel verdict"],
    ["gold", "Gold verdict"],
    ["resolved", "Resolved"],
    ["suspect", "Suspect steps"],
  ];
  const value = (r, key) => {
    if (key === "network") return r.network ? "on" : "off";
    if (key === "resolved") return r.resolved === null ? "unknown" : r.resolved ? "yes" : "no";
    if (key === "suspect") return r.suspect > 0 ? "some" : "none";
    return r[key] === null ? "none" : String(r[key]);
  };

  function filtered() {
    const p = hashParams();
    const set = p.has("set") ? state.sets[Number(p.get("set"))] : null;
    const only = set ? new Set(set.here) : null;
    const q = (p.get("q") || "").toLowerCase();
    return {
      set,
      rows: state.rows.filter(
        (r) =>
          (!only || only.has(r.n)) &&
          FILTERS.every(([k]) => !p.get(k) || value(r, k) === p.get(k)) &&
          (!q || `${r.task} ${r.model} ${r.benchmark}`.toLowerCase().includes(q)),
      ),
    };
  }

  function setParam(key, v) {
    const p = hashParams();
    if (v) p.set(key, v);
    else p.delete(key);
    state.shown = 100;
    location.hash = p.toString();
  }

  function filterForm() {
    const p = hashParams();
    const form = el("form", { class: "filters", role: "search", "aria-label": "Filter the trajectories" });
    form.addEventListener("submit", (e) => e.preventDefault());
    for (const [key, label] of FILTERS) {
      const values = [...new Set(state.rows.map((r) => value(r, key)))].sort();
      const select = el(
        "select",
        { id: `f-${key}` },
        el("option", { value: "" }, "any"),
        values.map((v) => el("option", { value: v }, v)),
      );
      select.value = p.get(key) || "";
      select.addEventListener("change", () => setParam(key, select.value));
      form.append(el("label", { for: `f-${key}` }, label, " ", select));
    }
    const search = el("input", { id: "f-q", type: "search", value: p.get("q") || "", placeholder: "task, model…" });
    search.addEventListener("change", () => setParam("q", search.value.trim()));
    form.append(el("label", { for: "f-q" }, "Search ", search));
    return form;
  }

  function listTable(rows) {
    const head = [
      "#",
      "Task",
      "Model",
      "Benchmark",
      "Network",
      "Prompt",
      "Run",
      "Resolved",
      "Panel",
      "Gold",
      "Steps",
      "Suspect",
    ];
    const body = rows.slice(0, state.shown).map((r) =>
      el(
        "tr",
        {},
        el("td", { class: "num" }, el("a", { href: `trajectory.html?n=${r.n}` }, String(r.n))),
        el("td", {}, el("a", { href: `trajectory.html?n=${r.n}` }, r.task)),
        [r.model, r.benchmark, value(r, "network"), r.prompt].map((v) => el("td", {}, text(v))),
        el("td", { class: "num" }, String(r.run)),
        [value(r, "resolved"), text(r.panel || "unjudged"), text(r.gold || "")].map((v) => el("td", {}, v)),
        el("td", { class: "num" }, String(r.steps)),
        el("td", { class: "num" }, String(r.suspect)),
      ),
    );
    return el(
      "section",
      { class: "table-scroll", tabindex: "0", "aria-label": "Trajectories" },
      el(
        "table",
        { class: "list", "aria-label": "Trajectories" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            head.map((h) => el("th", { scope: "col" }, h)),
          ),
        ),
        el("tbody", {}, body),
      ),
    );
  }

  /** The list under the form: drawn again when the hash changes; the form stays (and keeps the focus). */
  function renderList(focusRow) {
    const { set, rows } = filtered();
    const p = hashParams();
    for (const [k] of FILTERS) document.getElementById(`f-${k}`).value = p.get(k) || "";
    document.getElementById("f-q").value = p.get("q") || "";
    document.getElementById("list-status").textContent = set
      ? `The figure counts ${set.all} trajectories; ${set.here.length} of them are in this folder, ` +
        `${rows.length} shown by the filters.`
      : `${rows.length} of the ${state.rows.length} trajectories in this folder.`;
    const more = el("button", { type: "button" }, `Show ${Math.min(100, rows.length - state.shown)} more`);
    more.addEventListener("click", () => {
      state.shown += 100;
      renderList(state.shown - 100);
    });
    const clear = el("a", { href: "#" }, "every trajectory in the folder");
    document
      .getElementById("list-body")
      .replaceChildren(
        set ? el("p", {}, "Only the figure's trajectories; show ", clear) : "",
        listTable(rows),
        rows.length > state.shown ? el("p", { class: "fold" }, more) : "",
      );
    if (focusRow !== undefined) document.querySelectorAll("table.list tbody tr")[focusRow]?.querySelector("a")?.focus();
  }

  // A trajectory: its header, verdicts, votes, evidence, task record and every step, suspect steps marked.
  const verdicts = (v) =>
    Object.entries(v || {})
      .map(([k, x]) => `${k}: ${x}`)
      .join(", ");
  const cites = (evidence) =>
    evidence.length
      ? el(
          "span",
          {},
          "cites ",
          evidence.map((e, i) => [
            i ? ", " : "",
            el("a", { href: `#step-${e.step}` }, `step ${e.step}`),
            e.note ? ` (${e.note})` : "",
          ]),
        )
      : "";

  function votesTable(t) {
    const rows = t.votes.map((v) =>
      el(
        "tr",
        {},
        el(
          "td",
          {},
          `${v.judge} ${v.promptVersion === null ? "(imported)" : `v${v.promptVersion}`}` +
            (v.counted ? "" : " · not counted"),
        ),
        el("td", {}, text(v.overall || v.parseStatus)),
        el("td", {}, verdicts(v.verdicts)),
        el("td", {}, el("div", { class: "rationale" }, text(v.rationale)), cites(v.evidence)),
      ),
    );
    return el(
      "section",
      { class: "table-scroll", tabindex: "0", "aria-label": "Votes" },
      el(
        "table",
        { "aria-label": "Votes" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Judge", "Overall", "By category", "Rationale"].map((h) => el("th", { scope: "col" }, h)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    );
  }

  function cut(shown, length) {
    return length > shown.length ? el("p", { class: "note" }, `Cut: ${length} characters in all.`) : "";
  }

  function message(m) {
    return el(
      "div",
      { class: `message role-${m.role}` },
      el("h4", {}, `${m.role}${m.exitCode === null ? "" : ` · exit ${m.exitCode}`}`),
      m.reasoning
        ? el(
            "details",
            {},
            el("summary", {}, "Reasoning"),
            el("pre", {}, m.reasoning),
            cut(m.reasoning, m.reasoningLength),
          )
        : "",
      m.content ? [el("pre", {}, m.content), cut(m.content, m.contentLength)] : "",
      m.calls.map((c) => [
        el("p", { class: "call" }, `Calls ${c.name}`),
        el("pre", {}, c.input),
        cut(c.input, c.inputLength),
      ]),
    );
  }

  /** A step and its messages; a suspect step says which rules mark it and why. */
  function stepSection(t, n) {
    const mine = t.marks.filter((k) => k.step === n);
    return el(
      "section",
      { id: `step-${n}`, class: `step${mine.length ? " suspect" : ""}`, tabindex: "-1", "aria-label": `Step ${n}` },
      el("h3", {}, `Step ${n}${mine.length ? " · suspect" : ""}`),
      mine.map((k) => el("p", { class: "suspect-mark" }, `${k.rule} (${k.category}): ${k.why}`)),
      state.byStep.get(n).map(message),
    );
  }

  // A long timeline is read a page of steps at a time; a suspect step's link and j / k open its page.
  const STEPS_PER_PAGE = 100;

  function pager(numbers, page) {
    const pages = Math.ceil(numbers.length / STEPS_PER_PAGE);
    if (pages <= 1) return "";
    const first = numbers[page * STEPS_PER_PAGE];
    const last = numbers[Math.min(numbers.length, (page + 1) * STEPS_PER_PAGE) - 1];
    const go = (to, label) => {
      const b = el("button", { type: "button" }, label);
      b.disabled = to < 0 || to >= pages;
      b.addEventListener("click", () => showStep(numbers[to * STEPS_PER_PAGE]));
      return b;
    };
    return el(
      "p",
      { class: "pager" },
      go(page - 1, "Previous steps"),
      ` Steps ${first}–${last} of ${numbers.length} (page ${page + 1} of ${pages}) `,
      go(page + 1, "Next steps"),
    );
  }

  function drawSteps(page) {
    const numbers = state.numbers;
    state.page = page;
    const shown = numbers.slice(page * STEPS_PER_PAGE, (page + 1) * STEPS_PER_PAGE);
    document
      .getElementById("steps")
      .replaceChildren(pager(numbers, page), ...shown.map((n) => stepSection(state.t, n)), pager(numbers, page));
  }

  function showStep(n) {
    const at = state.numbers.indexOf(n);
    if (at < 0) return;
    const page = Math.floor(at / STEPS_PER_PAGE);
    if (page !== state.page) drawSteps(page);
    const section = document.getElementById(`step-${n}`);
    section.focus({ preventScroll: true });
    section.scrollIntoView({ block: "start" });
  }

  function header(t) {
    const gold = t.goldLabel;
    return [
      el("h1", {}, `${t.task} · ${t.model}`),
      el(
        "p",
        {},
        `${t.benchmark} · network ${t.network ? "on" : "off"} · ${t.prompt} · run ${t.run} · ` +
          `resolved ${value(t, "resolved")} · ${t.steps} steps`,
      ),
      el("p", {}, `Panel: ${t.panel || "unjudged"}${t.split ? ` (${t.split})` : ""}. ${verdicts(t.categories)}`),
      gold
        ? el(
            "p",
            { class: "gold" },
            `Gold label by ${gold.by}: ${gold.overall}. ${verdicts(gold.verdicts)}` +
              (gold.note ? `. ${gold.note} ` : " "),
            cites(gold.evidence),
          )
        : el("p", { class: "note" }, "No gold label."),
    ];
  }

  function evidenceList(t) {
    if (!t.evidence.length) return "";
    return [
      el("h2", {}, "Evidence from the task record"),
      el(
        "ul",
        {},
        t.evidence.map((e) =>
          el("li", {}, `${e.kind}: `, el("a", { href: `#step-${e.step}` }, `step ${e.step}`), ` ${e.detail}`),
        ),
      ),
    ];
  }

  function suspectNav(t) {
    const steps = [...new Set(t.marks.map((m) => m.step))];
    return el(
      "p",
      { class: "note", id: "suspect-nav" },
      steps.length
        ? [
            `${steps.length} suspect step(s): `,
            steps.map((s, i) => [i ? ", " : "", el("a", { href: `#step-${s}` }, String(s))]),
            ". j / k: next / previous.",
          ]
        : "No suspect step. j / k: next / previous step.",
    );
  }

  function renderTrajectory(t) {
    document.title = `${t.task} · ${t.model}`;
    const root = document.getElementById("trajectory-root");
    root.replaceChildren(
      ...header(t),
      el("h2", {}, "Votes"),
      t.votes.length ? votesTable(t) : el("p", { class: "note" }, "No votes."),
      ...evidenceList(t),
      el("div", { id: "task-record" }),
      el("h2", {}, "Timeline"),
      suspectNav(t),
      t.patch
        ? el("details", {}, el("summary", {}, "Final patch"), el("pre", {}, t.patch), cut(t.patch, t.patchLength))
        : "",
      el("div", { class: "steps", id: "steps" }),
    );
    state.t = t;
    state.byStep = new Map();
    for (const m of t.messages) state.byStep.set(m.step, [...(state.byStep.get(m.step) || []), m]);
    state.numbers = [...state.byStep.keys()];
    drawSteps(0);
    if (t.k) load(`k/${folder(t.k)}/${t.k}.js`);
    const suspect = [...new Set(t.marks.map((m) => m.step))];
    keys(suspect.length ? suspect : state.numbers);
    const fromHash = () => location.hash.startsWith("#step-") && showStep(Number(location.hash.slice(6)));
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }

  /** j / k: the next or previous of these steps (the suspect ones, else every one). */
  function keys(numbers) {
    let at = -1;
    document.addEventListener("keydown", (e) => {
      if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
      if ((e.key !== "j" && e.key !== "k") || !numbers.length) return;
      at = Math.max(0, Math.min(numbers.length - 1, at + (e.key === "j" ? 1 : -1)));
      showStep(numbers[at]);
    });
  }

  function renderTask(r) {
    const box = document.getElementById("task-record");
    if (!box) return;
    const part = (label, v) => (v ? el("details", {}, el("summary", {}, label), el("pre", {}, v)) : "");
    box.replaceChildren(
      el("h2", {}, "Task record"),
      el(
        "p",
        {},
        [r.key, r.repo, r.baseCommit ? `base ${r.baseCommit}` : null, r.createdAt].filter(Boolean).join(" · "),
      ),
      part("Problem statement", r.problemStatement),
      part("Reference patch", r.patch),
      part("Test patch", r.testPatch),
    );
  }

  const fail = (root, message) =>
    document.getElementById(root)?.replaceChildren(el("p", { class: "warn", role: "alert" }, message));

  window.SA_BUNDLE = {
    sets(list) {
      state.sets = list;
    },
    list(rows) {
      state.rows = rows;
      document.getElementById("list-root").replaceChildren(filterForm(), el("div", { id: "list-body" }));
      renderList();
      window.addEventListener("hashchange", () => renderList());
    },
    open() {
      const n = Number.parseInt(new URLSearchParams(location.search).get("n") || "", 10);
      if (!(n >= 1)) return fail("trajectory-root", "No trajectory named: open one from the list.");
      const script = el("script", { src: `t/${folder(n)}/${n}.js` });
      script.addEventListener("error", () => fail("trajectory-root", `Trajectory ${n} is not in this folder.`));
      document.body.append(script);
    },
    trajectory(n, packed) {
      unpack(packed).then(renderTrajectory, (e) => fail("trajectory-root", `Trajectory ${n} could not be read: ${e}`));
    },
    task(k, packed) {
      unpack(packed).then(renderTask, () => {});
    },
  };
})();

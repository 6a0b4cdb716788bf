// Every result table is one model: the page, CSV, LaTeX and JSON show the same figures. A small
// study (two judges, two prompts, one unparseable answer) is walked through every table and format.
import { describe, expect, it } from "vitest";
import { pageTable, type TableModel, tableCsv, tableJson, tableLatex, type Value } from "./figure-table";
import { networkChange, type PairedRun, pairedChange } from "./paired";
import { type RunOutcome, talliesOf } from "./rates";
import { type ConditionResult, type Prompt, resultRow } from "./results";
import { resultsReportJson } from "./results-format";
import { type ResultsReport, reportTable, TABLE_NAMES } from "./results-tables";
import { csvNumber, latexNumber } from "./table-format";

const FOUR = ["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"];

function condition(prompt: Prompt, runs: RunOutcome[]): ConditionResult {
  const judged = runs.filter((r) => r.panel).length;
  const attempts = { LOCAL_GIT: runs.filter((r) => r.panel && r.panel !== "NOT_ATTEMPTED").length };
  const successes = { LOCAL_GIT: runs.filter((r) => r.panel === "SUCCESSFUL").length };
  return {
    row: resultRow({ benchmark: "b", model: "m", network: true, prompt }, talliesOf(runs)),
    tallies: talliesOf(runs),
    categories: FOUR.map((key) => ({
      key,
      name: key === "LOCAL_GIT" ? "Local git" : key,
      judged,
      attempts: key === "LOCAL_GIT" ? attempts.LOCAL_GIT : 0,
      successes: key === "LOCAL_GIT" ? successes.LOCAL_GIT : 0,
    })),
    unparseable: prompt === "vanilla" ? 1 : 0,
    unparseableTrajectories: prompt === "vanilla" ? 1 : 0,
    judges: [
      { judge: "j1", votes: judged, attempts: attempts.LOCAL_GIT, successes: successes.LOCAL_GIT, unparseable: 0 },
      { judge: "j2", votes: judged, attempts: 0, successes: 0, unparseable: prompt === "vanilla" ? 1 : 0 },
    ],
  };
}

const vanillaRuns: RunOutcome[] = [
  { task: "t1", resolved: true, panel: "SUCCESSFUL" },
  { task: "t2", resolved: false, panel: "ATTEMPTED" },
  { task: "t3", resolved: true, panel: "NOT_ATTEMPTED" },
];
const principledRuns: RunOutcome[] = [
  { task: "t1", resolved: true, panel: "NOT_ATTEMPTED" },
  { task: "t2", resolved: null, panel: null },
  { task: "t3", resolved: true, panel: "NOT_ATTEMPTED" },
];
const paired: PairedRun[] = [
  ...vanillaRuns.map((r) => ({ ...r, run: 1, side: "before" as const })),
  ...principledRuns.map((r) => ({ ...r, run: 1, side: "after" as const })),
];
const report: ResultsReport = {
  conditions: [condition("vanilla", vanillaRuns), condition("principled", principledRuns)],
  changes: [pairedChange({ benchmark: "b", model: "m", network: true }, paired, 200)],
  // Vanilla with the network (the runs above) and without it: t1 no longer exploited, t2 not judged.
  network: [
    networkChange(
      { benchmark: "b", model: "m", prompt: "vanilla" },
      [
        ...vanillaRuns.map((r) => ({ ...r, run: 1, side: "before" as const })),
        ...principledRuns.map((r) => ({ ...r, run: 1, side: "after" as const })),
      ],
      200,
    ),
  ],
  // Of three runs with a task record each: two show evidence under vanilla (one the panel called
  // attempted, one not attempted), one under principled (unjudged), and one principled run the panel
  // called successful shows none (a likely false alarm).
  evidence: [
    {
      ...{ benchmark: "b", model: "m", network: true, prompt: "vanilla" },
      ...{ checked: 3, withEvidence: 2, evidenceAttempt: 1, evidenceNotAttempted: 1, evidenceUnjudged: 0 },
      falseAlarms: 0,
    },
    {
      ...{ benchmark: "b", model: "m", network: true, prompt: "principled" },
      ...{ checked: 3, withEvidence: 1, evidenceAttempt: 0, evidenceNotAttempted: 0, evidenceUnjudged: 1 },
      falseAlarms: 1,
    },
  ],
  // Under vanilla some rule fires on two of three (one a local-git rule, one an upstream rule); none
  // under principled.
  rules: [
    {
      ...{ benchmark: "b", model: "m", network: true, prompt: "vanilla" },
      trajectories: 3,
      fired: { any: 2, UPSTREAM: 1, LOCAL_GIT: 1, MEMORY: 0, OTHER: 0 },
    },
    {
      ...{ benchmark: "b", model: "m", network: true, prompt: "principled" },
      trajectories: 3,
      fired: { any: 0, UPSTREAM: 0, LOCAL_GIT: 0, MEMORY: 0, OTHER: 0 },
    },
  ],
};

/** A CSV cell as the download writes a value. */
const csvOf = (v: Value) => (v === null ? "" : typeof v === "number" ? csvNumber(v) : String(v));

describe("every result table, every format, the same figures", () => {
  it.each(TABLE_NAMES)("%s: CSV and LaTeX write the model's values, the page shows them", (name) => {
    const m: TableModel = reportTable(name, report);
    const values = m.rows.map((r) =>
      m.columns.flatMap((c, i) => c.fields.map((_, j) => r.cells[i]!.values[j] ?? null)),
    );
    const fields = m.columns.flatMap((c) => c.fields);
    expect(m.rows.length).toBeGreaterThan(0);

    const json = tableJson(m);
    expect(json.table).toBe(name);
    expect(json.rows).toEqual(values.map((row) => Object.fromEntries(fields.map((f, i) => [f.key, row[i]]))));

    const csv = tableCsv(m).trimEnd().split("\n");
    expect(csv[0]).toBe(fields.map((f) => f.key).join(","));
    expect(csv.slice(1)).toEqual(values.map((row) => row.map(csvOf).join(",")));

    const tex = tableLatex(m).split("\n");
    const body = tex.slice(tex.indexOf("\\midrule") + 1, tex.indexOf("\\bottomrule")).filter((l) => l !== "\\midrule");
    expect(body).toHaveLength(values.length);
    body.forEach((line, r) => {
      const cells = line.replace(/ \\\\$/, "").split(" & ");
      const shown = fields.flatMap((f, i) => (f.tex ? [{ f, v: values[r]![i]! }] : []));
      expect(cells).toEqual(
        shown.map(({ f, v }) =>
          typeof v === "number"
            ? latexNumber(v, f.digits ?? 1)
            : v === null
              ? "---"
              : v === true
                ? "\\checkmark"
                : String(v),
        ),
      );
    });

    // The page: each shown column's figure sorts by the value the downloads carry for it.
    const page = pageTable(m, "id", "title");
    const onPage = m.columns.flatMap((c, i) => (c.onPage === false ? [] : [{ c, i }]));
    expect(page.columns.map((c) => c.key)).toEqual(onPage.map(({ c }) => c.key));
    m.rows.forEach((row, r) => {
      onPage.forEach(({ c, i }, shownAt) => {
        const v = row.cells[i]!.values[c.shows ?? 0] ?? null;
        const sort = page.rows[r]!.cells[shownAt]!.sort;
        expect(typeof v === "boolean" ? true : sort, `${name} ${c.key}`).toEqual(typeof v === "boolean" ? true : v);
      });
    });
  });

  it("the evidence table's rows come in the result table's order, whatever order they are read in", () => {
    const reversed = reportTable("evidence", { ...report, evidence: [...report.evidence].reverse() });
    expect(reversed.rows.map((r) => r.cells[3]!.values[0])).toEqual(["vanilla", "principled"]);
  });

  it("the JSON carries the models' values", () => {
    // biome-ignore lint/suspicious/noExplicitAny: the JSON is walked by its documented keys
    const json = resultsReportJson(report) as Array<Record<string, any>>;
    const result = reportTable("results", report);
    result.rows.forEach((row, r) => {
      result.columns.forEach((c, i) => {
        c.fields.forEach((f, j) => {
          const v = row.cells[i]!.values[j];
          const ci = /^(.*)_ci_(low|high)$/.exec(f.key);
          if (ci) expect(json[r]!.ci95[ci[1]!]?.[ci[2] === "low" ? 0 : 1] ?? null).toBe(v);
          else expect(json[r]![f.key]).toBe(v);
        });
      });
    });
    const categories = reportTable("categories", report);
    const upstream = categories.columns.findIndex((c) => c.key === "LOCAL_GIT-a");
    expect(json.map((o) => o.categories.LOCAL_GIT.attempt_rate)).toEqual(
      categories.rows.map((row) => row.cells[upstream]!.values[1]),
    );
    const changes = reportTable("changes", report);
    const attempt = changes.columns.findIndex((c) => c.key === "attempt_rate");
    const [change, low, high, pairs, b, c, p] = changes.rows[0]!.cells[attempt]!.values;
    expect(json[1]!.change_from_vanilla.attempt_rate).toMatchObject({
      change,
      ci95: [low, high],
      mcnemar: { pairs, b, c, p },
    });
    // By hand: two pairs judged under both prompts (t1, t3); t1 attempted under vanilla only: b = 1, c = 0.
    expect([pairs, b, c]).toEqual([2, 1, 0]);
    const judges = reportTable("judges", report);
    expect(json[0]!.judges.map((j: { judge: string; votes: number }) => [j.judge, j.votes])).toEqual(
      judges.rows.slice(0, 2).map((row) => [row.cells[4]!.values[0], row.cells[5]!.values[0]]),
    );
    // Evidence: the evidence table's values, 2 of 3 runs with evidence under vanilla = 66.7 %.
    const evidence = tableJson(reportTable("evidence", report)).rows;
    expect(json.map((o) => o.evidence)).toEqual(
      evidence.map(({ benchmark: _b, model: _m, network: _n, prompt: _p, ...figures }) => figures),
    );
    expect(json[0]!.evidence).toMatchObject({ checked: 3, with_evidence: 2, evidence_panel_not_attempted: 1 });
    expect(json[0]!.evidence.with_evidence_pct).toBeCloseTo(200 / 3, 9);
    expect(json[1]!.evidence).toMatchObject({ evidence_unjudged: 1, likely_false_alarms: 1 });
    expect(json.map((o) => o.unparseable_votes)).toEqual(
      reportTable("unparseable", report).rows.map((row) => row.cells.at(-2)!.values[0]),
    );
  });

  it("rule hits: each count a share of the condition's trajectories, opening exactly those", () => {
    const m = reportTable("rules", report);
    const vanilla = m.rows.find((r) => r.key.includes("vanilla"))!;
    const byKey = (k: string) => vanilla.cells[m.columns.findIndex((c) => c.key === k)]!;
    // Two of three: 66.7 %; one of three for each of the two categories.
    expect(byKey("fired_any")).toMatchObject({ text: "2 (66.7%)", count: 2 });
    expect(byKey("fired_any").href).toContain("suspect=any");
    expect(byKey("fired_local_git")).toMatchObject({ text: "1 (33.3%)", count: 1 });
    expect(byKey("fired_local_git").href).toContain("suspect=LOCAL_GIT");
    expect(byKey("fired_any").values).toEqual([2, 200 / 3]);
  });
});

describe("an interval read with its note", () => {
  it("Pass@k at fewer than ten tasks says so; the exploit rates' Wilson intervals stand alone", () => {
    const page = pageTable(reportTable("results", report), "id", "title");
    const principled = page.rows.find((r) => r.key.includes("principled"))!;
    const cell = (key: string) => principled.cells[page.columns.findIndex((c) => c.key === key)]!;
    // Principled: t1 and t3 resolved, t2 of unknown status: two tasks of known status, both resolved.
    expect(cell("pass_at_1").text).toBe("100.0%");
    expect(cell("pass_at_1").sub).toBe("100.0 to 100.0");
    expect(cell("pass_at_1").parts).toEqual([{ text: "n = 2 tasks" }]);
    expect(cell("attempt_rate").parts).toBeUndefined();
  });
});

// Every agreement table is one model: the page, CSV, LaTeX and JSON show the same figures, κ written
// one way. A small report (two annotators, two judges, a gold label) is walked through every format.

import { describe, expect, it } from "vitest";
import { binaryAgreement } from "./agreement";
import { agreementCsv, agreementDownload, agreementJson, agreementLatex } from "./agreement-format";
import { kappaInterval, kappaNote, kappaText } from "./agreement-model";
import { agreementReport, type GoldPoint, goldByCategory, type LabelPoint } from "./agreement-report";
import { agreementTables } from "./agreement-tables";
import { pageTable } from "./figure-table";
import { csvCell, latexNumber } from "./table-format";

const point = (p: Partial<LabelPoint> & Pick<LabelPoint, "trajectoryId" | "human" | "panel">): LabelPoint => ({
  annotator: "alice",
  judges: { j1: p.panel ?? "NOT_ATTEMPTED", j2: "ATTEMPTED" },
  benchmark: "b",
  model: "m",
  network: true,
  prompt: "vanilla",
  ...p,
});
const labels: LabelPoint[] = [
  point({ trajectoryId: 1, human: "SUCCESSFUL", panel: "SUCCESSFUL" }),
  point({ trajectoryId: 2, human: "ATTEMPTED", panel: "NOT_ATTEMPTED" }),
  point({ trajectoryId: 3, human: "NOT_ATTEMPTED", panel: "NOT_ATTEMPTED", prompt: "principled" }),
  point({ trajectoryId: 4, human: "NOT_ATTEMPTED", panel: "ATTEMPTED", prompt: "principled" }),
  point({ trajectoryId: 1, human: "SUCCESSFUL", panel: "SUCCESSFUL", annotator: "bob" }),
];
const gold: GoldPoint[] = [
  {
    trajectoryId: 1,
    gold: "SUCCESSFUL",
    panel: "SUCCESSFUL",
    judges: { j1: "SUCCESSFUL" },
    network: true,
    prompt: "vanilla",
  },
  {
    trajectoryId: 2,
    gold: "ATTEMPTED",
    panel: "NOT_ATTEMPTED",
    judges: { j1: "NOT_ATTEMPTED" },
    network: true,
    prompt: "vanilla",
  },
];
const report = agreementReport(labels, gold);

describe("every agreement table, every format, the same figures", () => {
  const model = agreementDownload(report);
  const fields = model.columns.flatMap((c) => c.fields);
  const values = model.rows.map((r) =>
    model.columns.flatMap((c, i) => c.fields.map((_, j) => r.cells[i]!.values[j] ?? null)),
  );

  it("the download holds every table's rows, each group twice (attempt, success)", () => {
    const tables = agreementTables(report);
    expect(tables.map((t) => t.id)).toEqual([
      "agreement-conditions",
      "agreement-models",
      "agreement-judges",
      "agreement-gold",
    ]);
    expect(model.rows.map((r) => r.key)).toEqual(tables.flatMap((t) => t.model.rows.map((r) => r.key)));
    // Overall and 2 conditions; 1 model and 1 benchmark; the panel and 2 judges; against gold: the panel, its 1
    // condition, j1 (the only judge whose verdicts the gold points carry), and alice and bob (both labelled 1).
    expect(model.rows).toHaveLength(2 * (3 + 2 + 3 + (1 + 1 + 1 + 2)));
  });

  it("CSV writes the model's values, then the annotators' alpha", () => {
    const csv = agreementCsv(report).trimEnd().split("\n");
    expect(csv[0]).toBe(fields.map((f) => f.key).join(","));
    expect(csv.slice(1, -1)).toEqual(values.map((row) => row.map(csvCell).join(",")));
    expect(csv[3]).toMatch(/^condition,"network on ✓, vanilla",attempt,3,/);
    expect(csv.at(-1)).toBe(
      `inter_annotator,krippendorff_alpha_nominal,overall,1,,${report.inter_annotator.alpha ?? ""},,,,,,`,
    );
  });

  it("LaTeX writes the same values, rounded", () => {
    const tex = agreementLatex(report).split("\n");
    const body = tex.slice(tex.indexOf("\\midrule") + 1, tex.indexOf("\\bottomrule")).filter((l) => l !== "\\midrule");
    expect(body).toHaveLength(values.length);
    body.forEach((line, r) => {
      const shown = fields.flatMap((f, i) => (f.tex ? [{ f, v: values[r]![i]! }] : []));
      expect(line.replace(/ \\\\$/, "").split(" & ")).toEqual(
        shown.map(({ f, v }) =>
          typeof v === "number" ? latexNumber(v, f.digits ?? 1) : v === null ? "---" : String(v),
        ),
      );
    });
    expect(tex.at(-2)).toMatch(/^% Krippendorff's alpha/);
  });

  it("the page shows each figure, κ with its interval written one way", () => {
    const t = agreementTables(report, { study: null, query: "" })[0]!;
    const page = pageTable(t.model, "id", "title");
    const overall = page.rows[0]!;
    expect(page.columns.map((c) => c.key)).toEqual(t.model.columns.filter((c) => c.onPage !== false).map((c) => c.key));
    const k = report.overall.attempt;
    expect(overall.cells.find((_, i) => page.columns[i]!.key === "kappa")).toMatchObject({
      text: kappaText(k.kappa),
      sub: kappaInterval(k.kappa_ci),
    });
    // The human tables' counts open the labels they counted: both positive counts alice's and bob's labels on 1.
    const both = overall.cells.find((_, i) => page.columns[i]!.key === "both_positive")!;
    expect(both).toMatchObject({
      text: "2",
      count: 2,
      href: "/agreement/labels?group=all&q=attempt&cell=both_positive",
    });
  });

  it("the JSON carries the same figures", () => {
    const json = agreementJson(report) as { overall: typeof report.overall; gold: typeof report.gold };
    const first = model.rows[0]!.cells;
    const at = (key: string) => first[model.columns.findIndex((c) => c.key === key)]!.values;
    expect(at("n")).toEqual([json.overall.attempt.n]);
    expect(at("kappa")).toEqual([json.overall.attempt.kappa, ...(json.overall.attempt.kappa_ci ?? [null, null])]);
    expect(at("human_only")).toEqual([json.overall.attempt.human_only]);
    const goldRow = model.rows.find((r) => r.key.startsWith("gold\u0000panel\u0000attempt"))!;
    expect(goldRow.cells[model.columns.findIndex((c) => c.key === "judges_only")]!.values).toEqual([
      json.gold!.panel.attempt.judges_only,
    ]);
  });
});

describe("a κ not read alone", () => {
  it("says why beside a high raw agreement, at few pairs, and when every pair is on one side", () => {
    // 9 both negative, 1 human only: p_o = 0.9, p_e = (1·0 + 9·10)/100 = 0.9, κ = 0.
    const prevalence = binaryAgreement([
      [false, false, 9],
      [true, false, 1],
    ]);
    expect(prevalence.kappa).toBeCloseTo(0, 12);
    expect(kappaNote(prevalence)).toBe(
      "κ beside 90.0% raw agreement: nearly every pair is on one side (expected agreement 0.90), " +
        "so κ is low by prevalence",
    );
    // 2 and 2: p_e = 0.5, κ = 1, but n = 4.
    const few = binaryAgreement([
      [true, true, 2],
      [false, false, 2],
    ]);
    expect(kappaNote(few)).toBe("n = 4: too few pairs for the interval to say much");
    // 10 and 10 alike: nothing to say.
    expect(
      kappaNote(
        binaryAgreement([
          [true, true, 10],
          [false, false, 10],
        ]),
      ),
    ).toBeNull();
    // Every pair negative: p_e = 1, κ undefined.
    expect(kappaNote(binaryAgreement([[false, false, 5]]))).toBe("undefined: every pair on one side (n = 5)");
    expect(kappaNote(binaryAgreement([]))).toBeNull();
  });
});

describe("against gold by category", () => {
  it("is one table after the gold one: each category's panel, judges and annotators, in the pairs' order", () => {
    const pair = (category: string, kind: "panel" | "judge" | "annotator", rater: string, human: "SUCCESSFUL") => ({
      category,
      name: category === "TT" ? "Test tampering" : "Upstream",
      kind,
      rater,
      human,
      panel: "NOT_ATTEMPTED" as const,
      count: 2,
    });
    const byCategory = goldByCategory([
      pair("UPSTREAM", "panel", "", "SUCCESSFUL"),
      pair("TT", "panel", "", "SUCCESSFUL"),
      pair("TT", "judge", "j1", "SUCCESSFUL"),
      pair("TT", "annotator", "alice", "SUCCESSFUL"),
    ]);
    const withCategories = { ...report, gold: { ...report.gold!, by_category: byCategory } };
    const tables = agreementTables(withCategories);
    expect(tables.map((t) => t.id).slice(-2)).toEqual(["agreement-gold", "agreement-gold-categories"]);
    const rows = tables.at(-1)!.model.rows.filter((_, i) => i % 2 === 0);
    expect(rows.map((r) => r.cells[1]!.values[0])).toEqual([
      "Upstream · panel",
      "Test tampering · panel",
      "Test tampering · judge j1",
      "Test tampering · annotator alice",
    ]);
    // Gold successful twice, the rater not: 2 gold only in both questions.
    expect(byCategory[1]).toMatchObject({ attempt: { n: 2, human_only: 2 }, success: { n: 2, human_only: 2 } });
    expect(agreementCsv(withCategories)).toContain("gold_category,Test tampering · judge j1,attempt,2,0,");
  });
});

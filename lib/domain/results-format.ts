// The result tables as downloads: JSON per docs/formats.md, and each table's CSV, LaTeX and JSON.

import { evidenceModel } from "./evidence-table";
import { tableCsv, tableJson, tableLatex } from "./figure-table";
import { isBinary, type PairedChange, type PairedStats } from "./paired";
import { type ConditionResult, categoryRate, judgeRates, RATE_KEYS, type RateKey, type ResultRow } from "./results";
import { type ResultsReport, reportTable, resolvedWithout, TABLE_NAMES, type TableName } from "./results-tables";

export function resultsJson(rows: readonly ResultRow[]): Array<Record<string, unknown>> {
  return rows.map((r) => ({
    benchmark: r.benchmark,
    model: r.model,
    network: r.network,
    prompt: r.prompt,
    trajectories: r.trajectories,
    tasks: r.tasks,
    judged: r.judged,
    pass_at_1: r.pass_at_1,
    pass_at_3: r.pass_at_3,
    attempt_rate: r.attempt_rate,
    success_rate: r.success_rate,
    resolved_exploit_rate: r.resolved_exploit_rate,
    ci95: Object.fromEntries(
      RATE_KEYS.map((k) => [k, r.intervals[k] ? [r.intervals[k]!.low, r.intervals[k]!.high] : null]),
    ),
  }));
}

/** The JSON's added keys on a condition's object (the contract's keys stay first and unrenamed). */
export function conditionExtras(r: ConditionResult, change: PairedChange | undefined): Record<string, unknown> {
  const interval = (i: { low: number; high: number } | null) => (i ? [i.low, i.high] : null);
  return {
    categories: Object.fromEntries(
      r.categories.map((c) => {
        const rate = categoryRate(r.categories, c.key);
        return [
          c.key,
          {
            judged: c.judged,
            attempts: c.attempts,
            successes: c.successes,
            attempt_rate: rate.attempt_rate,
            success_rate: rate.success_rate,
            ci95: { attempt_rate: interval(rate.attempt), success_rate: interval(rate.success) },
          },
        ];
      }),
    ),
    judges: r.judges.map((j) => {
      const jr = judgeRates(j);
      return { ...j, attempt_rate: jr.attempt_rate, success_rate: jr.success_rate };
    }),
    unparseable_votes: r.unparseable,
    unparseable_trajectories: r.unparseableTrajectories,
    ...(change ? { change_from_vanilla: changeJson(change, ["vanilla_yes", "principled_yes"]) } : {}),
  };
}

const OFF: [string, string] = ["on_yes", "off_yes"];

/** A paired change as JSON, McNemar's yes counts named for the two sides. */
function changeJson(change: PairedStats, [before, after]: [string, string]) {
  return {
    tasks: change.tasks,
    ...Object.fromEntries(
      RATE_KEYS.map((k: RateKey) => {
        const b = change.bootstrap[k];
        const m = isBinary(k) ? change.mcnemar[k] : null;
        const mcnemar = m && {
          pairs: m.pairs,
          [before]: m.before_yes,
          [after]: m.after_yes,
          b: m.b,
          c: m.c,
          change: m.change,
          p: m.p,
        };
        return [
          k,
          {
            change: b.change,
            ci95: b.low === null ? null : [b.low, b.high],
            resamples: b.resamples,
            ...(m && { mcnemar }),
          },
        ];
      }),
    ),
  };
}

/** The JSON download: docs/formats.md's objects, each with its breakdowns and, if principled, its paired change. */
export function resultsReportJson(report: ResultsReport): Array<Record<string, unknown>> {
  const changes = new Map(report.changes.map((c) => [`${c.benchmark}\u0000${c.model}\u0000${c.network}`, c]));
  const offline = new Map((report.network ?? []).map((c) => [`${c.benchmark}\u0000${c.model}\u0000${c.prompt}`, c]));
  // Each condition's evidence is its row of the evidence table's JSON, without the condition's keys.
  const evidence = new Map(
    tableJson(evidenceModel(report.evidence)).rows.map(({ benchmark, model, network, prompt, ...figures }) => [
      `${benchmark}\u0000${model}\u0000${network}\u0000${prompt}`,
      figures,
    ]),
  );
  return resultsJson(report.conditions.map((c) => c.row)).map((o, i) => {
    const c = report.conditions[i]!;
    const { benchmark, model, network, prompt } = c.row;
    const change = prompt === "principled" ? changes.get(`${benchmark}\u0000${model}\u0000${network}`) : undefined;
    const without = resolvedWithout(c.tallies);
    return {
      ...o,
      resolved_without_exploit_rate: without.rate,
      ci95: {
        ...(o.ci95 as Record<string, unknown>),
        resolved_without_exploit_rate: without.interval ? [without.interval.low, without.interval.high] : null,
      },
      ...conditionExtras(c, change),
      ...(offline.has(`${benchmark}\u0000${model}\u0000${prompt}`) && !network
        ? { change_from_network_on: changeJson(offline.get(`${benchmark}\u0000${model}\u0000${prompt}`)!, OFF) }
        : {}),
      evidence: evidence.get(`${benchmark}\u0000${model}\u0000${network}\u0000${prompt}`) ?? null,
    };
  });
}

export function resultsTableJson(report: ResultsReport, table: TableName): ReturnType<typeof tableJson> {
  return tableJson(reportTable(table, report));
}

/** One table (or "all", one after another) as CSV or LaTeX, each written from its model. */
export function resultsTable(report: ResultsReport, format: "csv" | "latex", table: TableName | "all"): string {
  const one = (name: TableName) => (format === "csv" ? tableCsv : tableLatex)(reportTable(name, report));
  if (table !== "all") return one(table);
  return TABLE_NAMES.map((name) => (format === "csv" ? `# ${name}\n${one(name)}` : one(name))).join("\n");
}

// The evidence report: JSON one object per trajectory with a task record, by id; CSV one row per item.
import type { EvidenceKind } from "./evidence";
import type { NaturalKey } from "./natural-key";
import { csvCell } from "./table-format";

export type EvidenceReportRow = {
  trajectory: { id: string | null } & NaturalKey;
  patch_similarity: number | null;
  items: Array<{ kind: EvidenceKind; step: number; category: string | null; detail: string }>;
};

const KEY = ["benchmark", "model", "task", "network", "prompt", "run"] as const;

/** By id (a trajectory without one after those with), then by natural key. */
export function sortEvidence(rows: EvidenceReportRow[]): EvidenceReportRow[] {
  const key = (r: EvidenceReportRow) => [
    r.trajectory.id === null ? 1 : 0,
    r.trajectory.id ?? "",
    ...KEY.map((k) => r.trajectory[k]),
  ];
  return rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    for (let i = 0; i < x.length; i++) {
      if (x[i]! < y[i]!) return -1;
      if (x[i]! > y[i]!) return 1;
    }
    return 0;
  });
}

export const evidenceJson = (rows: readonly EvidenceReportRow[]) => `${JSON.stringify(rows, null, 2)}\n`;

const CSV_COLUMNS = ["id", ...KEY, "patch_similarity", "kind", "step", "category", "detail"] as const;

export function evidenceCsv(rows: readonly EvidenceReportRow[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of rows) {
    const head = [r.trajectory.id, ...KEY.map((k) => r.trajectory[k]), r.patch_similarity];
    const items = r.items.length ? r.items : [null];
    for (const i of items) lines.push([...head, i?.kind, i?.step, i?.category, i?.detail].map(csvCell).join(","));
  }
  return `${lines.join("\n")}\n`;
}

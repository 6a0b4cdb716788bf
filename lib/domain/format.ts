// Display formatting shared by pages and exports. Undefined figures (null) show as an em dash.

export const UNDEFINED_FIGURE = "—";

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** A count and its noun, singular for one: "1 trajectory", "2 trajectories" (`plural`: else noun + s). */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : plural}`;
}

/** A size in bytes for people: 512 B, 3.0 KB, 256.0 MB, 2.70 GB (binary units). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/** A moment as people read it in tables: "2026-12-01 04:26" (UTC), with seconds if asked. */
export function formatTime(d: Date, seconds = false): string {
  return d
    .toISOString()
    .slice(0, seconds ? 19 : 16)
    .replace("T", " ");
}

export function formatPercent(p: number | null, digits = 1): string {
  return p === null || !Number.isFinite(p) ? UNDEFINED_FIGURE : `${p.toFixed(digits)}%`;
}

/** A form's validation issues in one line each field: "field: message" (a prefix such as "--" for options). */
export function issuesText(
  issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>,
  prefix = "",
  separator = "; ",
): string {
  return issues.map((i) => `${prefix}${i.path.map(String).join(".") || "form"}: ${i.message}`).join(separator);
}

/** What an import wrote, as the command line and the Import page both say it. */
export type WrittenCounts = {
  trajectories: number;
  replaced: number;
  unchanged: number;
  votes: number;
  unparseable: number;
  labels: number;
  gold: number;
  taskRecords: number;
};

/** "3 trajectories (1 replaced, 2 unchanged), 6 judge votes (0 unparseable), 2 labels, …" */
export function writtenText(c: WrittenCounts): string {
  const kept = c.unchanged ? `, ${c.unchanged} unchanged` : "";
  return (
    `${countOf(c.trajectories, "trajectory", "trajectories")} (${c.replaced} replaced${kept}), ` +
    `${countOf(c.votes, "judge vote")} (${c.unparseable} unparseable), ${countOf(c.labels, "label")}` +
    (c.gold ? `, ${countOf(c.gold, "gold label")}` : "") +
    (c.taskRecords ? `, ${countOf(c.taskRecords, "task record")}` : "")
  );
}

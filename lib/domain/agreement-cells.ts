// The labels behind each count of the human tables (protocol §4), so a cell's list always has its count.
import type { LabelPoint } from "./agreement-report";
import { isAttempt, isSuccess, type Verdict } from "./verdicts";

export const CELLS = ["both_positive", "both_negative", "human_only", "judges_only"] as const;
export type Cell = (typeof CELLS)[number];
export type Question = "attempt" | "success";

/** A group as its URL says it: all | condition:on|off:vanilla|principled | model:X | benchmark:X | judge:X | gold:X. */
export type Group =
  | { kind: "all" }
  | { kind: "condition"; network: boolean; prompt: string }
  | { kind: "model" | "benchmark" | "judge" | "gold"; name: string };

export function parseGroup(text: string | null | undefined): Group | null {
  if (!text || text === "all") return { kind: "all" };
  const [kind, ...rest] = text.split(":");
  const value = rest.join(":");
  if (kind === "condition") {
    const [net, prompt] = value.split(":");
    if ((net !== "on" && net !== "off") || (prompt !== "vanilla" && prompt !== "principled")) return null;
    return { kind, network: net === "on", prompt };
  }
  if ((kind === "model" || kind === "benchmark" || kind === "judge" || kind === "gold") && value)
    return { kind, name: value };
  return null;
}

export function groupText(g: Group): string {
  if (g.kind === "all") return "all";
  if (g.kind === "condition") return `condition:${g.network ? "on" : "off"}:${g.prompt}`;
  return `${g.kind}:${g.name}`;
}

const answer = (q: Question, v: Verdict) => (q === "attempt" ? isAttempt(v) : isSuccess(v));

/** The labels a count counted: judged ones in the group, human and rater answering as the cell says. */
export function cellLabels(points: readonly LabelPoint[], group: Group, q: Question, cell: Cell): LabelPoint[] {
  if (group.kind === "gold")
    // The gold label takes the human's part, the annotator's label the rater's (agreement-report.ts).
    return points.filter(
      (p) => p.annotator === group.name && !!p.gold && inCell(cell, answer(q, p.gold), answer(q, p.human)),
    );
  const rater = (p: LabelPoint): Verdict | null | undefined =>
    group.kind === "judge" ? p.judges[group.name] : p.panel;
  const inGroup = (p: LabelPoint) =>
    p.panel !== null &&
    (group.kind === "all" ||
      group.kind === "judge" ||
      (group.kind === "condition" && p.network === group.network && p.prompt === group.prompt) ||
      (group.kind === "model" && p.model === group.name) ||
      (group.kind === "benchmark" && p.benchmark === group.name));
  return points.filter((p) => {
    const r = rater(p);
    return inGroup(p) && r != null && inCell(cell, answer(q, p.human), answer(q, r));
  });
}

function inCell(cell: Cell, reference: boolean, rater: boolean): boolean {
  if (cell === "both_positive") return reference && rater;
  if (cell === "both_negative") return !reference && !rater;
  return cell === "human_only" ? reference && !rater : !reference && rater;
}

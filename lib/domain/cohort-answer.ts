// A cohort's one answer split back into each run's: by its label, in any order; a run left out has none. Pure.
import { answerCandidates, tryJson } from "./judge-answer";

export const cohortLabels = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${String.fromCharCode(65 + (i % 26))}${i >= 26 ? Math.floor(i / 26) + 1 : ""}`);

const runKey = (key: string) =>
  key
    .trim()
    .replace(/^run[\s_-]*/i, "")
    .toUpperCase();

/** Each label's object as JSON text, found under "runs" (or at the top); null where the answer gives none. */
export function splitCohortAnswer(raw: string, labels: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>(labels.map((l) => [l, null]));
  for (const candidate of answerCandidates(raw)) {
    const value = tryJson(candidate);
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    const obj = value as Record<string, unknown>;
    const runs = obj.runs && typeof obj.runs === "object" ? (obj.runs as Record<string, unknown>) : obj;
    const found = Array.isArray(runs)
      ? runs.flatMap((r) => (r && typeof r === "object" && "run" in r ? [[String(r.run), r] as const] : []))
      : Object.entries(runs);
    let any = false;
    for (const [key, v] of found) {
      const label = runKey(key);
      if (out.has(label) && v && typeof v === "object") {
        out.set(label, JSON.stringify(v));
        any = true;
      }
    }
    if (any) return out;
  }
  return out;
}

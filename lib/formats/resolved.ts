// Resolved status from SWE-bench report.json or run reports (`resolved`, `resolved_ids`, `ids_resolved`).
import { isObj } from "@/lib/formats/agents/common";

export type ResolvedLookup = (taskId: string) => boolean | null;

/** The list of resolved instance ids, under each name it has in run reports. */
const RESOLVED_LISTS = ["resolved", "resolved_ids", "ids_resolved"];

/** Lists in run reports that name evaluated instances (resolved or not). */
const EVALUATED_LISTS = [
  "completed_ids",
  "submitted_ids",
  "unresolved_ids",
  "error_ids",
  "empty_patch_ids",
  "incomplete_ids",
  "ids_unresolved",
];

export function resolvedLookup(doc: unknown, fileName: string): ResolvedLookup {
  const listed = isObj(doc) ? RESOLVED_LISTS.find((k) => Array.isArray(doc[k])) : undefined;
  if (isObj(doc) && listed) {
    const resolved = new Set((doc[listed] as unknown[]).map(String));
    const lists = EVALUATED_LISTS.filter((k) => Array.isArray(doc[k]));
    const evaluated = new Set(lists.flatMap((k) => (doc[k] as unknown[]).map(String)));
    // With lists of evaluated ids, an id in none of them was not evaluated; without them, every unlisted id failed.
    return (id) => (resolved.has(id) ? true : lists.length === 0 || evaluated.has(id) ? false : null);
  }
  if (isObj(doc) && typeof doc.resolved === "boolean") {
    const flat = doc.resolved;
    return () => flat;
  }
  if (isObj(doc)) {
    const entries = Object.entries(doc).filter(([, v]) => isObj(v) && typeof v.resolved === "boolean");
    if (entries.length) {
      const map = new Map(entries.map(([k, v]) => [k, (v as { resolved: boolean }).resolved]));
      return (id) => map.get(id) ?? null;
    }
  }
  throw new Error(
    `${fileName}: not a SWE-bench report.json ({instance_id: {resolved}} or {resolved: true|false}) nor a ` +
      `run report listing the resolved ids ("resolved", "resolved_ids" or "ids_resolved")`,
  );
}

export function combineLookups(lookups: readonly ResolvedLookup[]): ResolvedLookup {
  return (id) => {
    for (const l of lookups) {
      const r = l(id);
      if (r !== null) return r;
    }
    return null;
  };
}

// The trajectory list's filters, as they stand in the URL (the URL is the state, so a link
// reproduces the view). Each parameter is read on its own: a bad one falls back to "any".
import { z } from "zod";
import { CATEGORIES, VERDICTS } from "./verdicts";

const text = z.string().trim().min(1).max(500);
const anyOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

export const PAGE_SIZE = 50;
export const SORTS = ["task", "model", "steps", "run", "panel", "votes"] as const;

const FIELDS = {
  /** Free text, found in commands and in the start of tool outputs. */
  q: z.string().trim().min(2).max(200),
  benchmark: text,
  model: text,
  task: text,
  network: anyOf(["on", "off"]),
  prompt: anyOf(["vanilla", "principled"]),
  run: z.coerce.number().int().min(1),
  resolved: anyOf(["yes", "no", "unknown"]),
  /** "attempt": ATTEMPTED or SUCCESSFUL; "judged"/"unjudged": any verdict / none. */
  panel: anyOf(["attempt", "no-success", "judged", "unjudged", ...VERDICTS]),
  category: anyOf(CATEGORIES),
  /** The verdict the chosen category's panel must have ("attempt": ATTEMPTED or SUCCESSFUL). */
  categoryVerdict: anyOf(["attempt", ...VERDICTS]),
  split: anyOf(["UNANIMOUS", "MAJORITY", "NO_MAJORITY"]),
  /** A judge by name, and (optionally) the overall verdict that judge gave ("attempt": ATTEMPTED or SUCCESSFUL). */
  judge: text,
  judgeVerdict: anyOf(["attempt", ...VERDICTS]),
  unparseable: anyOf(["yes", "no"]),
  /** Some human label says (or does not say) an exploit was attempted / successful. */
  human: anyOf(["attempt", "no-attempt", "success", "no-success"]),
  labelled: anyOf(["yes", "no"]),
  sort: anyOf(SORTS),
  dir: anyOf(["asc", "desc"]),
  page: z.coerce.number().int().min(1),
} as const;

export type TrajectoryFilter = { [K in keyof typeof FIELDS]?: z.output<(typeof FIELDS)[K]> };

export const FILTER_KEYS = Object.keys(FIELDS) as Array<keyof typeof FIELDS>;

/** Reads the filter from URL search params; unknown or bad values are left out. */
export function parseTrajectoryFilter(params: Record<string, string | string[] | undefined> | URLSearchParams): TrajectoryFilter {
  const get = (k: string) => (params instanceof URLSearchParams ? params.get(k) ?? undefined : [params[k]].flat()[0]);
  const out: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    const raw = get(key);
    if (raw === undefined || raw === "") continue;
    const parsed = FIELDS[key].safeParse(raw);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as TrajectoryFilter;
}

/** The list's URL for a filter: the link every drill-down uses. */
export function trajectoriesHref(filter: TrajectoryFilter): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const v = filter[key];
    if (v !== undefined) params.set(key, String(v));
  }
  const q = params.toString();
  return q ? `/trajectories?${q}` : "/trajectories";
}

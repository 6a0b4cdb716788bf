// The list's filters as the URL holds them: unknown values fall back to "any", impossible ones are a 404.
import { z } from "zod";
import { CATEGORY_KEY } from "./categories";
import { EVIDENCE_KINDS } from "./evidence";
import { cleanText, malformed, PG_INT_MAX, wholeNumber } from "./params";
import { MAX_PATTERN, RULE_ON, type RuleOn } from "./rules";
import { type CategoryNames, categoryLabel, VERDICTS } from "./verdicts";

const text = cleanText(z.string().trim().min(1).max(500));
const anyOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

export const PAGE_SIZE = 50;
/** The most trajectories a link may name one by one. */
export const MAX_IDS = 500;
export const SORTS = ["task", "model", "steps", "run", "panel", "votes", "similarity"] as const;

const FIELDS = {
  q: cleanText(z.string().trim().min(2).max(200)),
  benchmark: text,
  model: text,
  task: text,
  network: anyOf(["on", "off"]),
  prompt: anyOf(["vanilla", "principled"]),
  run: wholeNumber(1),
  resolved: anyOf(["yes", "no", "unknown"]),
  /** attempt: ATTEMPTED|SUCCESSFUL; no-success: ATTEMPTED|NOT_ATTEMPTED; not-successful: else, unjudged too. */
  panel: anyOf(["attempt", "no-success", "not-successful", "judged", "unjudged", ...VERDICTS]),
  /** A category by its key (the panel's verdicts: the four kept in columns so far). */
  category: z.string().regex(CATEGORY_KEY),
  /** The verdict the chosen category's panel must have ("attempt": ATTEMPTED or SUCCESSFUL). */
  categoryVerdict: anyOf(["attempt", ...VERDICTS]),
  /** The verdict the gold label in force must give in the chosen category (the rules' four cells). */
  goldVerdict: anyOf(["attempt", ...VERDICTS]),
  split: anyOf(["UNANIMOUS", "MAJORITY", "NO_MAJORITY"]),
  /** A judge by name, and optionally its overall verdict ("attempt"; "unparseable"). */
  judge: text,
  judgeVerdict: anyOf(["attempt", "no-success", "unparseable", ...VERDICTS]),
  unparseable: anyOf(["yes", "no"]),
  /** Some human label says (or does not say) an exploit was attempted / successful. */
  human: anyOf(["attempt", "no-attempt", "success", "no-success"]),
  /** The gold label in force says (or does not say) attempted / successful; any: there is one; none: there is not. */
  gold: anyOf(["attempt", "no-attempt", "success", "no-success", "any", "none"]),
  labelled: anyOf(["yes", "no"]),
  /** Vanilla → principled pairs: "task" run under both; "run" both judged; "attempt"/"success"/"resolved" differ. */
  pair: anyOf(["task", "run", "attempt", "success", "resolved"]),
  /** What `pair` pairs: the prompts (vanilla → principled, by default) or the network (on → off). */
  pairBy: anyOf(["prompt", "network"]),
  /** A suspect-step rule in force fires on it (docs/formats.md, "Rules"), by name, enabled or not. */
  rule: text,
  /** A rule being tried (the Rules page's preview): what it reads, its pattern, its case. */
  tryOn: anyOf(RULE_ON),
  tryPattern: cleanText(z.string().min(1).max(MAX_PATTERN)),
  tryCase: anyOf(["ignore"]),
  /** With a rule (named or tried): "no" keeps the trajectories it does not fire on instead. */
  ruleFires: anyOf(["yes", "no"]),
  /** Some enabled rule in force of this category fires on it ("any": of any category). */
  suspect: z.string().regex(/^(?:any|[A-Z][A-Z0-9_]*)$/),
  study: text,
  /** These trajectories (a figure's, e.g. a monitor's flagged at a threshold): up to MAX_IDS ids. */
  ids: z
    .string()
    .regex(/^\d{1,10}(?:,\d{1,10})*$/)
    .transform((s) => [...new Set(s.split(",").map(Number))])
    .refine((ids) => ids.length <= MAX_IDS && ids.every((id) => id >= 1 && id <= PG_INT_MAX)),
  /** Written by one import (its number on the Import page): what it brought new or changed. */
  import: wholeNumber(1),
  /** Evidence: any, none, unchecked (no task record), or one kind. */
  evidence: anyOf(["any", "none", "unchecked", ...EVIDENCE_KINDS]),
  /** The final patch's similarity to the reference is at least this (0 to 1). */
  similarity: z.coerce.number().min(0).max(1),
  /** The final patch's similarity is below this, or there is no final patch to compare. */
  similarityBelow: z.coerce.number().min(0).max(1),
  sort: anyOf(SORTS),
  dir: anyOf(["asc", "desc"]),
  page: wholeNumber(1),
} as const;

export type TrajectoryFilter = { [K in keyof typeof FIELDS]?: z.output<(typeof FIELDS)[K]> };

/** Every filter as one object, each optional: the API validates its query with it, strictly. */
export const TrajectoryFilterSchema = z.object(FIELDS).partial();

export const FILTER_KEYS = Object.keys(FIELDS) as Array<keyof typeof FIELDS>;

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

/** Reads the filter from URL search params; unknown parameters are ignored, bad values left out. */
export function parseTrajectoryFilter(params: Params): TrajectoryFilter {
  return readTrajectoryFilter(params).filter;
}

/** The filter, and the parameters whose values were refused (empty when the address is good). */
export function readTrajectoryFilter(params: Params): { filter: TrajectoryFilter; invalid: string[] } {
  const get = (k: string) => (params instanceof URLSearchParams ? (params.get(k) ?? undefined) : [params[k]].flat()[0]);
  const out: Record<string, unknown> = {};
  const invalid: string[] = [];
  for (const key of FILTER_KEYS) {
    const raw = get(key);
    if (raw === undefined || raw === "") continue;
    const parsed = FIELDS[key].safeParse(raw);
    if (parsed.success) out[key] = parsed.data;
    // A list of ids left out would widen to every trajectory: refused instead.
    else if (key === "ids" || malformed(raw, key === "run" || key === "page")) invalid.push(key);
  }
  return { filter: out as TrajectoryFilter, invalid };
}

/** The rule being tried that the filter names (`tryOn` and `tryPattern`), or null. */
export function triedRule(f: TrajectoryFilter): { on: RuleOn; pattern: string; ignoreCase: boolean } | null {
  return f.tryOn && f.tryPattern ? { on: f.tryOn, pattern: f.tryPattern, ignoreCase: f.tryCase === "ignore" } : null;
}

export function trajectoriesHref(filter: TrajectoryFilter): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const v = filter[key];
    if (v !== undefined) params.set(key, String(v));
  }
  const q = params.toString();
  return q ? `/trajectories?${q}` : "/trajectories";
}

const pairWords = (pair: NonNullable<TrajectoryFilter["pair"]>, by: "prompt" | "network") => {
  const [both, other] =
    by === "network" ? ["with and without the network", "other"] : ["under both prompts", "other prompt's"];
  return {
    task: `its task ran ${both}`,
    run: `judged ${both} (same task and run)`,
    attempt: `the ${other} run answers “attempted?” differently`,
    success: `the ${other} run answers “successful?” differently`,
    resolved: `the ${other} run answers “resolved by an exploit?” differently`,
  }[pair];
};
const JUDGE_VERDICT_WORDS: Record<NonNullable<TrajectoryFilter["judgeVerdict"]>, string> = {
  attempt: "attempted or successful",
  "no-success": "attempted or not attempted",
  unparseable: "an answer that could not be read",
  SUCCESSFUL: "successful",
  ATTEMPTED: "attempted",
  NOT_ATTEMPTED: "not attempted",
};
const GOLD_VERDICT_WORDS: Record<NonNullable<TrajectoryFilter["goldVerdict"]>, string> = {
  attempt: "attempted or successful",
  SUCCESSFUL: "successful",
  ATTEMPTED: "attempted",
  NOT_ATTEMPTED: "not attempted",
};
const HUMAN_WORDS: Record<NonNullable<TrajectoryFilter["human"]>, string> = {
  attempt: "attempted or successful",
  "no-attempt": "not attempted",
  success: "successful",
  "no-success": "not successful",
};

/** The filters the form has no field for, in words, each with the list without it. */
export function filtersBeyondTheForm(
  f: TrajectoryFilter,
  names?: CategoryNames,
): Array<{ words: string; without: string }> {
  const out: Array<{ words: string; without: string }> = [];
  const drop = (...keys: Array<keyof TrajectoryFilter>) => {
    const rest = { ...f, page: undefined };
    for (const k of keys) delete rest[k];
    return trajectoriesHref(rest);
  };
  if (f.study) out.push({ words: `items of the study “${f.study}”`, without: drop("study") });
  if (f.ids) {
    const n = f.ids.length;
    out.push({ words: `${n} trajector${n === 1 ? "y" : "ies"} a figure chose`, without: drop("ids") });
  }
  if (f.import) out.push({ words: `written by import ${f.import}`, without: drop("import") });
  if (f.pair) {
    const by = f.pairBy ?? "prompt";
    const axis = by === "network" ? "network on → off" : "vanilla → principled";
    out.push({ words: `in a ${axis} pair: ${pairWords(f.pair, by)}`, without: drop("pair", "pairBy") });
  }
  if (f.judge)
    out.push({
      words: `judge ${f.judge} voted${f.judgeVerdict ? `, ${JUDGE_VERDICT_WORDS[f.judgeVerdict]}` : ""}`,
      without: drop("judge", "judgeVerdict"),
    });
  if (f.human) out.push({ words: `a human label says ${HUMAN_WORDS[f.human]}`, without: drop("human") });
  const fires = f.ruleFires === "no" ? "does not fire" : "fires";
  if (f.rule) out.push({ words: `the rule ${f.rule} ${fires} on it`, without: drop("rule", "ruleFires") });
  if (f.tryOn && f.tryPattern)
    out.push({
      words: `the rule being tried (${f.tryOn}: ${f.tryPattern}${f.tryCase ? ", ignoring case" : ""}) ${fires} on it`,
      without: drop("tryOn", "tryPattern", "tryCase", "ruleFires"),
    });
  if (f.category && f.goldVerdict)
    out.push({
      words: `the gold label says ${categoryLabel(f.category, names)}: ${GOLD_VERDICT_WORDS[f.goldVerdict]}`,
      without: drop("goldVerdict"),
    });
  return out;
}

// The list's filters as a plain GET form: the URL is the state, and it works without JavaScript.

import Link from "next/link";
import { EVIDENCE_LABELS } from "@/components/timeline/evidence-labels";
import { networkWords } from "@/lib/domain/charts";
import { EVIDENCE_KINDS } from "@/lib/domain/evidence";
import { shownText } from "@/lib/domain/text";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";

type Option = readonly [value: string, label: string];

function Select({
  name,
  label,
  value,
  options,
}: {
  name: keyof TrajectoryFilter;
  label: string;
  value: unknown;
  options: readonly Option[];
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={value === undefined ? "" : String(value)}>
        <option value="">any</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Filters the form has no field for, kept across a submission (the list says what they are). */
const HIDDEN_KEYS = ["study", "pair", "pairBy", "judge", "judgeVerdict", "human", "rule"] as const;

const VERDICT_OPTIONS: Option[] = [
  ["attempt", "attempted or successful"],
  ["SUCCESSFUL", "successful"],
  ["ATTEMPTED", "attempted"],
  ["NOT_ATTEMPTED", "not attempted"],
];

type Field = { name: keyof TrajectoryFilter; label: string; options: readonly Option[] };
const field = (name: keyof TrajectoryFilter, label: string, options: readonly Option[]): Field => ({
  name,
  label,
  options,
});
const pairs = (...values: string[]): Option[] => values.map((v) => [v, v] as const);

/** The form's fields in order: each a filter of the list, with the options it offers (besides "any"). */
function fields(benchmarks: readonly string[], models: readonly string[], categories: readonly Choice[]): Field[] {
  return [
    field(
      "benchmark",
      "Benchmark",
      benchmarks.map((b) => [b, shownText(b)] as const),
    ),
    field(
      "model",
      "Model",
      models.map((m) => [m, shownText(m)] as const),
    ),
    ...FIXED_FIELDS,
    field(
      "category",
      "Category",
      categories.map((c) => [c.key, shownText(c.name)] as const),
    ),
    field("categoryVerdict", "Category verdict", VERDICT_OPTIONS),
    ...SPLIT_FIELDS,
    field("suspect", "Suspect marks", [["any", "any"], ...categories.map((c) => [c.key, shownText(c.name)] as const)]),
    ...EVIDENCE_FIELDS,
  ];
}

type Choice = { key: string; name: string };

const FIXED_FIELDS: Field[] = [
  field("network", "Network", [
    ["on", networkWords(true)],
    ["off", networkWords(false)],
  ]),
  field("prompt", "Prompt", pairs("vanilla", "principled")),
  field("run", "Run", pairs("1", "2", "3")),
  field("resolved", "Resolved", [
    ["yes", "yes"],
    ["no", "no"],
    ["unknown", "not evaluated"],
  ]),
  field("panel", "Panel verdict", [
    ...VERDICT_OPTIONS,
    ["no-success", "attempted or not attempted"],
    ["not-successful", "not successful (unjudged too)"],
    ["judged", "any (judged)"],
    ["unjudged", "unjudged"],
  ]),
];

const SPLIT_FIELDS: Field[] = [
  field("split", "Judge split", [
    ["UNANIMOUS", "unanimous"],
    ["MAJORITY", "2–1 (majority)"],
    ["NO_MAJORITY", "all differ"],
  ]),
  field("unparseable", "Unparseable answers", [
    ["yes", "some"],
    ["no", "none"],
  ]),
  field("labelled", "Human labels", [
    ["yes", "labelled"],
    ["no", "not labelled"],
  ]),
  field("gold", "Gold label", [
    ["any", "any"],
    ["none", "none"],
    ["attempt", "attempted or successful"],
    ["no-attempt", "not attempted"],
    ["success", "successful"],
    ["no-success", "not successful"],
  ]),
];

const EVIDENCE_FIELDS: Field[] = [
  field("evidence", "Evidence", [
    ["any", "any"],
    ["none", "none found"],
    ["unchecked", "no task record"],
    ...EVIDENCE_KINDS.map((k) => [k, EVIDENCE_LABELS[k]] as const),
  ]),
  field("similarity", "Patch similarity", [
    ["0.5", "≥ 0.5"],
    ["0.8", "≥ 0.8"],
    ["0.95", "≥ 0.95"],
  ]),
];

export function TrajectoryFilters({
  filter,
  benchmarks,
  models,
  categories,
}: {
  filter: TrajectoryFilter;
  benchmarks: string[];
  models: string[];
  categories: Choice[];
}) {
  return (
    <form method="get" action="/trajectories" className="filters" aria-label="Filters">
      <label className="search">
        Text in commands or outputs
        <input
          type="search"
          name="q"
          defaultValue={filter.q ?? ""}
          placeholder="e.g. git log --all"
          minLength={2}
          maxLength={200}
        />
      </label>
      {fields(benchmarks, models, categories).map((f) => (
        <Select key={f.name} name={f.name} label={f.label} value={filter[f.name]} options={f.options} />
      ))}
      {filter.task ? <input type="hidden" name="task" value={filter.task} /> : null}
      {HIDDEN_KEYS.map((k) =>
        filter[k] === undefined ? null : <input key={k} type="hidden" name={k} value={String(filter[k])} />,
      )}
      {filter.sort ? <input type="hidden" name="sort" value={filter.sort} /> : null}
      {filter.dir ? <input type="hidden" name="dir" value={filter.dir} /> : null}
      {filter.similarityBelow !== undefined ? (
        <input type="hidden" name="similarityBelow" value={filter.similarityBelow} />
      ) : null}
      <div className="filter-actions">
        <button type="submit">Filter</button>
        <Link href="/trajectories">Clear</Link>
      </div>
    </form>
  );
}

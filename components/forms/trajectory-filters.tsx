// The list's filters as a plain GET form: the URL is the state, and it works without JavaScript.
import { shownText } from "@/lib/domain/text";
import { EVIDENCE_KINDS } from "@/lib/domain/evidence";
import { EVIDENCE_LABELS } from "@/components/timeline/evidence-labels";
import Link from "next/link";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { CATEGORIES, CATEGORY_LABELS } from "@/lib/domain/verdicts";
import { networkWords } from "@/lib/domain/charts";

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
const HIDDEN_KEYS = ["study", "pair", "judge", "judgeVerdict", "human"] as const;

const VERDICT_OPTIONS: Option[] = [
  ["attempt", "attempted or successful"],
  ["SUCCESSFUL", "successful"],
  ["ATTEMPTED", "attempted"],
  ["NOT_ATTEMPTED", "not attempted"],
];

export function TrajectoryFilters({
  filter,
  benchmarks,
  models,
}: {
  filter: TrajectoryFilter;
  benchmarks: string[];
  models: string[];
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
      <Select
        name="benchmark"
        label="Benchmark"
        value={filter.benchmark}
        options={benchmarks.map((b) => [b, shownText(b)] as const)}
      />
      <Select name="model" label="Model" value={filter.model} options={models.map((m) => [m, shownText(m)] as const)} />
      <Select
        name="network"
        label="Network"
        value={filter.network}
        options={[
          ["on", networkWords(true)],
          ["off", networkWords(false)],
        ]}
      />
      <Select
        name="prompt"
        label="Prompt"
        value={filter.prompt}
        options={[
          ["vanilla", "vanilla"],
          ["principled", "principled"],
        ]}
      />
      <Select
        name="run"
        label="Run"
        value={filter.run}
        options={[
          ["1", "1"],
          ["2", "2"],
          ["3", "3"],
        ]}
      />
      <Select
        name="resolved"
        label="Resolved"
        value={filter.resolved}
        options={[
          ["yes", "yes"],
          ["no", "no"],
          ["unknown", "not evaluated"],
        ]}
      />
      <Select
        name="panel"
        label="Panel verdict"
        value={filter.panel}
        options={[
          ...VERDICT_OPTIONS,
          ["no-success", "attempted or not attempted"],
          ["not-successful", "not successful (unjudged too)"],
          ["judged", "any (judged)"],
          ["unjudged", "unjudged"],
        ]}
      />
      <Select
        name="category"
        label="Category"
        value={filter.category}
        options={CATEGORIES.map((c) => [c, CATEGORY_LABELS[c]] as const)}
      />
      <Select
        name="categoryVerdict"
        label="Category verdict"
        value={filter.categoryVerdict}
        options={VERDICT_OPTIONS}
      />
      <Select
        name="split"
        label="Judge split"
        value={filter.split}
        options={[
          ["UNANIMOUS", "unanimous"],
          ["MAJORITY", "2–1 (majority)"],
          ["NO_MAJORITY", "all differ"],
        ]}
      />
      <Select
        name="unparseable"
        label="Unparseable answers"
        value={filter.unparseable}
        options={[
          ["yes", "some"],
          ["no", "none"],
        ]}
      />
      <Select
        name="labelled"
        label="Human labels"
        value={filter.labelled}
        options={[
          ["yes", "labelled"],
          ["no", "not labelled"],
        ]}
      />
      <Select
        name="gold"
        label="Gold label"
        value={filter.gold}
        options={[
          ["any", "any"],
          ["none", "none"],
          ["attempt", "attempted or successful"],
          ["no-attempt", "not attempted"],
          ["success", "successful"],
          ["no-success", "not successful"],
        ]}
      />
      <Select
        name="evidence"
        label="Evidence"
        value={filter.evidence}
        options={[
          ["any", "any"],
          ["none", "none found"],
          ["unchecked", "no task record"],
          ...EVIDENCE_KINDS.map((k) => [k, EVIDENCE_LABELS[k]] as const),
        ]}
      />
      <Select
        name="similarity"
        label="Patch similarity"
        value={filter.similarity === undefined ? undefined : String(filter.similarity)}
        options={[
          ["0.5", "≥ 0.5"],
          ["0.8", "≥ 0.8"],
          ["0.95", "≥ 0.95"],
        ]}
      />
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

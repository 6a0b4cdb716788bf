"use client";
// Write a rule, see what it would find over the whole study before saving it, then save it.
import Link from "next/link";
import { useActionState, useEffect, useState } from "react";
import { FieldError, FormMessage, fieldProps, Saved } from "@/components/forms/field-error";
import { RuleReport } from "@/components/rules/rule-report";
import { countOf, formatCount } from "@/lib/domain/format";
import { RULE_ON, RULE_ON_LABELS, SCAN_TIMEOUT_MS } from "@/lib/domain/rules";
import { stepHref } from "@/lib/domain/timeline";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { NO_ERRORS } from "@/lib/errors";
import { type RulePreview, type RuleState, ruleAction } from "./actions";

const START: RuleState = { ...NO_ERRORS, saved: null, preview: null, values: null };

type Choice = { key: string; name: string };

export function RuleForm({ initial, categories }: { initial: Record<string, string> | null; categories: Choice[] }) {
  const [state, action, pending] = useActionState(ruleAction, START);
  const v = state.values ?? initial ?? {};
  return (
    <>
      {/* Keyed by what was sent: the fields come back showing it (a submitted form is reset). */}
      <form key={JSON.stringify(v)} action={action} className="filters" aria-label="Write a rule">
        <div className="field">
          <label>
            Name <input name="name" defaultValue={v.name} maxLength={100} required {...fieldProps(state, "name")} />
          </label>
          <FieldError errors={state} name="name" />
        </div>
        <KindFields v={v} categories={categories} />
        <div className="field wide">
          <label>
            Pattern (a PostgreSQL regular expression; \y is a word boundary)
            <input
              name="pattern"
              className="file-name"
              defaultValue={v.pattern}
              maxLength={2000}
              required
              {...fieldProps(state, "pattern")}
            />
          </label>
          <FieldError errors={state} name="pattern" />
        </div>
        <label className="check">
          <input type="checkbox" name="ignore_case" defaultChecked={v.ignore_case === "on"} /> ignore case
        </label>
        <div className="field wide">
          <label>
            Why a step it hits is suspect <input name="why" defaultValue={v.why} maxLength={500} />
          </label>
        </div>
        <div className="filter-actions">
          <button type="submit" name="do" value="preview" disabled={pending}>
            {pending ? "Scanning the study…" : "Preview"}
          </button>
          <button type="submit" name="do" value="save" disabled={pending}>
            Save
          </button>
          <Saved state={state} />
        </div>
        <FormMessage errors={state} />
      </form>
      {pending ? <Scanning /> : state.preview ? <Preview p={state.preview} values={v} /> : null}
    </>
  );
}

function KindFields({ v, categories }: { v: Record<string, string>; categories: Choice[] }) {
  return (
    <>
      <label>
        Category
        <select name="category" defaultValue={v.category ?? categories[0]?.key}>
          {categories.map((c) => (
            <option key={c.key} value={c.key}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        On
        <select name="on" defaultValue={v.on ?? "command"}>
          {RULE_ON.map((o) => (
            <option key={o} value={o}>
              {RULE_ON_LABELS[o]}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** While a preview scans the study: the seconds so far, beside the limit that would stop it. */
function Scanning() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <p role="status" className="note">
      Scanning the study: {seconds} s so far (stopped at {SCAN_TIMEOUT_MS / 1000} s). Every other page answers
      meanwhile.
    </p>
  );
}

function Preview({ p, values }: { p: RulePreview; values: Record<string, string> }) {
  const scanned = p.conditions.reduce((n, c) => n + c.trajectories, 0);
  // The rule as tried, for the list's filter: each count opens its trajectories.
  const base: TrajectoryFilter = {
    tryOn: RULE_ON.find((o) => o === values.on),
    tryPattern: values.pattern,
    tryCase: values.ignore_case === "on" ? "ignore" : undefined,
  };
  const category = values.category ?? "";
  return (
    <section aria-labelledby="preview" className="rule-preview">
      <h2 id="preview">What it would find</h2>
      <p role="status">
        Scanned {countOf(scanned, "trajectory", "trajectories")} in {(p.ms / 1000).toFixed(1)} s: it fires on{" "}
        {formatCount(p.conditions.reduce((n, c) => n + c.trajectories_hit, 0))}, hitting{" "}
        {formatCount(p.conditions.reduce((n, c) => n + c.steps_hit, 0))} steps.
      </p>
      {p.twins.length ? (
        <p className="note" role="alert">
          It finds exactly the steps that {p.twins.length === 1 ? "the rule" : "the rules"} {p.twins.join(", ")} already
          {p.twins.length === 1 ? " finds" : " find"} here: saved, it would add nothing the rules in force do not mark.
        </p>
      ) : null}
      <RuleReport report={p} base={base} category={category} name="the rule tried" />
      <h3>Steps it hits{p.samples.length ? ` (the first ${p.samples.length})` : ""}</h3>
      {p.samples.length ? (
        <ol className="rule-samples">
          {p.samples.map((s) => (
            <li key={`${s.trajectoryId}/${s.step}`}>
              <Link href={stepHref(s.trajectoryId, s.step)}>
                {s.task} · run {s.run} · step {s.step}
              </Link>
              <pre className="sample">
                {s.before}
                <mark>{s.match}</mark>
                {s.after}
              </pre>
            </li>
          ))}
        </ol>
      ) : (
        <p className="empty">No step.</p>
      )}
    </section>
  );
}

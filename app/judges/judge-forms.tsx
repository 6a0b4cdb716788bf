"use client";
// The Judges page's forms: a judge's endpoint, the judge prompt, and a run (previewed, then started).
import { useActionState } from "react";
import { ChoiceSelect } from "@/components/forms/choice-select";
import { FieldError, FormMessage, fieldProps, Saved } from "@/components/forms/field-error";
import type { PromptSettings } from "@/lib/domain/prompt-settings";
import { shownText } from "@/lib/domain/text";
import { NO_ERRORS } from "@/lib/errors";
import { type JudgesState, type RunPreview, runAction, saveJudge, savePromptVersion } from "./actions";
import { PromptSettingsFields } from "./prompt-settings-fields";
import type { RunField } from "./run-fields";

const START: JudgesState = { ...NO_ERRORS, saved: null };

const JUDGE_FIELDS = [
  ["name", "Name", "glm-5.3-flash", true],
  ["baseUrl", "Base URL", "https://openrouter.ai/api/v1", true],
  ["model", "Model", "z-ai/glm-5.3-flash", true],
  ["apiKeyEnv", "Key's environment variable", "OPENROUTER_API_KEY", false],
  ["concurrency", "Concurrency", "4", false],
  ["temperature", "Temperature", "0", false],
  ["maxTokens", "Max answer tokens", "2000", false],
  ["priceIn", "$ per M input tokens", "0.15", false],
  ["priceOut", "$ per M output tokens", "0.60", false],
] as const;

export function JudgeForm() {
  const [state, action, pending] = useActionState(saveJudge, START);
  return (
    <form action={action} className="filters" aria-label="Add or update a judge">
      {JUDGE_FIELDS.map(([name, label, placeholder, required]) => (
        <div className="field" key={name}>
          <label>
            {label} <input name={name} placeholder={placeholder} required={required} {...fieldProps(state, name)} />
          </label>
          <FieldError errors={state} name={name} />
        </div>
      ))}
      <div className="filter-actions">
        <button type="submit" disabled={pending}>
          Save judge
        </button>
        <Saved state={state} />
      </div>
      <FormMessage errors={state} />
    </form>
  );
}

export function PromptForm({ text, version, settings }: { text: string; version: number; settings: PromptSettings }) {
  const [state, action, pending] = useActionState(savePromptVersion, START);
  return (
    <form action={action} aria-label="The judge prompt" className="prompt-form">
      <div className="field">
        <label>
          Judge prompt (version {version} in force)
          <textarea
            name="prompt"
            rows={14}
            defaultValue={text}
            className="prompt-text"
            {...fieldProps(state, "prompt")}
          />
        </label>
        <FieldError errors={state} name="prompt" />
      </div>
      <PromptSettingsFields settings={settings} state={state} />
      <button type="submit" disabled={pending}>
        Save as a new version
      </button>
      <Saved state={state} />
      <FormMessage errors={state} />
    </form>
  );
}

const RUN_START: RunPreview = { ...START, preview: null, chosen: null };

export function RunForm({
  judges,
  benchmarks,
  models,
  initial = {},
}: {
  judges: string[];
  benchmarks: string[];
  models: string[];
  /** The filter the page was opened with (a timeline's "ask the judges": one trajectory's key). */
  initial?: Partial<Record<RunField, string>>;
}) {
  const [state, action, pending] = useActionState(runAction, RUN_START);
  const p = state.preview;
  const chosen = state.chosen;
  return (
    // Keyed by what was previewed: the fields come back showing it (a submitted form is reset to its defaults).
    <form key={JSON.stringify(chosen)} action={action} className="filters" aria-label="Start a run">
      {chosen ? <input type="hidden" name="chosen" value={JSON.stringify(chosen)} /> : null}
      <fieldset>
        <legend>Judges</legend>
        {judges.map((j) => (
          <label key={j} className="check">
            <input type="checkbox" name="judges" value={j} defaultChecked={!chosen || chosen.judges.includes(j)} />{" "}
            {shownText(j)}
          </label>
        ))}
      </fieldset>
      {(
        [
          ["benchmark", "Benchmark", benchmarks],
          ["model", "Model", models],
          ["network", "Network", ["on", "off"]],
          ["prompt", "Prompt", ["vanilla", "principled"]],
        ] as const
      ).map(([name, label, options]) => (
        <ChoiceSelect
          key={name}
          name={name}
          label={label}
          options={options}
          none="any"
          defaultValue={chosen?.filter[name] ?? initial[name] ?? ""}
        />
      ))}
      {(
        [
          ["task", "Task id"],
          ["run", "Run"],
        ] as const
      ).map(([name, label]) => (
        <label key={name}>
          {label}
          <input name={name} defaultValue={chosen?.filter[name] ?? initial[name] ?? ""} placeholder="any" />
        </label>
      ))}
      <div className="filter-actions">
        <button type="submit" name="intent" value="preview" disabled={pending}>
          Preview
        </button>
        {p && p.requests > 0 ? (
          <button type="submit" name="intent" value="start" disabled={pending}>
            Start {p.requests} request(s)
          </button>
        ) : null}
        <Saved state={state} />
      </div>
      {p ? (
        <p role="status" className="note">
          {previewText(p)}
        </p>
      ) : null}
      <FormMessage errors={state} />
    </form>
  );
}

function previewText(p: NonNullable<RunPreview["preview"]>): string {
  return (
    `${p.requests} request(s) under prompt version ${p.promptVersion} (${p.answeredBefore} answered before), ` +
    `about ${p.tokensIn.toLocaleString("en-US")} input tokens` +
    (p.cost === null ? " (no prices given)." : `, about $${p.cost.toFixed(2)}.`)
  );
}

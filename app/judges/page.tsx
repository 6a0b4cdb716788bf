import type { Metadata } from "next";
import Link from "next/link";
import { type Column, DataTable } from "@/components/tables/data-table";
import { AutoRefresh } from "@/components/ui/auto-refresh";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { categoriesInUse } from "@/lib/data/categories";
import { listRuns } from "@/lib/data/judge-runs";
import { currentPrompt, listJudges } from "@/lib/data/judges";
import { type PanelView, panelChoices, panelsNow } from "@/lib/data/panels";
import { listFilterOptions } from "@/lib/data/trajectories";
import { formatCount, formatTime } from "@/lib/domain/format";
import { comparePanelsHref } from "@/lib/domain/panel-compare-table";
import { settingsText } from "@/lib/domain/prompt-settings";
import { shownText } from "@/lib/domain/text";
import { resumeWaitingRuns } from "@/lib/work/judge-runs/service";
import { controlRun } from "./actions";
import { CategorySection } from "./categories";
import { JudgeForm, PromptForm, RunForm } from "./judge-forms";
import { AdoptButton, CompareOffer, PanelForm } from "./panel-forms";
import { FILTER_FIELDS } from "./run-fields";

export const metadata: Metadata = { title: "Judges" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function JudgesPage({ searchParams }: { searchParams: Search }) {
  const user = await requirePage("judges:read", "/judges");
  const writes = can(user.role, "judges:write");
  const params = await searchParams;
  // A run's fields as a link fills them in (a timeline's "ask the judges about it"), each a short text.
  const initial = Object.fromEntries(
    FILTER_FIELDS.flatMap((k) => {
      const v = [params[k]].flat()[0];
      return typeof v === "string" && v.length <= 500 ? [[k, v]] : [];
    }),
  );
  // After a restart, a running run's waiting requests are taken up again here.
  if (writes) await resumeWaitingRuns();
  const [judges, prompt, runs, options, panels, choices, categories] = await Promise.all([
    listJudges(),
    currentPrompt(),
    listRuns(),
    listFilterOptions(),
    panelsNow(),
    panelChoices(),
    categoriesInUse(),
  ]);
  const runnable = judges.filter((j) => j.endpoint).map((j) => j.name);
  return (
    <>
      <h1>Judges</h1>
      <p className="lede">
        Judges the app asks itself, at any endpoint that speaks the OpenAI chat-completions protocol. The key is read
        from the named environment variable of the server when a judge is asked, and never stored. Each trajectory is
        asked of a judge once per prompt version; every answer is kept, and counts once the panel names its judge at
        that version.
      </p>
      <section aria-labelledby="judges-list">
        <h2 id="judges-list">Judges</h2>
        <DataTable labelledBy="judges-list" rows={judges} rowKey={(j) => j.name} columns={JUDGE_COLUMNS} />
        {writes ? <JudgeForm /> : null}
      </section>
      <PanelSection panels={panels} choices={choices} writes={writes} />
      <CategorySection categories={categories} prompt={prompt} writes={writes} />
      <section aria-labelledby="runs">
        <h2 id="runs">Runs</h2>
        {!writes ? (
          runs.length ? null : (
            <p className="empty">No run yet.</p>
          )
        ) : runnable.length ? (
          <RunForm judges={runnable} benchmarks={options.benchmarks} models={options.models} initial={initial} />
        ) : (
          <p className="empty">Add a judge with an endpoint to start a run.</p>
        )}
        {runs.some((r) => r.status === "RUNNING") ? <AutoRefresh what="A run is" /> : null}
        {runs.length ? (
          <DataTable
            label="Runs"
            rows={runs}
            rowKey={(r) => r.id}
            columns={writes ? RUN_COLUMNS : RUN_COLUMNS.filter((c) => c.key !== "control")}
          />
        ) : null}
      </section>
      <section aria-labelledby="prompt">
        <h2 id="prompt">The judge prompt</h2>
        <p>
          Version {prompt.version} asks {prompt.categories.join(", ")}. A judge reads it with{" "}
          <code>{"{categories}"}</code> replaced by each category&apos;s key, name, definition and examples, and{" "}
          <code>{"{answer}"}</code> by the JSON it answers with (<code>{"{confidence}"}</code> asks each category&apos;s
          probability); a new version keeps the categories of the one before. It asks {settingsText(prompt.settings)}.
          Each way of asking is a prompt version: run a judge under it and compare its panel before adopting it.
        </p>
        {writes ? (
          <PromptForm text={prompt.text} version={prompt.version} settings={prompt.settings} />
        ) : (
          <PromptText {...prompt} />
        )}
      </section>
    </>
  );
}

const JUDGE_COLUMNS: Column<Awaited<ReturnType<typeof listJudges>>[number]>[] = [
  { key: "name", label: "Name", rowHeader: true, cell: (j) => shownText(j.name) },
  {
    key: "endpoint",
    label: "Endpoint and model",
    className: "file-name",
    cell: (j) => (j.endpoint ? shownText(`${j.model} at ${j.endpoint}`) : "imported votes only"),
  },
  { key: "key", label: "Key", cell: (j) => (j.apiKeyEnv ? `$${j.apiKeyEnv}` : "—") },
  { key: "concurrency", label: "Concurrency", numeric: true, cell: (j) => j.concurrency },
  { key: "answers", label: "Answers", numeric: true, cell: (j) => formatCount(j.votes) },
  { key: "unparseable", label: "Unparseable", numeric: true, cell: (j) => formatCount(j.unparseable) },
];

type Run = Awaited<ReturnType<typeof listRuns>>[number];

const RUN_COLUMNS: Column<Run>[] = [
  {
    key: "run",
    label: "Run",
    rowHeader: true,
    cell: (r) => (
      <>
        {r.id} <small className="sub">{formatTime(r.createdAt)}</small>
      </>
    ),
  },
  { key: "judges", label: "Judges", cell: (r) => r.judges.join(", ") },
  { key: "prompt", label: "Prompt", cell: (r) => `v${r.promptVersion}` },
  { key: "status", label: "Status", cell: (r) => r.status.toLowerCase() },
  {
    key: "progress",
    label: "Answered / failed / waiting",
    numeric: true,
    cell: (r) => (
      <>
        {formatCount(r.done)} / {formatCount(r.failed)} / {formatCount(r.pending + r.asking)}
        {r.truncated ? <small className="sub">{formatCount(r.truncated)} cut to fit</small> : null}
        {r.stale ? (
          <small
            className="sub"
            title="their trajectories were imported again with other content after the run was planned"
          >
            {formatCount(r.stale)} not asked: re-imported
          </small>
        ) : null}
        {r.errors.length ? (
          <details>
            <summary>errors</summary>
            <ul className="errors">
              {r.errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          </details>
        ) : null}
      </>
    ),
  },
  { key: "tokens", label: "Tokens", numeric: true, cell: (r) => formatCount(r.tokensIn + r.tokensOut) },
  { key: "cost", label: "Cost", numeric: true, cell: (r) => (r.cost === null ? "—" : `$${r.cost.toFixed(4)}`) },
  { key: "control", label: "Control", cell: (r) => <RunControl run={r} /> },
];

function PromptText({ text, version }: { text: string; version: number }) {
  return (
    <pre className="prompt-text">
      Version {version} in force:{"\n\n"}
      {text}
    </pre>
  );
}

function RunControl({ run: r }: { run: Run }) {
  return (
    <form action={controlRun} className="inline-form">
      <input type="hidden" name="run" value={r.id} />
      {r.status === "RUNNING" ? (
        <button type="submit" name="do" value="pause">
          Pause
        </button>
      ) : null}
      {r.status === "PAUSED" ? (
        <button type="submit" name="do" value="resume">
          Resume
        </button>
      ) : null}
      {r.status === "RUNNING" || r.status === "PAUSED" ? (
        <button type="submit" name="do" value="cancel">
          Cancel
        </button>
      ) : null}
    </form>
  );
}

const memberText = (m: PanelView["judges"][number]) =>
  `${m.judge} (${m.promptVersion === null ? "imported votes" : `prompt v${m.promptVersion}`})`;

type Choices = Awaited<ReturnType<typeof panelChoices>>;

/** The panel every figure follows, the others (each to compare or adopt), offers and the form. */
function PanelSection({ panels, choices, writes }: { panels: PanelView[]; choices: Choices; writes: boolean }) {
  const inForce = panels.find((p) => p.inForce);
  const counted = new Set(inForce?.judges.map((m) => `${m.judge}@${m.promptVersion}`));
  const offered = choices.map((c) => ({ ...c, inForce: counted.has(`${c.judge}@${c.promptVersion}`) }));
  const others = panels.filter((p) => !p.inForce);
  return (
    <section aria-labelledby="panel-in-force">
      <h2 id="panel-in-force">The panel</h2>
      <p>
        Every figure follows the majority of the panel in force
        {inForce ? (
          <>
            : <strong>{shownText(inForce.name)}</strong>, {inForce.judges.map(memberText).join(", ") || "no judge yet"}
            {inForce.setAt ? ` (set ${formatTime(inForce.setAt)}${inForce.setBy ? ` by ${inForce.setBy}` : ""})` : ""}.
          </>
        ) : (
          "; none is set yet."
        )}{" "}
        A judge added here, or a new prompt version, counts only once a panel names it: compare a panel with it before
        putting it in force.
      </p>
      {inForce && writes
        ? offered
            .filter((c) => !c.inForce && c.asAsked)
            .map((c) => <CompareOffer key={`${c.judge}@${c.promptVersion}`} choice={c} panel={inForce.name} />)
        : null}
      {others.length ? (
        <DataTable
          label="Other panels"
          rows={others}
          rowKey={(p) => p.id}
          columns={[
            { key: "name", label: "Panel", rowHeader: true, cell: (p) => shownText(p.name) },
            { key: "judges", label: "Judges", cell: (p) => p.judges.map(memberText).join(", ") },
            {
              key: "state",
              label: "State",
              cell: (p) =>
                p.setAt
                  ? `earlier: set ${formatTime(p.setAt)}${p.setBy ? ` by ${p.setBy}` : ""}`
                  : `candidate${p.setBy ? `, saved by ${p.setBy}` : ""}`,
            },
            {
              key: "do",
              label: "Compare or adopt",
              cell: (p) => (
                <div className="inline-form">
                  <Link href={comparePanelsHref(p.name)}>Compare</Link>
                  {writes ? <AdoptButton panel={p.name} label={p.setAt ? "Put back in force" : "Adopt"} /> : null}
                </div>
              ),
            },
          ]}
        />
      ) : null}
      {writes && choices.length ? <PanelForm choices={offered} /> : null}
    </section>
  );
}

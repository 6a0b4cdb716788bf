import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { cellsInBrief } from "@/components/rules/rule-report";
import { RuleScanNote } from "@/components/rules/scan-note";
import { type Column, DataTable } from "@/components/tables/data-table";
import { Loading } from "@/components/ui/loading";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { categoriesNow, categoryNames } from "@/lib/data/categories";
import { ruleHitsCoverage } from "@/lib/data/rule-matches";
import { rulesNow } from "@/lib/data/rules";
import { formatCount } from "@/lib/domain/format";
import type { MonitorRow } from "@/lib/domain/monitor-report";
import { monitorInBrief } from "@/lib/domain/monitor-table";
import { ALL } from "@/lib/domain/monitors";
import { firstValue } from "@/lib/domain/params";
import { RULE_ON_LABELS, type Rule } from "@/lib/domain/rules";
import { shownText } from "@/lib/domain/text";
import { trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { type CategoryNames, categoryLabel } from "@/lib/domain/verdicts";
import { agreementNow, ruleFiguresNow } from "@/lib/work/reports/cache";
import type { RuleFigures } from "@/lib/work/rule-figures";
import { toggleRuleAction } from "./actions";
import { Families } from "./families";
import { RuleDetail, versionWords } from "./rule-detail";
import { RuleForm } from "./rule-form";

export const metadata: Metadata = { title: "Rules" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function RulesPage({ searchParams }: { searchParams: Search }) {
  const actor = await requirePage("rules:read", "/rules");
  const writes = can(actor.role, "rules:write");
  const [rules, params, categories] = await Promise.all([rulesNow(), searchParams, categoriesNow()]);
  const editing = rules.find((r) => r.name === firstValue(params.edit));
  const familiesOf = rules.find((r) => r.name === firstValue(params.families))?.name;
  const shown = rules.find((r) => r.name === firstValue(params.rule))?.name;
  const category = categories.find((c) => c.key === firstValue(params.category))?.key;
  return (
    <>
      <h1>Rules</h1>
      <p className="lede">
        Suspect-step rules mark the steps whose command, output or words look like a shortcut, on every timeline, the
        queue and the compare page. A mark points a reader at a step; it is not a verdict. Patterns are PostgreSQL
        regular expressions, run by the database over the whole text.
      </p>
      <nav aria-label="Parts" className="contents-bar">
        {writes ? <a href="#write">Write a rule</a> : null}
        <a href="#in-force">The rules in force</a>
        {shown ? <a href="#rule">{shownText(shown)}</a> : null}
        {familiesOf || category ? <a href="#families">Families of commands</a> : null}
      </nav>
      {writes ? (
        <section aria-labelledby="write">
          <h2 id="write">{editing ? `Change ${editing.name}` : "Write a rule"}</h2>
          <p className="note">
            Preview tries it over every trajectory (stopped after a minute) before anything is saved; saving writes a
            new version, in force at once.
          </p>
          <RuleForm
            initial={editing ? formValues(editing) : null}
            categories={categories.map(({ key, name }) => ({ key, name }))}
          />
        </section>
      ) : null}
      <section aria-labelledby="in-force">
        <h2 id="in-force">The rules in force</h2>
        <Suspense fallback={<Loading what="which trajectories each rule fires on" />}>
          <RulesTable writes={writes} />
        </Suspense>
        <p className="note">
          Families of the commands each category&apos;s rules matched:{" "}
          {categories.map((c, i) => (
            <span key={c.key}>
              {i ? " · " : ""}
              <Link href={`/rules?category=${c.key}#families`}>{shownText(c.name)}</Link>
            </span>
          ))}
        </p>
      </section>
      {shown ? (
        <Suspense fallback={<Loading what={`what ${shown} finds`} />}>
          <ShownRule name={shown} writes={writes} />
        </Suspense>
      ) : null}
      {familiesOf || category ? (
        <Suspense fallback={<Loading what="the commands the rules matched" />}>
          <Families rule={familiesOf} category={familiesOf ? undefined : category} />
        </Suspense>
      ) : null}
    </>
  );
}

const formValues = (r: Rule): Record<string, string> => ({
  name: r.name,
  category: r.category,
  on: r.on,
  pattern: r.pattern,
  ignore_case: r.ignoreCase ? "on" : "",
  why: r.why,
});

async function ShownRule({ name, writes }: { name: string; writes: boolean }) {
  const figures = (await ruleFiguresNow()).find((f) => f.rule.name === name);
  return figures ? <RuleDetail figures={figures} writes={writes} /> : null;
}

const ruleHref = (name: string) => `/rules?rule=${encodeURIComponent(name)}#rule`;
const total = (f: RuleFigures, k: "trajectories_hit" | "steps_hit") =>
  f.report.conditions.reduce((n, c) => n + c[k], 0);

/** Each rule with what it finds over the study (a scan of the study, so read apart from the page). */
async function RulesTable({ writes }: { writes: boolean }) {
  const [figures, coverage, names, agreement] = await Promise.all([
    ruleFiguresNow(),
    ruleHitsCoverage(),
    categoryNames(),
    agreementNow(),
  ]);
  // Each enabled rule as a monitor in its own category (the Agreement page's rows).
  const monitors = new Map(
    (agreement.monitors?.rows ?? []).filter((m) => m.kind === "rule" && m.category !== ALL).map((m) => [m.monitor, m]),
  );
  return (
    <>
      <RuleScanNote coverage={coverage} />
      <DataTable
        label="The rules in force"
        rows={figures}
        rowKey={(f) => f.rule.name}
        columns={ruleColumns(writes, names, monitors)}
      />
    </>
  );
}

/** The rules table's columns; `writes`: with the buttons that change a rule. */
function ruleColumns(
  writes: boolean,
  names: CategoryNames,
  monitors: ReadonlyMap<string, MonitorRow>,
): Array<Column<RuleFigures> | false> {
  return [
    {
      key: "name",
      label: "Rule",
      rowHeader: true,
      cell: ({ rule: r }) => (
        <>
          <Link href={ruleHref(r.name)}>{shownText(r.name)}</Link>
          {r.enabled ? null : <small className="sub">disabled: not scanned</small>}
          {r.stopped ? (
            <small className="sub warn" role="note">
              stopped: {r.stopped}; it marks nothing until a new version replaces it
            </small>
          ) : null}
        </>
      ),
    },
    { key: "category", label: "Category", cell: ({ rule: r }) => categoryLabel(r.category, names) },
    { key: "on", label: "On", cell: ({ rule: r }) => RULE_ON_LABELS[r.on] },
    {
      key: "pattern",
      label: "Pattern",
      className: "file-name",
      cell: ({ rule: r }) => (
        <>
          <code>{shownText(r.pattern)}</code>
          {r.ignoreCase ? <small className="sub">ignoring case</small> : null}
          {r.why ? <small className="sub">{shownText(r.why)}</small> : null}
        </>
      ),
    },
    {
      key: "fires",
      label: "Fires on",
      numeric: true,
      cell: (f) => (
        <Link
          href={trajectoriesHref({ rule: f.rule.name })}
          aria-label={`${formatCount(total(f, "trajectories_hit"))} trajectories ${f.rule.name} fires on`}
        >
          {formatCount(total(f, "trajectories_hit"))}
        </Link>
      ),
    },
    { key: "steps", label: "Steps hit", numeric: true, cell: (f) => formatCount(total(f, "steps_hit")) },
    {
      key: "panel",
      label: "Against the panel: P · R · κ",
      className: "nowrap",
      cell: (f) => cellsInBrief(f.report.versus_panel),
    },
    {
      key: "gold",
      label: "Against gold: P · R · κ",
      className: "nowrap",
      cell: (f) => cellsInBrief(f.report.versus_gold),
    },
    {
      key: "monitor",
      label: "As a monitor: AUROC · caught at 5% false alarms",
      className: "nowrap",
      cell: (f) => monitorInBrief(monitors.get(f.rule.name)),
    },
    { key: "changed", label: "Version", cell: ({ rule: r }) => versionWords(r) },
    writes && {
      key: "do",
      label: "Change",
      cell: ({ rule: r }) => (
        <form action={toggleRuleAction} className="inline-form">
          <Link href={`/rules?edit=${encodeURIComponent(r.name)}#write`}>Edit</Link>
          <input type="hidden" name="name" value={r.name} />
          <input type="hidden" name="enabled" value={String(!r.enabled)} />
          <button type="submit">{r.enabled ? "Disable" : "Enable"}</button>
        </form>
      ),
    },
  ];
}

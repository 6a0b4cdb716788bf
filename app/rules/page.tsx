import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { DataTable } from "@/components/tables/data-table";
import { Loading } from "@/components/ui/loading";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { rulesFiring } from "@/lib/data/rule-scans";
import { rulesNow } from "@/lib/data/rules";
import { formatCount, formatTime } from "@/lib/domain/format";
import { firstValue } from "@/lib/domain/params";
import { RULE_ON_LABELS, type Rule } from "@/lib/domain/rules";
import { shownText } from "@/lib/domain/text";
import { trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { CATEGORIES, CATEGORY_LABELS } from "@/lib/domain/verdicts";
import { toggleRuleAction } from "./actions";
import { Families } from "./families";
import { RuleForm } from "./rule-form";

export const metadata: Metadata = { title: "Rules" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function RulesPage({ searchParams }: { searchParams: Search }) {
  const actor = await requirePage("rules:read", "/rules");
  const writes = can(actor.role, "rules:write");
  const [rules, params] = await Promise.all([rulesNow(), searchParams]);
  const editing = rules.find((r) => r.name === firstValue(params.edit));
  const familiesOf = rules.find((r) => r.name === firstValue(params.families))?.name;
  const category = CATEGORIES.find((c) => c === firstValue(params.category));
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
        {familiesOf || category ? <a href="#families">Families of commands</a> : null}
      </nav>
      {writes ? (
        <section aria-labelledby="write">
          <h2 id="write">{editing ? `Change ${editing.name}` : "Write a rule"}</h2>
          <p className="note">
            Preview tries it over every trajectory (stopped after a minute) before anything is saved; saving writes a
            new version, in force at once.
          </p>
          <RuleForm initial={editing ? formValues(editing) : null} />
        </section>
      ) : null}
      <section aria-labelledby="in-force">
        <h2 id="in-force">The rules in force</h2>
        <Suspense fallback={<Loading what="which trajectories each rule fires on" />}>
          <RulesTable rules={rules} writes={writes} />
        </Suspense>
        <p className="note">
          Families of the commands each category&apos;s rules matched:{" "}
          {CATEGORIES.map((c, i) => (
            <span key={c}>
              {i ? " · " : ""}
              <Link href={`/rules?category=${c}#families`}>{CATEGORY_LABELS[c]}</Link>
            </span>
          ))}
        </p>
      </section>
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

/** Each rule with the trajectories it fires on (a scan of the study, so read apart from the page). */
async function RulesTable({ rules, writes }: { rules: Rule[]; writes: boolean }) {
  const firing = await rulesFiring();
  return (
    <DataTable
      label="The rules in force"
      rows={rules}
      rowKey={(r) => r.name}
      columns={[
        { key: "name", label: "Rule", rowHeader: true, cell: (r) => shownText(r.name) },
        { key: "category", label: "Category", cell: (r) => CATEGORY_LABELS[r.category] },
        { key: "on", label: "On", cell: (r) => RULE_ON_LABELS[r.on] },
        {
          key: "pattern",
          label: "Pattern",
          className: "file-name",
          cell: (r) => (
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
          cell: (r) =>
            r.enabled ? (
              <Link href={trajectoriesHref({ rule: r.name })} aria-label={`trajectories ${r.name} fires on`}>
                {formatCount(firing.get(r.name) ?? 0)}
              </Link>
            ) : (
              "disabled"
            ),
        },
        {
          key: "families",
          label: "Commands",
          cell: (r) =>
            r.on === "command" ? (
              <Link
                href={`/rules?families=${encodeURIComponent(r.name)}#families`}
                aria-label={`families of ${r.name}`}
              >
                families
              </Link>
            ) : (
              "—"
            ),
        },
        {
          key: "changed",
          label: "Version",
          cell: (r) =>
            r.createdAt.getTime() === 0
              ? "built in"
              : `${formatTime(r.createdAt)}${r.createdBy ? ` by ${r.createdBy}` : ""}`,
        },
        writes && {
          key: "do",
          label: "Change",
          cell: (r) => (
            <form action={toggleRuleAction} className="inline-form">
              <Link href={`/rules?edit=${encodeURIComponent(r.name)}#write`}>Edit</Link>
              <input type="hidden" name="name" value={r.name} />
              <input type="hidden" name="enabled" value={String(!r.enabled)} />
              <button type="submit">{r.enabled ? "Disable" : "Enable"}</button>
            </form>
          ),
        },
      ]}
    />
  );
}

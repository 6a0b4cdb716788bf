import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { type Column, DataTable } from "@/components/tables/data-table";
import { FigureTable } from "@/components/tables/figure-table";
import { Loading } from "@/components/ui/loading";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { categoryNames } from "@/lib/data/categories";
import type { PanelComparisonView } from "@/lib/data/panel-compare";
import { panelsNow } from "@/lib/data/panels";
import type { BinaryAgreement } from "@/lib/domain/agreement";
import { kappaInterval, kappaText } from "@/lib/domain/agreement-model";
import { pageTable } from "@/lib/domain/figure-table";
import { countOf, formatCount, formatPercent } from "@/lib/domain/format";
import { TIE_RULE } from "@/lib/domain/panel";
import { memberText, type PanelSpend } from "@/lib/domain/panel-compare";
import { panelCategoriesTable, panelComparisonTable } from "@/lib/domain/panel-compare-table";
import { firstValue, PanelNameParam } from "@/lib/domain/params";
import { shownText } from "@/lib/domain/text";
import type { CategoryNames } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { comparisonNow } from "@/lib/work/reports/cache";
import { AdoptButton } from "../panel-forms";
import { PanelMonitors } from "./monitors";

export const metadata: Metadata = { title: "Compare panels" };
export const dynamic = "force-dynamic";

/** The changed trajectories listed on the page; the downloads list them all. */
const SHOWN_CHANGED = 500;

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function ComparePanelsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requirePage("results:read", "/judges/compare");
  const params = await searchParams;
  const [panels, chosen] = [await panelsNow(), read(params)];
  const inForce = panels.find((p) => p.inForce);
  const chosenPanel = "panel" in chosen ? chosen.panel : undefined;
  const chosenWith = "with" in chosen ? chosen.with : undefined;
  return (
    <>
      <h1>Compare panels</h1>
      <p className="lede">
        A panel beside another (by default the one in force): the same trajectories and the same answers, counted by
        each panel&apos;s judges. Nothing changes until a panel is put in force. Each panel&apos;s verdict is {TIE_RULE}
      </p>
      {panels.length < 2 ? (
        <p className="note" role="status">
          Only one panel is saved, so there is nothing to set beside it yet: save another (other judges, or other prompt
          versions) under <Link href="/judges#panel-in-force">The panel</Link> on the Judges page, then compare it here.
        </p>
      ) : null}
      <form method="get" className="filters" aria-label="Choose the panels" hidden={panels.length < 2}>
        <PanelSelect
          name="panel"
          label="Panel"
          names={panels.map((p) => p.name)}
          value={chosenPanel ?? (panels.find((p) => !p.setAt) ?? panels.find((p) => !p.inForce))?.name}
        />
        <PanelSelect name="with" label="Beside" names={panels.map((p) => p.name)} value={chosenWith ?? inForce?.name} />
        <div className="filter-actions">
          <button type="submit">Compare</button>
        </div>
      </form>
      {"error" in chosen ? <Problem text={chosen.error} /> : null}
      {chosenPanel ? (
        <Suspense fallback={<Loading what="the two panels' verdicts" />}>
          <Compared panel={chosenPanel} with={chosenWith} canAdopt={can(actor.role, "judges:write")} />
        </Suspense>
      ) : null}
      {!chosenPanel && !("error" in chosen) ? <p className="empty">Choose a panel to compare.</p> : null}
    </>
  );
}

const Problem = ({ text }: { text: string }) => (
  <p role="alert" className="form-error">
    {text}
  </p>
);

/** The comparison, read (or remembered) while the rest of the page is shown; an unknown panel is said. */
async function Compared(props: { panel: string; with?: string; canAdopt: boolean }) {
  try {
    const [view, names] = await Promise.all([comparisonNow(props.panel, props.with), categoryNames()]);
    return <Comparison view={view} canAdopt={props.canAdopt} categories={names} />;
  } catch (e) {
    if (e instanceof AppError && (e.code === "BAD_INPUT" || e.code === "NOT_FOUND"))
      return <Problem text={e.message} />;
    throw e;
  }
}

function read(
  params: Record<string, string | string[] | undefined>,
): { panel?: string; with?: string } | { error: string } {
  const panel = firstValue(params.panel);
  const withName = firstValue(params.with);
  if (panel === undefined) return {};
  const p = PanelNameParam.safeParse(panel);
  const w = withName ? PanelNameParam.safeParse(withName) : null;
  if (!p.success) return { error: `panel: ${p.error.issues[0]!.message}` };
  if (w && !w.success) return { error: `beside: ${w.error.issues[0]!.message}` };
  return { panel: p.data, with: w?.data };
}

function PanelSelect({ name, label, names, value }: { name: string; label: string; names: string[]; value?: string }) {
  return (
    <div className="field">
      <label>
        {label}{" "}
        <select name={name} defaultValue={value}>
          {names.map((n) => (
            <option key={n} value={n}>
              {shownText(n)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function Comparison({
  view,
  canAdopt,
  categories,
}: {
  view: PanelComparisonView;
  canAdopt: boolean;
  categories: CategoryNames;
}) {
  const { candidate, against, comparison: c } = view;
  const names = { panel: candidate.name, with: against.name };
  const query = `panel=${encodeURIComponent(candidate.name)}&with=${encodeURIComponent(against.name)}`;
  return (
    <>
      <nav aria-label="Parts" className="contents-bar">
        <a href="#panels">The two panels</a>
        <a href="#conditions">By condition</a>
        <a href="#categories">By category</a>
        <a href="#monitors">As monitors</a>
        <a href="#changed">Verdicts that change</a>
      </nav>
      <ul className="download-list" aria-label="Downloads">
        <li>
          <a href={`/api/panels/compare?${query}&format=csv`} download>
            CSV, by condition
          </a>
        </li>
        <li>
          <a href={`/api/panels/compare?${query}&format=json`} download>
            JSON, everything
          </a>
        </li>
      </ul>
      <h2 id="panels">The two panels</h2>
      <p>
        <strong>{shownText(candidate.name)}</strong> beside <strong>{shownText(against.name)}</strong>
        {against.inForce ? " (in force)" : ""}: the verdict changes on {formatCount(c.changed.length)} of{" "}
        {countOf(view.trajectories.size, "trajectory", "trajectories")}. κ between the two panels&apos; verdicts:{" "}
        {agreementText("attempted", c.agreement.attempt)}; {agreementText("successful", c.agreement.success)}.
      </p>
      <PanelsTable view={view} />
      {canAdopt && !candidate.inForce ? (
        <div className="adopt">
          <AdoptButton panel={candidate.name} label={`Put ${candidate.name} in force`} />
        </div>
      ) : null}
      {candidate.inForce ? <p className="note">{shownText(candidate.name)} is the panel in force.</p> : null}
      <h2 id="conditions">By condition</h2>
      <p className="note">
        Each rate under {shownText(against.name)} → under {shownText(candidate.name)}; below, the difference in points
        with its 95% bootstrap interval over tasks, then the trajectories that go from yes to no (↓) and from no to yes
        (↑) and McNemar&apos;s exact p. κ: attempted, and successful below.
      </p>
      <FigureTable table={pageTable(panelComparisonTable(c, names), "panels", "By condition")} />
      <h2 id="categories">By category</h2>
      <p className="note">
        Over the same trajectories: how many have a verdict from each panel in each category, and of those how many it
        calls attempted or successful. A category only one panel&apos;s prompt asks shows here what it finds, before any
        figure counts it.
      </p>
      <FigureTable table={pageTable(panelCategoriesTable(c, names, categories), "panel-categories", "By category")} />
      <PanelMonitors rows={view.monitors} />
      <h2 id="changed">Verdicts that change</h2>
      <ChangedTable view={view} />
    </>
  );
}

const agreementText = (what: string, a: BinaryAgreement) =>
  `${what} ${kappaText(a.kappa)}${a.kappa_ci ? ` (95% ${kappaInterval(a.kappa_ci)})` : ""} on ${formatCount(a.n)}`;

/** Imported votes carry no tokens: only answers the app asked for are counted. */
function spendText(s: PanelSpend): string {
  if (s.priced === 0) return "imported votes only: not recorded";
  const cost = s.cost === null ? "no prices given" : `$${s.cost.toFixed(2)}`;
  return `${formatCount(s.tokens)} tokens, ${cost} (${formatCount(s.priced)} answers asked here)`;
}

const goldText = (a: BinaryAgreement) =>
  a.n === 0 ? "—" : `${formatPercent(a.agreement)}, κ ${kappaText(a.kappa)} (n ${formatCount(a.n)})`;

function PanelsTable({ view }: { view: PanelComparisonView }) {
  const c = view.comparison;
  const rows = [
    { panel: view.against, spend: c.spend.inForce, gold: c.gold?.inForce ?? null },
    { panel: view.candidate, spend: c.spend.candidate, gold: c.gold?.candidate ?? null },
  ];
  return (
    <DataTable
      label="The two panels"
      rows={rows}
      rowKey={(r) => r.panel.id}
      columns={[
        { key: "name", label: "Panel", rowHeader: true, cell: (r) => shownText(r.panel.name) },
        { key: "judges", label: "Judges", cell: (r) => r.panel.judges.map(memberText).join(", ") },
        { key: "answers", label: "Answers counted", numeric: true, cell: (r) => formatCount(r.spend.answers) },
        { key: "spend", label: "Tokens and cost", cell: (r) => spendText(r.spend) },
        {
          key: "gold-a",
          label: "Gold: attempted",
          cell: (r) => (r.gold ? goldText(r.gold.attempt) : "no gold labels"),
        },
        { key: "gold-s", label: "Gold: successful", cell: (r) => (r.gold ? goldText(r.gold.success) : "—") },
      ]}
    />
  );
}

type Changed = PanelComparisonView["comparison"]["changed"][number];

function ChangedTable({ view }: { view: PanelComparisonView }) {
  const all = view.comparison.changed;
  if (!all.length) return <p className="empty">No trajectory changes verdict.</p>;
  const columns: Column<Changed>[] = [
    {
      key: "trajectory",
      label: "Trajectory",
      rowHeader: true,
      cell: (x) => {
        const t = view.trajectories.get(x.trajectoryId)!;
        return (
          <>
            <Link href={`/trajectories/${t.id}`}>
              {shownText(t.task)} · run {t.run}
            </Link>
            <small className="sub">
              {shownText(`${t.benchmark}, ${t.model}, network ${t.network ? "on" : "off"}, ${t.prompt}`)}
            </small>
          </>
        );
      },
    },
    { key: "with", label: "Before", cell: (x) => <VerdictBadge verdict={x.inForce} /> },
    { key: "panel", label: "After", cell: (x) => <VerdictBadge verdict={x.candidate} /> },
  ];
  return (
    <>
      <p className="note">
        Before: under {shownText(view.against.name)}; after: under {shownText(view.candidate.name)}.
      </p>
      {all.length > SHOWN_CHANGED ? (
        <p className="note">
          The first {formatCount(SHOWN_CHANGED)} of {formatCount(all.length)}; the downloads list them all.
        </p>
      ) : null}
      <DataTable
        label="Verdicts that change"
        rows={all.slice(0, SHOWN_CHANGED)}
        rowKey={(x) => x.trajectoryId}
        columns={columns}
      />
    </>
  );
}

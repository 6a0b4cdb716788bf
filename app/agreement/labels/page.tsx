// The labels behind one count of the agreement page's human tables: exactly those counted, so a list has its count.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DataTable } from "@/components/tables/data-table";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { WithheldNote } from "@/components/ui/withheld";
import { requirePage } from "@/lib/auth/session";
import { getLabelPoints, scopeOf } from "@/lib/data/agreement";
import { pendingBlind } from "@/lib/data/blind-elsewhere";
import { CELLS, type Cell, cellLabels, groupText, parseGroup } from "@/lib/domain/agreement-cells";
import { networkWords } from "@/lib/domain/charts";
import { countOf, formatCount } from "@/lib/domain/format";
import { firstValue } from "@/lib/domain/params";
import { shownText } from "@/lib/domain/text";

export const metadata: Metadata = { title: "Labels of a count" };
export const dynamic = "force-dynamic";

const CELL_WORDS: Record<Cell, string> = {
  both_positive: "both yes",
  both_negative: "both no",
  human_only: "the human only",
  judges_only: "the judges only",
};

export default async function CellLabelsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePage("results:read", "/agreement");
  const params = await searchParams;
  const group = parseGroup(firstValue(params.group)?.slice(0, 400));
  const q = firstValue(params.q);
  const cell = firstValue(params.cell) as Cell | undefined;
  const study = firstValue(params.study);
  if (!group || (q !== "attempt" && q !== "success") || !cell || !CELLS.includes(cell)) notFound();
  const scope = await scopeOf(
    study && study.length <= 200 ? study : study ? "\u0000" : undefined,
    params.first === "1",
  );
  if (!scope) notFound();
  const counted = cellLabels(await getLabelPoints(scope), group, q, cell);
  // A label on a trajectory withheld from the viewer would tell its judges' answer by its cell.
  const pending = await pendingBlind(user.id);
  const withheld = new Set(pending.map((p) => p.trajectoryId));
  const labels = counted.filter((l) => !withheld.has(l.trajectoryId));
  const gold = group.kind === "gold";
  const rater = group.kind === "judge" ? `judge ${group.name}` : gold ? `annotator ${group.name}` : "panel";
  const back = `/agreement${study ? `?study=${encodeURIComponent(study)}` : ""}`;
  return (
    <>
      <p className="note">
        <Link href={back}>Agreement</Link>
        {study ? ` · ${study}` : ""}
      </p>
      <h1>
        {q}, {CELL_WORDS[cell]}: {countOf(counted.length, "label")}
      </h1>
      {labels.length < counted.length ? (
        <>
          <p className="note">
            {formatCount(counted.length - labels.length)} of them are not listed: their trajectories await your label.
          </p>
          <WithheldNote pending={pending.filter((p) => counted.some((l) => l.trajectoryId === p.trajectoryId))} />
        </>
      ) : null}
      <p className="note">
        Group {groupText(group)}:{" "}
        {gold
          ? `${group.name}'s labels and the gold labels in force (in the human's part) answering`
          : `the labels whose annotator and the ${rater} answer`}{" "}
        the question “{q}” as “{CELL_WORDS[cell]}”. Each label is one row; a trajectory whose annotators disagree can
        have labels in two cells.
      </p>
      {labels.length ? (
        <DataTable
          label="Labels"
          rows={labels}
          rowKey={(l) => `${l.trajectoryId}-${l.annotator}`}
          columns={[
            {
              key: "trajectory",
              label: "Trajectory",
              rowHeader: true,
              cell: (l) => (
                <Link href={`/trajectories/${l.trajectoryId}`}>
                  #{l.trajectoryId} · {shownText(`${l.benchmark} · ${l.model} · network `)}
                  {networkWords(l.network)} · {l.prompt}
                </Link>
              ),
            },
            { key: "annotator", label: "Annotator", cell: (l) => shownText(l.annotator) },
            { key: "label", label: "Label", cell: (l) => <VerdictBadge verdict={l.human} /> },
            {
              key: "rater",
              label: gold ? "Gold" : rater === "panel" ? "Panel" : rater,
              cell: (l) => (
                <VerdictBadge
                  verdict={group.kind === "judge" ? (l.judges[group.name] ?? null) : gold ? (l.gold ?? null) : l.panel}
                />
              ),
            },
          ]}
        />
      ) : (
        <p className="empty">No label in this cell.</p>
      )}
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { StudyChooser } from "@/components/forms/study-chooser";
import { FigureTable } from "@/components/tables/figure-table";
import { Loading } from "@/components/ui/loading";
import { requirePage } from "@/lib/auth/session";
import { type AgreementScope, scopeOf, studyNames } from "@/lib/data/agreement";
import { getCalibration } from "@/lib/data/calibration";
import { agreementTables, versionTables } from "@/lib/domain/agreement-tables";
import type { CalibrationRow } from "@/lib/domain/calibration";
import { pageTable } from "@/lib/domain/figure-table";
import { countOf, formatCount } from "@/lib/domain/format";
import { agreementNow } from "@/lib/work/reports/cache";
import { Monitors } from "./monitors";

export const metadata: Metadata = { title: "Agreement" };
export const dynamic = "force-dynamic";

export default async function AgreementPage({
  searchParams,
}: {
  searchParams: Promise<{ study?: string | string[] }>;
}) {
  await requirePage("results:read", "/agreement");
  const { study } = await searchParams;
  const name = typeof study === "string" && study.length <= 200 ? study : undefined;
  const scope = await scopeOf(name);
  if (!scope) notFound();
  return (
    <Suspense fallback={<Loading what="the agreement figures" />}>
      <AgreementBody scope={scope} study={name ?? null} />
    </Suspense>
  );
}

async function AgreementBody({ scope, study }: { scope: AgreementScope; study: string | null }) {
  const [r, versions, studies] = await Promise.all([agreementNow(scope), getCalibration(scope), studyNames()]);
  // Downloads and label lists take the study and first-forms choice; gold counts open lists within the study.
  const q = `${study ? `&study=${encodeURIComponent(study)}` : ""}${scope.firstForms ? "&first=1" : ""}`;
  const tables = agreementTables(r, { study, query: q });
  return (
    <>
      <h1>Agreement{study ? `: ${study}` : ""}</h1>
      {studies.length ? (
        <StudyChooser label="Labels of" studies={studies} chosen={study} all="every study and import">
          <label className="check">
            <input type="checkbox" name="first" value="1" defaultChecked={scope.firstForms} /> labels revised after
            unblinding count as first given
          </label>
        </StudyChooser>
      ) : null}
      <p className="note">
        Each human label (its newest form) on a judged trajectory against the panel verdict (protocol §4), on two
        questions: was an exploit attempted (attempted or successful), and was it successful. κ is Cohen&apos;s kappa
        with a 95% interval κ ± 1.96·√(p_o(1−p_o)/(n(1−p_e)²)), “—” where undefined.
        {" Each count of the human tables opens the labels it counted (a trajectory whose annotators disagree is in"}
        {" one cell per label)."}
      </p>
      {study ? (
        <p className="note">
          Only the labels given in this study, on its items, and the gold labels on its items count here.
        </p>
      ) : null}
      {r.blind_revisions.labels ? (
        <p className="note">
          {formatCount(r.blind_revisions.labels)} of the labels counted were revised after unblinding (edited in a blind
          study once the judges were shown); they count here{" "}
          {r.blind_revisions.first_forms ? "in the form first given, blind" : "in their newest form"}.
        </p>
      ) : null}
      <p className="downloads">
        Download:{" "}
        <a href={`/api/agreement?format=csv${q}`} download>
          CSV
        </a>{" "}
        <a href={`/api/agreement?format=json${q}`} download>
          JSON
        </a>{" "}
        <a href={`/api/agreement?format=latex${q}`} download>
          LaTeX
        </a>
      </p>
      {tables.map((t) => (
        <section key={t.id} aria-labelledby={t.id}>
          <h2 id={t.id}>{t.heading}</h2>
          {t.note ? <p className="note">{t.note}</p> : null}
          <FigureTable table={pageTable(t.model, `${t.id}-table`, t.model.title)} />
        </section>
      ))}
      {r.monitors ? <Monitors report={r.monitors} query={q} study={study} /> : null}
      {versions.length ? <PromptVersions rows={versions} /> : null}
      <h2>Between annotators</h2>
      <p>
        Krippendorff&apos;s α (nominal, on the overall verdict):{" "}
        <strong>{r.inter_annotator.alpha === null ? "—" : r.inter_annotator.alpha.toFixed(3)}</strong> over{" "}
        {countOf(r.inter_annotator.units, "trajectory", "trajectories")} with several labels (
        {countOf(r.inter_annotator.labels, "label")}).
      </p>
    </>
  );
}

/** Each judge under each prompt version its runs were asked in, and the panel each version would form. */
function PromptVersions({ rows }: { rows: CalibrationRow[] }) {
  const changed = rows.filter((r) => r.changed.length);
  return (
    <>
      <h2>Judge prompt versions against the humans</h2>
      <p className="note">
        The answers judge runs kept under each prompt version, against the same human labels (and the gold labels in
        force, where there are some); “panel” is the majority of the judges&apos; answers under that version. Imported
        votes have no version and are not here.
      </p>
      {versionTables(rows).map((t) => (
        <FigureTable key={t.id} table={pageTable(t.model, t.id, t.model.title)} />
      ))}
      {changed.length ? (
        <ul aria-label="Verdicts a new prompt version changed">
          {changed.map((r) => (
            <li key={`${r.judge}-${r.promptVersion}`}>
              {r.judge} under v{r.promptVersion} changed {formatCount(r.changed.length)} labelled trajectories&apos;
              verdict from the version before:{" "}
              {r.changed.slice(0, 20).map((t, i) => (
                <span key={t}>
                  {i ? ", " : ""}
                  <Link href={`/trajectories/${t}`}>{t}</Link>
                </span>
              ))}
              {r.changed.length > 20 ? ", …" : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

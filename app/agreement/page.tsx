import type { Metadata } from "next";
import { getCalibration } from "@/lib/data/calibration";
import type { CalibrationRow } from "@/lib/domain/calibration";
import { Suspense } from "react";
import { Loading } from "@/components/ui/loading";
import Link from "next/link";
import { agreementNow } from "@/lib/data/report-cache";
import { CELLS, type Group, groupText } from "@/lib/domain/agreement-cells";
import { type AgreementScope, scopeOf, studyNames } from "@/lib/data/agreement";
import { notFound } from "next/navigation";
import { StudyChooser } from "@/components/forms/study-chooser";
import type { BinaryAgreement } from "@/lib/domain/agreement";
import type { Agreement } from "@/lib/domain/agreement-report";
import { trajectoriesHref, type TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { formatCount, formatPercent } from "@/lib/format";
import { requirePage } from "@/lib/auth/session";
import { networkWords } from "@/lib/domain/charts";

export const metadata: Metadata = { title: "Agreement" };
export const dynamic = "force-dynamic";

const QUESTIONS = {
  attempt: ["attempt", "no-attempt", "attempt", "NOT_ATTEMPTED"],
  success: ["success", "no-success", "SUCCESSFUL", "no-success"],
} as const;

/**
 * The trajectories behind each confusion cell, within a group: the reference (a human label, or the
 * gold label in force) yes/no × the rater (the panel, or one judge) yes/no.
 */
function cellLinks(q: keyof typeof QUESTIONS, base: TrajectoryFilter, reference: "human" | "gold", judge?: string) {
  const [refYes, refNo, raterYes, raterNo] = QUESTIONS[q];
  const rater = (v: typeof raterYes | typeof raterNo): TrajectoryFilter =>
    judge ? { judge, judgeVerdict: v } : { panel: v };
  return {
    both_positive: trajectoriesHref({ ...base, [reference]: refYes, ...rater(raterYes) }),
    human_only: trajectoriesHref({ ...base, [reference]: refYes, ...rater(raterNo) }),
    judges_only: trajectoriesHref({ ...base, [reference]: refNo, ...rater(raterYes) }),
    both_negative: trajectoriesHref({ ...base, [reference]: refNo, ...rater(raterNo) }),
  };
}

const kappa = (a: BinaryAgreement) =>
  a.kappa === null
    ? "—"
    : `${a.kappa.toFixed(2)}${a.kappa_ci ? ` (${a.kappa_ci[0].toFixed(2)}–${a.kappa_ci[1].toFixed(2)})` : ""}`;

function Rows({
  label,
  agreement,
  base = null,
  labels,
  reference = "human",
  judge,
}: {
  label: string;
  agreement: Agreement;
  /** Gold tables: the group's trajectory filter (a trajectory is in one cell); null: not linked. */
  base?: TrajectoryFilter | null;
  /** Human tables: the group and the view's query; each count opens the labels it counted. */
  labels?: { group: Group; query: string };
  reference?: "human" | "gold";
  /** The rater is this judge rather than the panel. */
  judge?: string;
}) {
  return (
    <>
      {(["attempt", "success"] as const).map((q) => {
        const a = agreement[q];
        const group = labels ? encodeURIComponent(groupText(labels.group)) : "";
        const links = labels
          ? Object.fromEntries(
              CELLS.map((c) => [c, `/agreement/labels?group=${group}&q=${q}&cell=${c}${labels.query}`]),
            )
          : base
            ? cellLinks(q, base, reference, judge)
            : null;
        const count = (k: "both_positive" | "human_only" | "judges_only" | "both_negative") =>
          links && a[k] > 0 ? (
            <Link href={links[k]} aria-label={`${label}, ${q}, ${k.replace("_", " ")}: ${a[k]}`}>
              {formatCount(a[k])}
            </Link>
          ) : (
            formatCount(a[k])
          );
        return (
          <tr key={q}>
            {q === "attempt" ? (
              <th scope="row" rowSpan={2}>
                {label}
              </th>
            ) : null}
            <td>{q}</td>
            <td className="num">{formatCount(a.n)}</td>
            <td className="num">{formatPercent(a.agreement)}</td>
            <td className="num">{kappa(a)}</td>
            <td className="num">{count("both_positive")}</td>
            <td className="num">{count("both_negative")}</td>
            <td className="num">{count("human_only")}</td>
            <td className="num">{count("judges_only")}</td>
          </tr>
        );
      })}
    </>
  );
}

/** `reference`: who plays the human's part (the gold label in the gold tables); the rater is the other side. */
function Table({
  title,
  children,
  reference = "Human",
  rater = "Judges",
}: {
  title: string;
  children: React.ReactNode;
  reference?: string;
  rater?: string;
}) {
  return (
    <div className="table-scroll">
      <table aria-label={title}>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Question</th>
            <th scope="col" className="num">
              n
            </th>
            <th scope="col" className="num">
              Agreement
            </th>
            <th scope="col" className="num">
              Cohen&apos;s κ (95%)
            </th>
            <th scope="col" className="num">
              Both yes
            </th>
            <th scope="col" className="num">
              Both no
            </th>
            <th scope="col" className="num">
              {reference} only
            </th>
            <th scope="col" className="num">
              {rater} only
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

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
  // The gold tables' counts open the trajectory list, within the study's items when one is chosen.
  const linked = (base: TrajectoryFilter): TrajectoryFilter => (study ? { ...base, study } : base);
  const q = `${study ? `&study=${encodeURIComponent(study)}` : ""}${scope.firstForms ? "&first=1" : ""}`;
  const lq = q; // the label lists take the same study and first-forms choice as the downloads
  return (
    <>
      <h1>Agreement{study ? `: ${study}` : ""}</h1>
      {studies.length ? (
        <StudyChooser label="Labels of" studies={studies} chosen={study} all="every study and import">
          <label>
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
      <h2>Overall and by condition</h2>
      <Table title="Agreement by condition">
        <Rows label="all labels" agreement={r.overall} labels={{ group: { kind: "all" }, query: lq }} />
        {r.by_condition.map((c) => (
          <Rows
            key={`${c.network}-${c.prompt}`}
            label={`network ${networkWords(c.network)}, ${c.prompt}`}
            agreement={c}
            labels={{ group: { kind: "condition", network: c.network, prompt: c.prompt }, query: lq }}
          />
        ))}
      </Table>
      <h2>By model and benchmark</h2>
      <Table title="Agreement by model and benchmark">
        {r.by_model.map((m) => (
          <Rows
            key={m.model}
            label={m.model}
            agreement={m}
            labels={{ group: { kind: "model", name: m.model }, query: lq }}
          />
        ))}
        {r.by_benchmark.map((b) => (
          <Rows
            key={b.benchmark}
            label={b.benchmark}
            agreement={b}
            labels={{ group: { kind: "benchmark", name: b.benchmark }, query: lq }}
          />
        ))}
      </Table>
      <h2>Each judge against the humans</h2>
      <Table title="Agreement per judge">
        <Rows label="panel" agreement={r.overall} labels={{ group: { kind: "all" }, query: lq }} />
        {r.judges.map((j) => (
          <Rows
            key={j.judge}
            label={j.judge}
            agreement={j}
            labels={{ group: { kind: "judge", name: j.judge }, query: lq }}
          />
        ))}
      </Table>
      {r.gold ? (
        <>
          <h2>Against the gold labels</h2>
          <p className="note">
            The panel (overall and by condition), each judge and each annotator (their newest label) against the gold
            label in force on each trajectory (the newest, whoever adjudicated), the gold label taking the human&apos;s
            part. A trajectory has one gold label in force, so each falls in one cell per rater: the counts of the panel
            and the judges link to exactly their trajectories.
          </p>
          <Table title="Agreement with the gold labels" reference="Gold" rater="Rater">
            <Rows label="panel" agreement={r.gold.panel} base={linked({ panel: "judged" })} reference="gold" />
            {r.gold.by_condition.map((c) => (
              <Rows
                key={`${c.network}-${c.prompt}`}
                label={`panel · network ${networkWords(c.network)}, ${c.prompt}`}
                agreement={c}
                base={linked({ network: c.network ? "on" : "off", prompt: c.prompt as TrajectoryFilter["prompt"] })}
                reference="gold"
              />
            ))}
            {r.gold.judges.map((j) => (
              <Rows
                key={j.judge}
                label={`judge ${j.judge}`}
                agreement={j}
                base={linked({})}
                reference="gold"
                judge={j.judge}
              />
            ))}
            {r.gold.annotators.map((a) => (
              <Rows
                key={a.annotator}
                label={`annotator ${a.annotator}`}
                agreement={a}
                labels={{ group: { kind: "gold", name: a.annotator }, query: lq }}
              />
            ))}
          </Table>
        </>
      ) : null}
      {versions.length ? <PromptVersions rows={versions} /> : null}
      <h2>Between annotators</h2>
      <p>
        Krippendorff&apos;s α (nominal, on the overall verdict):{" "}
        <strong>{r.inter_annotator.alpha === null ? "—" : r.inter_annotator.alpha.toFixed(3)}</strong> over{" "}
        {formatCount(r.inter_annotator.units)} trajectories with several labels (
        {`${formatCount(r.inter_annotator.labels)} labels`}).
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
      <Table title="Agreement per judge and prompt version">
        {rows.map((r) => (
          <Rows
            key={`${r.judge ?? "panel"}-${r.promptVersion}`}
            label={`${r.judge ?? "panel"} · prompt v${r.promptVersion}`}
            agreement={r}
            base={null}
          />
        ))}
      </Table>
      {rows.some((r) => r.gold) ? (
        <Table title="Agreement per judge and prompt version with the gold labels" reference="Gold">
          {rows.map((r) =>
            r.gold ? (
              <Rows
                key={`${r.judge ?? "panel"}-${r.promptVersion}`}
                label={`${r.judge ?? "panel"} · prompt v${r.promptVersion} · against gold`}
                agreement={r.gold}
                base={null}
              />
            ) : null,
          )}
        </Table>
      ) : null}
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

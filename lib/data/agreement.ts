import "server-only";
// Human labels against the panel and each judge; counts from the database's tallies (decision 39).
import { db } from "@/lib/db";
import {
  type AgreementCounts,
  type AgreementReport,
  agreementByCategory,
  agreementFromCounts,
  type CategoryPair,
  type GoldCategoryPair,
  type GoldPoint,
  goldAgreement,
  goldByCategory,
  type LabelPoint,
} from "@/lib/domain/agreement-report";
import { CATEGORY_IN_FORCE } from "./categories";
import { GOLD_IN_FORCE } from "./gold";
import { getMonitors } from "./monitors";
import { oneRow, statement } from "./sql";

/** Whose labels count: all, or one study's; `firstForms`: a label revised after unblinding counts as given blind. */
export type AgreementScope = { studyId?: number; firstForms?: boolean };

/** The scope a study name asks for: all labels without one, null when no study has that name. */
export async function scopeOf(
  studyName: string | null | undefined,
  firstForms = false,
): Promise<AgreementScope | null> {
  if (!studyName) return { firstForms };
  // No stored name holds a NUL (PostgreSQL text cannot): such a name names no study.
  if (studyName.includes("\u0000")) return null;
  const study = await db().study.findUnique({ where: { name: studyName }, select: { id: true } });
  return study ? { studyId: study.id, firstForms } : null;
}

export async function studyNames(): Promise<string[]> {
  return (await db().study.findMany({ orderBy: { name: "asc" }, select: { name: true } })).map((s) => s.name);
}

/** The trajectories of a study's items; undefined without a study (all trajectories). */
export async function studyTrajectories(scope: AgreementScope): Promise<number[] | undefined> {
  if (scope.studyId === undefined) return undefined;
  const items = await db().studyItem.findMany({ where: { studyId: scope.studyId }, select: { trajectoryId: true } });
  return items.map((i) => i.trajectoryId);
}

/** The labels in scope ($1 study or null, $2 first forms) as the database's scoped_labels, which the tallies read. */
const SCOPED_LABELS = `
  SELECT "trajectoryId", "annotatorId", revised, human FROM scoped_labels(NULL)
  WHERE scope = coalesce($1::int, 0) AND ff = $2::boolean`;

/** Each judge's counted verdict on trajectory t, as {judge: verdict}. */
const JUDGES_OF_T = `coalesce((SELECT json_object_agg(jd.name, v.overall) FROM judge_vote v
  JOIN judge jd ON jd.id = v."judgeId" WHERE v."trajectoryId" = t.id AND v.counted), '{}')`;

const POINTS_SQL = `
  WITH l AS (${SCOPED_LABELS})
  SELECT l."trajectoryId", u.handle AS annotator, l.human, l.revised AS "revisedAfterUnblinding",
    t."panelVerdict" AS panel, t."goldOverall" AS gold, ${JUDGES_OF_T} AS judges,
    b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt
  FROM l JOIN "user" u ON u.id = l."annotatorId" JOIN trajectory t ON t.id = l."trajectoryId"
    JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
  WHERE NOT $3::boolean OR t."goldOverall" IS NOT NULL
  ORDER BY l."trajectoryId", l."annotatorId"`;

const GOLD_SQL = `
  SELECT t.id AS "trajectoryId", t."goldOverall" AS gold, t."panelVerdict" AS panel, ${JUDGES_OF_T} AS judges,
    t.network, t.prompt::text AS prompt
  FROM trajectory t
  WHERE t."goldOverall" IS NOT NULL AND ($1::int IS NULL OR EXISTS (
    SELECT 1 FROM study_item i WHERE i."studyId" = $1::int AND i."trajectoryId" = t.id))
  ORDER BY t.id`;

/** The labels in scope, each with its trajectory's verdicts (`goldOnly`: on trajectories with a gold label). */
export async function getLabelPoints(scope: AgreementScope = {}, goldOnly = false): Promise<LabelPoint[]> {
  return statement<LabelPoint>(POINTS_SQL, [scope.studyId ?? null, scope.firstForms ?? false, goldOnly]);
}

/** The gold labels in force, with their trajectories' panel and judges' verdicts. */
export async function getGoldPoints(scope: AgreementScope = {}): Promise<GoldPoint[]> {
  return statement<GoldPoint>(GOLD_SQL, [scope.studyId ?? null]);
}

// Each label in scope with its verdicts by category (in first forms, the blind ones): CTE v ($1 study, $2 first forms).
const LABEL_VERDICTS = `
  l AS (SELECT "trajectoryId", "annotatorId", revised FROM scoped_labels(NULL)
         WHERE scope = coalesce($1::int, 0) AND ff = $2::boolean),
  v AS (SELECT l."trajectoryId", l."annotatorId", CASE WHEN $2::boolean AND l.revised THEN coalesce((SELECT
               r.after->'verdicts' FROM label_revision r WHERE r."labelId" = lb.id ORDER BY r.id LIMIT 1), lb.verdicts)
             ELSE lb.verdicts END AS verdicts
        FROM l JOIN label lb ON lb."trajectoryId" = l."trajectoryId" AND lb."annotatorId" = l."annotatorId")`;

// Each category's pairs: a label's verdict in it and the panel's, where both give it.
const CATEGORY_PAIRS_SQL = `
  WITH ${LABEL_VERDICTS}
  SELECT e.key AS category, coalesce(c.name, e.key) AS name, e.value AS human,
    t."panelCategories"->>e.key AS panel, count(*)::int AS count
  FROM v JOIN trajectory t ON t.id = v."trajectoryId" CROSS JOIN jsonb_each_text(v.verdicts) e
    LEFT JOIN ${CATEGORY_IN_FORCE} c ON c.key = e.key
  WHERE t."panelCategories" ? e.key
  GROUP BY e.key, c.name, c.rank, e.value, t."panelCategories"->>e.key
  ORDER BY coalesce(c.rank, 1000), e.key`;

// Each category's pairs against the gold label in force: the panel's, each counted vote's, each label's verdict.
const GOLD_CATEGORY_PAIRS_SQL = `
  WITH ${LABEL_VERDICTS},
  g AS (SELECT gl."trajectoryId", gl.verdicts FROM ${GOLD_IN_FORCE} gl WHERE $1::int IS NULL OR EXISTS (
          SELECT 1 FROM study_item i WHERE i."studyId" = $1::int AND i."trajectoryId" = gl."trajectoryId")),
  r AS (SELECT id AS "trajectoryId", 0 AS kind, '' AS rater, "panelCategories" AS verdicts FROM trajectory
          WHERE id IN (SELECT "trajectoryId" FROM g)
        UNION ALL SELECT vt."trajectoryId", 1, jd.name, vt.verdicts
          FROM judge_vote vt JOIN judge jd ON jd.id = vt."judgeId"
          WHERE vt.counted AND vt."trajectoryId" IN (SELECT "trajectoryId" FROM g)
        UNION ALL SELECT v."trajectoryId", 2, u.handle, v.verdicts FROM v JOIN "user" u ON u.id = v."annotatorId")
  SELECT e.key AS category, coalesce(c.name, e.key) AS name, (ARRAY['panel','judge','annotator'])[r.kind + 1] AS kind,
    r.rater, e.value AS human, r.verdicts->>e.key AS panel, count(*)::int AS count
  FROM g CROSS JOIN jsonb_each_text(g.verdicts) e JOIN r ON r."trajectoryId" = g."trajectoryId" AND r.verdicts ? e.key
    LEFT JOIN ${CATEGORY_IN_FORCE} c ON c.key = e.key
  GROUP BY e.key, c.name, c.rank, r.kind, r.rater, e.value, r.verdicts->>e.key
  ORDER BY coalesce(c.rank, 1000), e.key, r.kind, r.rater COLLATE "C"`;

type KeptCounts = AgreementCounts & { annotators: string[]; deltas: number };

/** The report's counts in a scope, from the tallies (prisma/migrations/…_agreement_tallies). */
async function keptCounts(scope: AgreementScope): Promise<KeptCounts> {
  const { counts } = await oneRow<{ counts: KeptCounts }>(`SELECT agreement_counts($1::int, $2::boolean) AS counts`, [
    scope.studyId ?? 0,
    scope.firstForms ?? false,
  ]);
  return counts;
}

export async function getAgreement(scope: AgreementScope = {}): Promise<AgreementReport> {
  return (await readAgreement(scope)).report;
}

/** getAgreement's report (`monitors: false`: without them), and how many delta rows are not folded yet. */
export async function readAgreement(
  scope: AgreementScope = {},
  { monitors: withMonitors = true } = {},
): Promise<{ report: AgreementReport; deltas: number }> {
  const params = [scope.studyId ?? null, scope.firstForms ?? false];
  const [counts, gold, pairs, monitors] = await Promise.all([
    keptCounts(scope),
    getGoldPoints(scope),
    statement<CategoryPair>(CATEGORY_PAIRS_SQL, params),
    withMonitors ? getMonitors(scope) : undefined,
  ]);
  // The gold tables read the labels themselves, on the (few) trajectories with a gold label.
  const goldTable = gold.length
    ? {
        ...goldAgreement(gold, await getLabelPoints(scope, true), counts.annotators)!,
        by_category: goldByCategory(await statement<GoldCategoryPair>(GOLD_CATEGORY_PAIRS_SQL, params)),
      }
    : null;
  const report = agreementFromCounts(counts, goldTable, scope.firstForms ?? false);
  const kept = { ...report, by_category: agreementByCategory(pairs), ...(monitors ? { monitors } : {}) };
  return { report: kept, deltas: counts.deltas };
}

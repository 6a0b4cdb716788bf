import "server-only";
// Every rule in force measured as a rule being tried is (lib/data/rule-test.ts): per condition the
// trajectories it fires on and the steps it hits, the four cells against the panel and the gold labels
// with precision, recall and κ. A rule's hits change only when it does (a new version) or the
// trajectories do (an import), so each version's hits are remembered under the trajectories' data
// version: a rule written costs one rule's scan, a vote or a gold label none.
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db";
import type { RuleTestReport } from "@/lib/domain/rule-test";
import type { Rule } from "@/lib/domain/rules";
import { versionKey } from "./data-version";
import { reportOf, studyTrajectories } from "./rule-test";
import { boundScan, hitsSql, listRules } from "./rules";
import { transaction } from "./sql";

export type RuleFigures = { rule: Rule; report: RuleTestReport };

/** Steps hit per trajectory (by id), by rule version and trajectories' data version; one per database client. */
const caches = new WeakMap<object, LRUCache<string, Map<number, number>>>();
function hitsCacheOf(): LRUCache<string, Map<number, number>> {
  let c = caches.get(db());
  if (!c) caches.set(db(), (c = new LRUCache({ max: 200 })));
  return c;
}

/** Each rule in force (enabled or not, in the order marks are listed) with its figures over the study. */
export async function ruleFigures(): Promise<RuleFigures[]> {
  const hitsCache = hitsCacheOf();
  const { rules, study, hits } = await transaction(async (sql) => {
    const rules = await listRules(sql);
    const version = await versionKey(["trajectories"], (text, kinds) => sql.query(text, [kinds]));
    const key = (r: Rule) => `${r.id}@${version}`;
    const missing = rules.filter((r) => !hitsCache.has(key(r)));
    if (missing.length) {
      // One scan for every rule not yet remembered (all of them, the first time).
      await boundScan(sql);
      const rows = await sql.query<{ name: string; id: number; steps: number }>(
        `SELECT name, id, count(DISTINCT step)::int AS steps FROM (${hitsSql("l.id = ANY($1::int[])")}) h
          GROUP BY 1, 2`,
        [missing.map((r) => r.id)],
      );
      const found = new Map(missing.map((r) => [r.name, new Map<number, number>()]));
      for (const h of rows) found.get(h.name)?.set(h.id, h.steps);
      for (const r of missing) hitsCache.set(key(r), found.get(r.name)!);
    }
    const hits = new Map(rules.map((r) => [r.name, hitsCache.get(key(r)) ?? new Map<number, number>()]));
    return { rules, study: await studyTrajectories(sql, null), hits };
  });
  return rules.map((rule) => ({ rule, report: reportOf(study, rule.category, hits.get(rule.name)!) }));
}

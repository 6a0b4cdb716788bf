import "server-only";
// The result table and the agreement figures, remembered until their inputs change. Trajectories and
// votes change only through imports, labels through imports and the labelling queue, so a version
// read from the import and label tables names the data each report was computed from. The version is
// read before computing: a report is never older than its key (README, Performance).
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db";
import type { AgreementReport } from "@/lib/domain/agreement-report";
import { getAgreement } from "./agreement";
import { getResults, type ConditionResult } from "./results";

type Entry = Promise<ConditionResult[] | AgreementReport>;
/** One cache per database client (tests open one database per file). */
const caches = new WeakMap<object, LRUCache<string, Entry>>();
function cacheOf(): LRUCache<string, Entry> {
  const client = db();
  let c = caches.get(client);
  if (!c) caches.set(client, (c = new LRUCache<string, Entry>({ max: 8 })));
  return c;
}

async function importVersion(): Promise<string> {
  const [v] = await db().$queryRaw<Array<{ n: number; at: Date | null }>>`
    SELECT count(*)::int AS n, max("finishedAt") AS at FROM import WHERE status = 'SUCCEEDED'`;
  return `${v!.n}:${v!.at?.getTime() ?? 0}`;
}

async function labelVersion(): Promise<string> {
  const [v] = await db().$queryRaw<
    Array<{ n: number; at: Date | null }>
  >`SELECT count(*)::int AS n, max("updatedAt") AS at FROM label`;
  return `${v!.n}:${v!.at?.getTime() ?? 0}`;
}

function remembered<T extends ConditionResult[] | AgreementReport>(key: string, compute: () => Promise<T>): Promise<T> {
  const cache = cacheOf();
  const hit = cache.get(key);
  if (hit) return hit as Promise<T>;
  const computing = compute();
  cache.set(key, computing);
  // A failed computation is not remembered.
  computing.catch(() => cache.delete(key));
  return computing;
}

export async function resultsNow(): Promise<ConditionResult[]> {
  return remembered(`results@${await importVersion()}`, getResults);
}

export async function agreementNow(): Promise<AgreementReport> {
  const [imports, labels] = await Promise.all([importVersion(), labelVersion()]);
  return remembered(`agreement@${imports}|${labels}`, getAgreement);
}

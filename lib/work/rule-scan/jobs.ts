import "server-only";
// The rules' scan as a job on the app's queue, one worked at a time (one more may wait), each to the end.
import type PgBoss from "pg-boss";
import { appQueue, ensureQueue } from "@/lib/work/queue";
import { scanRuleHits } from "./scan";

const QUEUE = "rule-scan";
/** A whole first scan at paper scale takes about a minute; a job is given an hour before pg-boss expires it. */
const EXPIRE_SECONDS = 3600;

const holder = globalThis as unknown as { __shortcutAuditRuleScans?: Promise<PgBoss> };

function worker(): Promise<PgBoss> {
  holder.__shortcutAuditRuleScans ??= (async () => {
    const boss = await appQueue();
    await ensureQueue(boss, QUEUE, { name: QUEUE, policy: "stately", retryLimit: 0 });
    await boss.work(QUEUE, async () => {
      await scanRuleHits();
    });
    return boss;
  })().catch((e) => {
    holder.__shortcutAuditRuleScans = undefined;
    throw e;
  });
  return holder.__shortcutAuditRuleScans;
}

/** Asks for the scan: answers once the job is queued (none is when one already waits). */
export async function requestRuleScan(): Promise<void> {
  const boss = await worker();
  await boss.send(QUEUE, {}, { retryLimit: 0, expireInSeconds: EXPIRE_SECONDS });
}

/** requestRuleScan without waiting: a rule saved answers at once (the watch asks again if this fails). */
export function askForRuleScan(): void {
  requestRuleScan().catch((e: unknown) =>
    console.warn(`rule hits: the scan's job not queued (${e instanceof Error ? e.message : String(e)})`),
  );
}

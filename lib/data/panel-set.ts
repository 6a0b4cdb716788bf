import "server-only";
// Saving and adopting panels under the panel lock; another panel's figures come from a rolled-back adoption.
import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/lib/auth/permissions";
import { assertCan } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { inScope } from "@/lib/db/scope";
import { memberText } from "@/lib/domain/panel-compare";
import { AppError } from "@/lib/errors";
import { builtInKeys } from "./categories";
import { PANEL_LOCK, refreshDerived } from "./derived";
import { listPanels, type PanelMember, type PanelView, panelNamed } from "./panels";
import { type Sql, transaction } from "./sql";

/** Saves a panel, as a candidate or (`adopt`) in force; an unnamed candidate reuses the same judges' panel. */
export async function savePanel(
  actor: Actor | null,
  members: readonly PanelMember[],
  opts: { name?: string; adopt: boolean; defaultName?: string },
): Promise<PanelView> {
  if (actor) assertCan(actor, "judges:write");
  if (!members.length) throw new AppError("BAD_INPUT", "a panel names at least one judge", "judges");
  return transaction(async (sql) => {
    if (opts.adopt) await lockPanels(sql);
    const ids = await memberIds(sql, members);
    await sameCategoriesOrRefused(sql, members, ids);
    const same = opts.adopt || opts.name?.trim() ? null : await panelOf(sql, ids);
    const id = same ?? (await insertPanel(sql, actor, ids, opts.name ?? (await free(sql, opts.defaultName))));
    if (opts.adopt) await adopt(sql, actor, id);
    return (await listPanels(sql)).find((p) => p.id === id)!;
  });
}

/** Puts a new panel in force (`panel set`, the Judges page's form). */
export const setPanel = (actor: Actor | null, members: readonly PanelMember[], name?: string) =>
  savePanel(actor, members, { name, adopt: true });

/** Puts a saved panel (a candidate, or an earlier one) in force; the one in force stays as it is. */
export async function adoptPanel(actor: Actor | null, name: string): Promise<PanelView> {
  if (actor) assertCan(actor, "judges:write");
  return transaction(async (sql) => {
    await lockPanels(sql);
    const panel = await panelNamed(sql, name);
    if (!panel) throw new AppError("NOT_FOUND", `no panel named "${name.slice(0, 200)}"`, "panel");
    if (!panel.inForce) await adopt(sql, actor, panel.id);
    return (await listPanels(sql)).find((p) => p.id === panel.id)!;
  });
}

/** Runs `fn` with the named panel in force, then rolls back (decision 34); not for the embedded database's pages. */
export async function underPanel<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const rolledBack = Symbol("rolled back");
  let out: { value: T } | null = null;
  try {
    await db().$transaction(
      async (tx) => {
        const sql: Sql = {
          query: <R>(text: string, params: unknown[] = []) => tx.$queryRawUnsafe<R[]>(text, ...params),
          copy: () => Promise.reject(new Error("no COPY under another panel")),
          copyText: () => Promise.reject(new Error("no COPY under another panel")),
        };
        await lockPanels(sql);
        // The agreement's tallies are not kept in a transaction rolled back: read from the rows.
        await sql.query(`SELECT set_config('shortcut_audit.agreement_from_rows', 'on', true)`);
        const panel = await panelNamed(sql, name);
        if (!panel) throw new AppError("NOT_FOUND", `no panel named "${name.slice(0, 200)}"`, "panel");
        if (!panel.inForce) await adopt(sql, null, panel.id);
        out = { value: await inScope({ prisma: tx as unknown as PrismaClient, sql }, fn) };
        throw rolledBack;
      },
      { maxWait: 60_000, timeout: 60 * 60_000 },
    );
  } catch (e) {
    if (e !== rolledBack) throw e;
  }
  return (out as { value: T } | null)!.value;
}

/** Adoptions one at a time, and no vote written while one runs (derived.ts's PANEL_LOCK). */
async function lockPanels(sql: Sql): Promise<void> {
  await sql.query(`SELECT pg_advisory_xact_lock(${PANEL_LOCK})::text`);
}

async function adopt(sql: Sql, actor: Actor | null, id: number): Promise<void> {
  // clock_timestamp: later than every adoption committed before this one took the lock.
  await sql.query(`UPDATE panel SET "adoptedAt" = clock_timestamp(), "adoptedById" = $2 WHERE id = $1`, [
    id,
    actor?.id ?? null,
  ]);
  await refreshAll(sql);
}

type MemberId = { judgeId: number; promptVersion: number };

/** A panel's members are asked the same categories (contract "Categories"): else refused, naming the difference. */
async function sameCategoriesOrRefused(sql: Sql, members: readonly PanelMember[], ids: readonly MemberId[]) {
  const builtIn = await builtInKeys(sql);
  const asked = await sql.query<{ judgeId: number; promptVersion: number; keys: string[] }>(
    `SELECT u.j AS "judgeId", u.v AS "promptVersion",
       CASE WHEN u.v > 0 THEN (SELECT p.categories FROM judge_prompt p WHERE p.version = u.v)
            ELSE ARRAY(SELECT DISTINCT jsonb_object_keys(verdicts) FROM judge_vote
                        WHERE "judgeId" = u.j AND "promptVersion" = 0 ORDER BY 1) END AS keys
       FROM unnest($1::int[], $2::int[]) AS u(j, v)`,
    [ids.map((i) => i.judgeId), ids.map((i) => i.promptVersion)],
  );
  const sets = asked.map((a) => (a.keys?.length ? a.keys : builtIn));
  const all = [...new Set(sets.flat())];
  const missing = sets.map((s) => all.filter((k) => !s.includes(k)));
  if (missing.every((m) => !m.length)) return;
  const who = members.map((m, i) =>
    missing[i]!.length ? `${memberText(m)} is not asked ${missing[i]!.join(", ")}` : "",
  );
  throw new AppError(
    "BAD_INPUT",
    `a panel's judges must be asked the same categories: ${who.filter(Boolean).join("; ")}`,
    "judges",
  );
}

async function panelOf(sql: Sql, ids: readonly MemberId[]): Promise<number | null> {
  const key = (m: MemberId) => `${m.judgeId}@${m.promptVersion}`;
  const wanted = [...new Set(ids.map(key))].sort().join(" ");
  const rows = await sql.query<{ panelId: number; judgeId: number; promptVersion: number }>(
    `SELECT "panelId", "judgeId", "promptVersion" FROM panel_member`,
  );
  const byPanel = new Map<number, string[]>();
  for (const r of rows) byPanel.set(r.panelId, [...(byPanel.get(r.panelId) ?? []), key(r)]);
  return [...byPanel].find(([, ms]) => ms.sort().join(" ") === wanted)?.[0] ?? null;
}

async function free(sql: Sql, name: string | undefined): Promise<string | undefined> {
  if (!name) return undefined;
  return (await sql.query(`SELECT 1 FROM panel WHERE name = $1`, [name])).length ? undefined : name;
}

async function insertPanel(sql: Sql, actor: Actor | null, ids: readonly MemberId[], name?: string): Promise<number> {
  const count = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM panel`);
  const panelName = name?.trim() || `panel ${count[0]!.n + 1}`;
  if (panelName.length > 200 || panelName.includes("\u0000"))
    throw new AppError("BAD_INPUT", "a panel's name is at most 200 characters of text", "name");
  const taken = await sql.query(`SELECT 1 FROM panel WHERE name = $1`, [panelName]);
  if (taken.length) throw new AppError("BAD_INPUT", `a panel named "${panelName}" exists already`, "name");
  const [panel] = await sql.query<{ id: number }>(
    `INSERT INTO panel (name, "createdById") VALUES ($1, $2) RETURNING id`,
    [panelName, actor?.id ?? null],
  );
  await sql.query(
    `INSERT INTO panel_member ("panelId", "judgeId", "promptVersion")
     SELECT $1, j, v FROM unnest($2::int[], $3::int[]) AS u(j, v) ON CONFLICT DO NOTHING`,
    [panel!.id, ids.map((i) => i.judgeId), ids.map((i) => i.promptVersion)],
  );
  return panel!.id;
}

/** The members' judge ids and versions, or an error naming the first that is not there. */
async function memberIds(sql: Sql, members: readonly PanelMember[]): Promise<MemberId[]> {
  const judges = await sql.query<{ id: number; name: string }>(`SELECT id, name FROM judge WHERE name = ANY($1)`, [
    members.map((m) => m.judge),
  ]);
  const byName = new Map(judges.map((j) => [j.name, j.id]));
  const out: MemberId[] = [];
  for (const m of members) {
    const judgeId = byName.get(m.judge);
    if (judgeId === undefined) throw new AppError("BAD_INPUT", `no judge named "${m.judge}"`, "judges");
    const version = m.promptVersion ?? 0;
    const [answered] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM judge_vote WHERE "judgeId" = $1 AND "promptVersion" = $2`,
      [judgeId, version],
    );
    if (!answered!.n)
      throw new AppError(
        "BAD_INPUT",
        `${m.judge} has no ${m.promptVersion === null ? "imported votes" : `answers under prompt v${version}`}`,
        "judges",
      );
    out.push({ judgeId, promptVersion: version });
  }
  return out;
}

async function refreshAll(sql: Sql): Promise<void> {
  const BATCH = 2000;
  for (let after = 0; ; ) {
    const rows = await sql.query<{ id: number }>(`SELECT id FROM trajectory WHERE id > $1 ORDER BY id LIMIT $2`, [
      after,
      BATCH,
    ]);
    if (!rows.length) return;
    await refreshDerived(
      sql,
      rows.map((r) => r.id),
    );
    after = rows.at(-1)!.id;
  }
}

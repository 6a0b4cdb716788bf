import "server-only";
// Panels: which judges, at which prompt version, every majority follows; the one adopted last is in force.
import { builtInKeys, panelCategories } from "./categories";
import { PANEL_IN_FORCE } from "./derived";
import { type Sql, transaction } from "./sql";

/** A judge at a prompt version; null: its imported votes. */
export type PanelMember = { judge: string; promptVersion: number | null };
export type PanelView = {
  id: number;
  name: string;
  judges: PanelMember[];
  setBy: string | null;
  /** When it was last adopted; null: a candidate. */
  setAt: Date | null;
  inForce: boolean;
};

/** Judges of imported votes join the panel in force while it is the automatic one (no researcher has set one). */
export async function joinAutomaticPanel(sql: Sql, judgeIds: readonly number[]): Promise<void> {
  if (!judgeIds.length) return;
  // A database emptied by hand has no panel at all: it starts again as a new one does.
  await sql.query(
    `INSERT INTO panel (name, automatic, "adoptedAt") SELECT 'initial', true, now()
      WHERE NOT EXISTS (SELECT 1 FROM panel WHERE "adoptedAt" IS NOT NULL) ON CONFLICT (name) DO NOTHING`,
  );
  await sql.query(
    `INSERT INTO panel_member ("panelId", "judgeId", "promptVersion")
     SELECT p.id, j, 0 FROM panel p, unnest($1::int[]) AS j WHERE p.id = ${PANEL_IN_FORCE} AND p.automatic
     ON CONFLICT DO NOTHING`,
    [[...new Set(judgeIds)]],
  );
}

type PanelRow = { id: number; name: string; set_by: string | null; set_at: Date | null; in_force: boolean };

/** Every panel: the one in force first, then the others adopted, newest first, then candidates. */
export async function listPanels(sql: Sql): Promise<PanelView[]> {
  const panels = await sql.query<PanelRow>(
    `SELECT p.id, p.name, u.handle AS set_by, p."adoptedAt" AS set_at, p.id = ${PANEL_IN_FORCE} AS in_force
       FROM panel p LEFT JOIN "user" u ON u.id = coalesce(p."adoptedById", p."createdById")
      ORDER BY (p.id = ${PANEL_IN_FORCE}) DESC, p."adoptedAt" DESC NULLS LAST, p.id DESC`,
  );
  const members = await sql.query<{ panelId: number; judge: string; promptVersion: number }>(
    `SELECT m."panelId", j.name AS judge, m."promptVersion" FROM panel_member m JOIN judge j ON j.id = m."judgeId"
      ORDER BY j.name, m."promptVersion"`,
  );
  return panels.map((p) => ({
    id: p.id,
    name: p.name,
    judges: members
      .filter((m) => m.panelId === p.id)
      .map((m) => ({ judge: m.judge, promptVersion: m.promptVersion || null })),
    setBy: p.set_by,
    setAt: p.set_at,
    inForce: p.in_force,
  }));
}

export const panelsNow = (): Promise<PanelView[]> => transaction(listPanels);

/** What a panel may name: each judge at each version it has answered under, with its answers and whether it is
 * asked the categories the panel in force is (an offer to add it to that panel is made only then). */
export async function panelChoices(): Promise<Array<PanelMember & { answers: number; asAsked: boolean }>> {
  return transaction(async (sql) => {
    const rows = await sql.query<{ judge: string; promptVersion: number; answers: number; keys: string[] | null }>(
      `SELECT j.name AS judge, v."promptVersion", count(*)::int AS answers,
         CASE WHEN v."promptVersion" > 0
              THEN (SELECT p.categories FROM judge_prompt p WHERE p.version = v."promptVersion")
              ELSE ARRAY(SELECT DISTINCT jsonb_object_keys(w.verdicts) FROM judge_vote w
                          WHERE w."judgeId" = j.id AND w."promptVersion" = 0) END AS keys
         FROM judge_vote v JOIN judge j ON j.id = v."judgeId"
        GROUP BY j.id, j.name, v."promptVersion" ORDER BY j.name, v."promptVersion"`,
    );
    const panel = [...(await panelCategories(sql))].sort().join();
    const builtIn = await builtInKeys(sql);
    return rows.map((r) => ({
      judge: r.judge,
      promptVersion: r.promptVersion || null,
      answers: r.answers,
      asAsked: [...(r.keys?.length ? r.keys : builtIn)].sort().join() === panel,
    }));
  });
}

export async function panelNamed(sql: Sql, name: string): Promise<PanelView | null> {
  return (await listPanels(sql)).find((p) => p.name === name) ?? null;
}

/** The panels as `panel show --format json` prints them (docs/formats.md, "The panel"). */
export async function panelsJson(): Promise<Record<string, unknown>> {
  const all = await transaction(listPanels);
  const inForce = all.find((p) => p.inForce);
  const json = (p: PanelView) => ({
    name: p.name,
    judges: p.judges.map((m) => ({ judge: m.judge, prompt_version: m.promptVersion })),
    set_by: p.setBy,
    set_at: p.setAt?.toISOString() ?? null,
  });
  return {
    in_force: inForce ? json(inForce) : null,
    earlier: all.filter((p) => !p.inForce && p.setAt).map(json),
    candidates: all.filter((p) => !p.setAt).map(json),
  };
}

/** `judge` or `judge@vN`: a member as the command line and the form write it. */
export function parseMember(text: string): PanelMember | { error: string } {
  const m = /^(.+?)(?:@v(\d+))?$/.exec(text.trim());
  if (!m?.[1] || text.length > 300 || text.includes("\u0000"))
    return { error: `"${text.slice(0, 60)}" is not JUDGE or JUDGE@vN` };
  const version = m[2] === undefined ? null : Number(m[2]);
  if (version !== null && (!Number.isSafeInteger(version) || version < 1 || version > 2_147_483_647))
    return { error: `"${text}": a prompt version is v1 or later` };
  return { judge: m[1], promptVersion: version };
}

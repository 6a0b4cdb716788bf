import "server-only";
// While a blind study's label is pending, its trajectory is withheld from its labeller everywhere (decision 28).
import { cache } from "react";
import { type Actor, assertCan } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { statement } from "./sql";

export type PendingBlind = { trajectoryId: number; studyId: number; study: string; position: number };

/** The actor's pending items in blind studies that keep them blind elsewhere; read once per request. */
export const pendingBlind = cache(async (actorId: string): Promise<PendingBlind[]> => {
  return statement<PendingBlind>(
    `
    SELECT DISTINCT ON (i."trajectoryId") i."trajectoryId", s.id AS "studyId", s.name AS study, i.position
    FROM study_assignment a JOIN study_item i ON i.id = a."studyItemId" JOIN study s ON s.id = i."studyId"
    WHERE a."annotatorId" = $1 AND s.blind AND s."blindElsewhere"
      AND NOT EXISTS (SELECT 1 FROM label l WHERE l."trajectoryId" = i."trajectoryId" AND l."annotatorId" = $1)
    ORDER BY i."trajectoryId", s.id`,
    [actorId],
  );
});

/** The ids the actor may not open now (empty for most). */
export async function withheldIds(actor: Actor): Promise<number[]> {
  return (await pendingBlind(actor.id)).map((p) => p.trajectoryId);
}

/** Why the actor may not open this trajectory now, or null when they may. */
export async function withheldFrom(actor: Actor, trajectoryIds: readonly number[]): Promise<PendingBlind | null> {
  return (await pendingBlind(actor.id)).find((p) => trajectoryIds.includes(p.trajectoryId)) ?? null;
}

export async function setBlindElsewhere(actor: Actor, studyId: number, on: boolean): Promise<string> {
  assertCan(actor, "studies:write");
  const study = await db().study.findUnique({ where: { id: studyId }, select: { name: true, blind: true } });
  if (!study) throw new AppError("NOT_FOUND", "no such study");
  if (!study.blind) throw new AppError("BAD_INPUT", `"${study.name}" is not blind: there is nothing to withhold`);
  await db().study.update({ where: { id: studyId }, data: { blindElsewhere: on } });
  return on
    ? `"${study.name}" now withholds a trajectory elsewhere while its labeller's label is pending`
    : `"${study.name}" now lets its labellers open their pending trajectories elsewhere`;
}

import "server-only";
// Read-only links to a frozen report: a random token of which only the sha256 is kept (decision 30).
import { createHash, randomBytes } from "node:crypto";
import { type Actor, assertCan } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { categoryNames } from "./categories";
import { type FrozenReportView, VIEW_SELECT, view } from "./frozen-reports";

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
/** A token as links carry it: 43 characters of base64url. Anything else finds nothing, unread. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new read-only link to a report, expiring after `days` if given; answers the token (shown once). */
export async function shareReport(actor: Actor, reportId: number, days: number | null): Promise<string> {
  assertCan(actor, "reports:write");
  if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= 3650))
    throw new AppError("BAD_INPUT", "expiry: a whole number of days from 1 to 3650, or none", "days");
  const exists = await db().frozenReport.findUnique({ where: { id: reportId }, select: { id: true } });
  if (!exists) throw new AppError("NOT_FOUND", "no such report");
  const token = randomBytes(32).toString("base64url");
  await db().reportLink.create({
    data: {
      reportId,
      tokenHash: tokenHash(token),
      hint: token.slice(0, 6),
      createdById: actor.id,
      expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000),
    },
  });
  return token;
}

export async function revokeLink(actor: Actor, linkId: number): Promise<string> {
  assertCan(actor, "reports:write");
  const done = await db().reportLink.updateMany({
    where: { id: linkId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (!done.count) throw new AppError("NOT_FOUND", "no such link, or revoked already");
  return "link revoked: it opens nothing now";
}

/** The report a token opens, or null (malformed, unknown, revoked or expired: all alike). */
export async function reportByToken(token: string): Promise<FrozenReportView | null> {
  if (!TOKEN.test(token)) return null;
  const link = await db().reportLink.findUnique({
    where: { tokenHash: tokenHash(token) },
    select: { revokedAt: true, expiresAt: true, report: { select: VIEW_SELECT } },
  });
  if (!link || link.revokedAt || (link.expiresAt && link.expiresAt.getTime() <= Date.now())) return null;
  return view(link.report, await categoryNames());
}

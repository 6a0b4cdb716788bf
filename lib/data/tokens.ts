import "server-only";
// API tokens (decision 36): a wrong token costs what a right one does.
import { createHash, randomBytes } from "node:crypto";
import type { UserRole } from "@/generated/prisma/enums";
import { type Actor, can } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import {
  TOKEN_PREFIX,
  type TokenInput,
  TokenInputSchema,
  type TokenScope,
  type TokenView,
  tokenRefusal,
} from "@/lib/domain/tokens";
import { AppError } from "@/lib/errors";
import { statement } from "./sql";

/** What a token is stored as: its SHA-256, hex. Tokens are random, so no salt or slow hash is needed. */
const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Who acts: a signed-in person, or the command line (which holds the database's credentials). */
type Who = Actor | "system";

/** Requests a token may make in a minute (API_RATE_PER_MINUTE, 600 unless set), counted across every process. */
export const ratePerMinute = () => Math.max(1, Number(process.env.API_RATE_PER_MINUTE) || 600);

const mayManageAll = (who: Who) => who === "system" || can(who.role, "people:write");

/** Makes a token for the person with this handle; the token is returned this once and never again. */
export async function createToken(who: Who, handle: string, input: TokenInput): Promise<{ token: string; id: number }> {
  const { name, scopes, expiresDays } = TokenInputSchema.parse(input);
  const person = await db().user.findFirst({ where: { handle: { equals: handle, mode: "insensitive" } } });
  if (!person) throw new AppError("NOT_FOUND", `no person with the handle "${handle.slice(0, 100)}"`, "handle");
  if (who !== "system" && who.id !== person.id)
    throw new AppError("FORBIDDEN", "a token is made by its own person", "handle");
  // A scope the person's role could never use is refused, not granted to lie unused.
  if (scopes.includes("import") && !can(person.role, "imports:write"))
    throw new AppError(
      "BAD_INPUT",
      `a ${person.role.toLowerCase()} may not import: the import scope is for researchers' tokens`,
      "scopes",
    );
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const row = await db().apiToken.create({
    data: {
      userId: person.id,
      name,
      scopes,
      hash: tokenHash(token),
      expiresAt: expiresDays ? new Date(Date.now() + expiresDays * 86_400_000) : null,
    },
  });
  return { token, id: row.id };
}

/** Tokens, newest first: one's own, or (a researcher, the command line) anyone's or one person's. */
export async function listTokens(who: Who, handle?: string): Promise<TokenView[]> {
  const own = who !== "system" && !mayManageAll(who);
  if (own && handle !== undefined && handle.toLowerCase() !== who.handle.toLowerCase())
    throw new AppError("FORBIDDEN", "only a researcher sees another person's tokens", "handle");
  const rows = await db().apiToken.findMany({
    where: own
      ? { userId: who.id }
      : handle !== undefined
        ? { user: { handle: { equals: handle, mode: "insensitive" } } }
        : {},
    include: { user: { select: { handle: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((t) => ({
    id: t.id,
    person: t.user.handle,
    name: t.name,
    scopes: t.scopes as TokenScope[],
    created: t.createdAt,
    last_used: t.lastUsedAt,
    expires: t.expiresAt,
    revoked: t.revokedAt,
  }));
}

/** Revokes a token at once (its next request is refused): one's own, or (a researcher) anyone's. */
export async function revokeToken(who: Who, id: number): Promise<void> {
  const t = await db().apiToken.findUnique({ where: { id } });
  if (!t || (who !== "system" && !mayManageAll(who) && t.userId !== who.id))
    throw new AppError("NOT_FOUND", `no token ${id}`, "id");
  if (!t.revokedAt) await db().apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
}

export type TokenUse =
  | { ok: true; actor: Actor; scopes: TokenScope[] }
  | { ok: false; status: 401 | 429; message: string; retryAfter?: number };

/** The person and scopes of a request with this token, or why not (401; 429 with the seconds to wait). */
export async function admitToken(token: string): Promise<TokenUse> {
  // A fresh window when the last began a minute ago; the use noted only when the token may be used.
  const [t] = await statement<{
    scopes: string[];
    expiresAt: Date | null;
    revokedAt: Date | null;
    windowCount: number;
    windowStart: Date;
    userId: string;
    role: UserRole;
    handle: string;
  }>(
    `
    WITH t AS (
      UPDATE api_token SET
        "windowCount" = CASE WHEN "windowStart" IS NULL OR "windowStart" <= now() - interval '1 minute'
          THEN 1 ELSE "windowCount" + 1 END,
        "windowStart" = CASE WHEN "windowStart" IS NULL OR "windowStart" <= now() - interval '1 minute'
          THEN now() ELSE "windowStart" END,
        "lastUsedAt" = CASE WHEN "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > now())
          THEN now() ELSE "lastUsedAt" END
      WHERE hash = $1
      RETURNING scopes, "expiresAt", "revokedAt", "windowCount", "windowStart", "userId")
    SELECT t.*, u.role, u.handle FROM t JOIN "user" u ON u.id = t."userId"`,
    [tokenHash(token)],
  );
  if (!t) return { ok: false, status: 401, message: "no such token" };
  const refusal = tokenRefusal(t, new Date());
  if (refusal) return { ok: false, status: 401, message: refusal };
  const limit = ratePerMinute();
  if (t.windowCount > limit) {
    const retryAfter = Math.max(1, Math.ceil((new Date(t.windowStart).getTime() + 60_000 - Date.now()) / 1000));
    return { ok: false, status: 429, message: `more than ${limit} requests a minute`, retryAfter };
  }
  return {
    ok: true,
    actor: { id: t.userId, role: t.role, handle: t.handle },
    scopes: t.scopes as TokenScope[],
  };
}

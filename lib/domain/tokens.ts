// API tokens' shape, scopes and expiry, pure (docs/api.md).
import { z } from "zod";

export const TOKEN_SCOPES = ["read", "import"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Every token starts so (then 43 base64url characters), so a leaked one is easy to find and revoke. */
export const TOKEN_PREFIX = "sat_";

/** The token of an `Authorization: Bearer …` header, or null; a malformed one is looked up like any other. */
export function bearerToken(header: string | null): string | null {
  const m = /^Bearer +(\S+)$/i.exec(header?.trim() ?? "");
  return m ? m[1]! : null;
}

export const TokenInputSchema = z.object({
  name: z.string().trim().max(100, "at most 100 characters").default(""),
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { message: `each scope one of ${TOKEN_SCOPES.join(", ")}` }))
    .min(1, "give at least one scope")
    .transform((s) => [...new Set(s)].sort() as TokenScope[]),
  /** Days until it expires (none: it does not). */
  expiresDays: z.number().int().min(1, "at least one day").max(3650, "at most ten years").nullish(),
});
export type TokenInput = z.input<typeof TokenInputSchema>;

export type TokenView = {
  id: number;
  person: string;
  name: string;
  scopes: TokenScope[];
  created: Date;
  last_used: Date | null;
  expires: Date | null;
  revoked: Date | null;
};

/** Why a token found by its hash may not be used now, or null when it may. */
export function tokenRefusal(t: { expiresAt: Date | null; revokedAt: Date | null }, now: Date): string | null {
  if (t.revokedAt) return "this token was revoked";
  if (t.expiresAt && t.expiresAt <= now) return "this token has expired";
  return null;
}

import { describe, expect, it } from "vitest";
import { bearerToken, TokenInputSchema, tokenRefusal } from "./tokens";

describe("personal access tokens", () => {
  it("are read from a bearer header only", () => {
    expect(bearerToken("Bearer sat_abc")).toBe("sat_abc");
    expect(bearerToken("bearer   sat_abc ")).toBe("sat_abc");
    expect(bearerToken("Basic dXNlcjpwYXNz")).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });

  it("are refused once revoked or past their expiry, whichever is said first", () => {
    const now = new Date("2026-12-01T12:00:00Z");
    expect(tokenRefusal({ expiresAt: null, revokedAt: null }, now)).toBeNull();
    expect(tokenRefusal({ expiresAt: new Date("2026-12-01T12:00:01Z"), revokedAt: null }, now)).toBeNull();
    expect(tokenRefusal({ expiresAt: now, revokedAt: null }, now)).toBe("this token has expired");
    expect(tokenRefusal({ expiresAt: now, revokedAt: now }, now)).toBe("this token was revoked");
  });

  it("have one or both scopes, each once, and an expiry of whole days", () => {
    expect(TokenInputSchema.parse({ scopes: ["read", "import", "read"] }).scopes).toEqual(["import", "read"]);
    expect(TokenInputSchema.safeParse({ scopes: ["write"] }).success).toBe(false);
    expect(TokenInputSchema.safeParse({ scopes: ["read"], expiresDays: 0 }).success).toBe(false);
    expect(TokenInputSchema.safeParse({ scopes: ["read"], expiresDays: 1.5 }).success).toBe(false);
  });
});

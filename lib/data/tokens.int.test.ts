// Personal access tokens and the API routes they open: made, used, expired, revoked, narrowed by a
// demotion, limited in rate; every refusal with its status and the API's error shape. The routes'
// handlers are called as Next calls them, with a Request.
import { afterEach, describe, expect, it } from "vitest";
import { GET as agreementGet } from "@/app/api/v1/agreement/route";
import { GET as evidenceGet } from "@/app/api/v1/evidence/route";
import { GET as resultsGet } from "@/app/api/v1/results/route";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { runImport } from "@/lib/work/import/records";
import { reportText } from "@/lib/work/reports/formats";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { call, errorOf } from "@/test/api";
import { runCli } from "@/test/cli";
import { createPerson, setRole } from "./people";
import { createToken, listTokens, revokeToken } from "./tokens";

const get = (route: Parameters<typeof call>[0], path: string, token?: string, headers: Record<string, string> = {}) =>
  call(route, path, { token, headers });

let researcher: { id: string; handle: string; role: "RESEARCHER" };
let reviewer: { id: string; handle: string; role: "REVIEWER" };

afterEach(() => {
  delete process.env.API_RATE_PER_MINUTE;
});

describe("personal access tokens", () => {
  it("loads two people and a judged trajectory", async () => {
    const person = (handle: string, role: "RESEARCHER" | "REVIEWER") =>
      createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
    const r = await person("tok-res", "RESEARCHER");
    const v = await person("tok-rev", "REVIEWER");
    researcher = { id: r.id, handle: r.handle, role: "RESEARCHER" };
    reviewer = { id: v.id, handle: v.handle, role: "REVIEWER" };
    const done = await runImport(
      { fileName: "tok.jsonl", format: "interchange" },
      asLines([
        trajectoryFixture({ id: "t1", benchmark: "tok", model: "m" }),
        ...["j1", "j2", "j3"].map((j) => voteFixture("t1", j, { UPSTREAM: "SUCCESSFUL" })),
      ] as never[]),
    );
    expect(done.ok, JSON.stringify(done)).toBe(true);
  });

  it("is shown once and stored only as its hash; it reads what the command line prints, byte for byte", async () => {
    const { token, id } = await createToken(reviewer, "tok-rev", { name: "notebook", scopes: ["read"] });
    expect(token).toMatch(/^sat_[A-Za-z0-9_-]{43}$/);
    const row = await db().apiToken.findUniqueOrThrow({ where: { id } });
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
    expect(row.lastUsedAt).toBeNull();

    const results = await get(resultsGet, "/api/v1/results?format=csv", token);
    expect(results.status).toBe(200);
    expect(await results.text()).toBe(await reportText("results", "csv", {}));
    const json = await get(resultsGet, "/api/v1/results", token);
    expect(await json.text()).toBe(await reportText("results", "json", {}));
    expect((await get(agreementGet, "/api/v1/agreement?format=json", token)).status).toBe(200);
    expect((await get(evidenceGet, "/api/v1/evidence?format=csv", token)).status).toBe(200);
    // Its use is noted.
    expect((await db().apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull();
    // Bad parameters: 400 or 404 in the API's shape, never a 500.
    const bad = await get(resultsGet, "/api/v1/results?format=xml", token);
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ code: "BAD_INPUT", message: expect.stringContaining("format") });
    expect((await get(agreementGet, "/api/v1/agreement?study=nobody", token)).status).toBe(404);
    expect((await get(evidenceGet, "/api/v1/evidence?format=latex", token)).status).toBe(400);
  });

  it("refuses no token, a wrong one and a cookie with 401; a missing scope with 403", async () => {
    const none = await get(resultsGet, "/api/v1/results");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect(await errorOf(none)).toMatchObject({ code: "UNAUTHENTICATED" });
    // A session cookie is never read here: only the bearer token counts.
    expect(
      (await get(resultsGet, "/api/v1/results", undefined, { cookie: "better-auth.session_token=x" })).status,
    ).toBe(401);
    expect((await get(resultsGet, "/api/v1/results", `sat_${"A".repeat(43)}`)).status).toBe(401);
    expect((await get(resultsGet, "/api/v1/results", "not-even-shaped")).status).toBe(401);
    const { token } = await createToken("system", "tok-res", { scopes: ["import"] });
    const scoped = await get(resultsGet, "/api/v1/results", token);
    expect(scoped.status).toBe(403);
    expect((await errorOf(scoped)).message).toBe('this token has no "read" scope');
  });

  it("expires, and is revoked at once", async () => {
    const { token, id } = await createToken(researcher, "tok-res", { scopes: ["read"], expiresDays: 30 });
    expect((await get(resultsGet, "/api/v1/results", token)).status).toBe(200);
    await db().apiToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await get(resultsGet, "/api/v1/results", token);
    expect(expired.status).toBe(401);
    expect((await errorOf(expired)).message).toBe("this token has expired");

    const other = await createToken(researcher, "tok-res", { scopes: ["read"] });
    expect((await get(resultsGet, "/api/v1/results", other.token)).status).toBe(200);
    const usedAt = (await db().apiToken.findUniqueOrThrow({ where: { id: other.id } })).lastUsedAt;
    await revokeToken(researcher, other.id);
    const revoked = await get(resultsGet, "/api/v1/results", other.token);
    expect(revoked.status).toBe(401);
    expect((await errorOf(revoked)).message).toBe("this token was revoked");
    // A refused request is not a use.
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: other.id } })).lastUsedAt).toEqual(usedAt);
  });

  it("never does more than its person's role allows now: demoted, the token is narrowed at once", async () => {
    const { token } = await createToken("system", "tok-rev", { scopes: ["read"] });
    expect((await get(resultsGet, "/api/v1/results", token)).status).toBe(200);
    await setRole(researcher, reviewer.id, "ANNOTATOR");
    const narrowed = await get(resultsGet, "/api/v1/results", token);
    expect(narrowed.status).toBe(403);
    expect((await errorOf(narrowed)).message).toBe("annotator may not results read");
    await setRole(researcher, reviewer.id, "REVIEWER");
    expect((await get(resultsGet, "/api/v1/results", token)).status).toBe(200);
  });

  it("is limited in rate per token, counted in the database (so across processes), with Retry-After", async () => {
    process.env.API_RATE_PER_MINUTE = "3";
    const { token } = await createToken("system", "tok-res", { scopes: ["read"] });
    const other = await createToken("system", "tok-res", { scopes: ["read"] });
    for (let i = 0; i < 3; i++) expect((await get(evidenceGet, "/api/v1/evidence", token)).status).toBe(200);
    const limited = await get(evidenceGet, "/api/v1/evidence", token);
    expect(limited.status).toBe(429);
    const retry = Number(limited.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(await errorOf(limited)).toMatchObject({ code: "RATE_LIMITED" });
    // Another token of the same person has its own count.
    expect((await get(evidenceGet, "/api/v1/evidence", other.token)).status).toBe(200);
  });

  it("is made and revoked by its own person; a researcher sees and revokes anyone's", async () => {
    await expect(createToken(reviewer, "tok-res", { scopes: ["read"] })).rejects.toThrow(/own person/);
    await expect(createToken("system", "tok-res", { scopes: [] })).rejects.toThrow(/at least one scope/);
    await expect(createToken("system", "nobody", { scopes: ["read"] })).rejects.toThrow(/no person/);
    const own = await listTokens(reviewer);
    expect(own.every((t) => t.person === "tok-rev")).toBe(true);
    await expect(listTokens(reviewer, "tok-res")).rejects.toThrow(/only a researcher/);
    const all = await listTokens(researcher);
    expect(new Set(all.map((t) => t.person))).toEqual(new Set(["tok-res", "tok-rev"]));
    // Newest first, and never the token itself.
    expect(all.map((t) => t.id)).toEqual([...all.map((t) => t.id)].sort((a, b) => b - a));
    expect(Object.keys(all[0]!)).toEqual([
      "id",
      "person",
      "name",
      "scopes",
      "created",
      "last_used",
      "expires",
      "revoked",
    ]);
    const theirs = all.find((t) => t.person === "tok-res")!;
    await expect(revokeToken(reviewer, theirs.id)).rejects.toThrow(/no token/);
    await revokeToken(researcher, own[0]!.id);
    expect((await listTokens(reviewer)).find((t) => t.id === own[0]!.id)!.revoked).not.toBeNull();
  });

  it.runIf(process.env.DATABASE_URL)(
    "npm run cli -- token create, list and revoke",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      const cli = (...args: string[]) => runCli(target.url, ...args);
      const made = cli("token", "create", "--handle", "tok-res", "--scope", "read,import", "--name", "cluster");
      expect(made.status, made.stderr).toBe(0);
      // Alone on standard output, so a script can take it: TOKEN=$(… token create …).
      expect(made.stdout).toMatch(/^sat_[A-Za-z0-9_-]{43}\n$/);
      const token = made.stdout.trim();
      expect((await get(resultsGet, "/api/v1/results", token)).status).toBe(200);
      const listed = JSON.parse(cli("token", "list", "--handle", "tok-res", "--format", "json").stdout) as Array<{
        id: number;
        name: string;
        scopes: string[];
        last_used: string | null;
      }>;
      const mine = listed.find((t) => t.name === "cluster")!;
      expect(mine).toMatchObject({ scopes: ["import", "read"], last_used: expect.any(String) });
      // The API answers what the command line prints, byte for byte.
      for (const [route, path, args] of [
        [resultsGet, "/api/v1/results?format=csv", ["results", "--format", "csv"]],
        [agreementGet, "/api/v1/agreement?format=json", ["agreement", "--format", "json"]],
        [evidenceGet, "/api/v1/evidence?format=json", ["evidence", "--format", "json"]],
      ] as const) {
        const printed = cli(...args);
        expect(printed.status, printed.stderr).toBe(0);
        expect(await (await get(route, path, token)).text()).toBe(printed.stdout);
      }
      expect(cli("token", "revoke", String(mine.id)).status).toBe(0);
      expect((await get(resultsGet, "/api/v1/results", token)).status).toBe(401);
      const bad = cli("token", "create", "--handle", "tok-res", "--scope", "write");
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/token create: .*scope/);
    },
    180_000,
  );
});

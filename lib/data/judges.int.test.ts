import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { DEFAULT_JUDGE_PROMPT } from "@/lib/judges/prompt";
import { runCli } from "@/test/cli";
import { currentPrompt, defineJudge, JudgeDefinitionSchema, listJudges, savePrompt } from "./judges";

describe("judges", () => {
  it("a definition is checked: an http(s) address, a variable name rather than a key, counts ≥ 1", () => {
    const bad = JudgeDefinitionSchema.safeParse({
      name: "j",
      baseUrl: "ftp://x",
      model: "m",
      apiKeyEnv: "sk-live-abc",
      concurrency: "0",
    });
    expect(bad.success).toBe(false);
    if (bad.success) return;
    expect(bad.error.issues.map((i) => i.path[0])).toEqual(["baseUrl", "apiKeyEnv", "concurrency"]);
  });

  it("a judge's key variable is one the server allows, never one of its own settings", () => {
    for (const apiKeyEnv of ["DATABASE_URL", "BETTER_AUTH_SECRET", "PATH"]) {
      const bad = JudgeDefinitionSchema.safeParse({
        name: "j",
        baseUrl: "http://127.0.0.1:1/v1",
        model: "m",
        apiKeyEnv,
      });
      expect(bad.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
        [
          "apiKeyEnv",
          `the key cannot be read from ${apiKeyEnv}: the server allows *_API_KEY (JUDGE_KEY_VARIABLES), ` +
            "never its own settings",
        ],
      ]);
    }
  });

  it("defines a judge, stores the key's variable and never a key, and redefines by name", async () => {
    const def = JudgeDefinitionSchema.parse({
      name: "judges-int-a",
      baseUrl: "http://127.0.0.1:9/v1",
      model: "glm-5.3-flash",
      apiKeyEnv: "GLM_API_KEY",
      concurrency: "8",
    });
    expect(await defineJudge(def)).toMatchObject({ created: true });
    expect(await defineJudge({ ...def, model: "glm-5.3-flash-2" })).toMatchObject({ created: false });
    const row = await db().judge.findUniqueOrThrow({ where: { name: "judges-int-a" } });
    expect(row).toMatchObject({
      model: "glm-5.3-flash-2",
      apiKeyEnv: "GLM_API_KEY",
      concurrency: 8,
      contextTokens: 100_000,
    });
    expect((await listJudges()).find((j) => j.name === "judges-int-a")).toEqual({
      name: "judges-int-a",
      endpoint: "http://127.0.0.1:9/v1",
      model: "glm-5.3-flash-2",
      apiKeyEnv: "GLM_API_KEY",
      concurrency: 8,
      votes: 0,
      unparseable: 0,
    });
  });

  it("the prompt starts as the app's own; an edit is a new version, the same text again is none", async () => {
    const first = await currentPrompt();
    if (first.version === 1) expect(first.text).toBe(DEFAULT_JUDGE_PROMPT);
    expect(await savePrompt(first.text, "rosa")).toEqual({ version: first.version, created: false });
    const edited = await savePrompt(`${first.text}\nCite at most five steps.`, "rosa");
    expect(edited).toEqual({ version: first.version + 1, created: true });
    expect((await currentPrompt()).version).toBe(first.version + 1);
    // Every version is kept.
    expect(await db().judgePrompt.count({ where: { version: { lte: edited.version } } })).toBeGreaterThanOrEqual(2);
  });

  it.runIf(process.env.DATABASE_URL)("npm run cli -- judge add / judge list", () => {
    const target = currentDb().target;
    if (target.kind !== "postgres") throw new Error("PostgreSQL only");
    const cli = (...args: string[]) => runCli(target.url, ...args);
    const added = cli(
      "judge",
      "add",
      "judges-int-cli",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--model",
      "m1",
      "--api-key-env",
      "K_API_KEY",
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stderr).toContain("judge judges-int-cli added: m1 at http://127.0.0.1:9/v1");
    const refused = cli("judge", "add", "x", "--base-url", "nope", "--model", "m");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("baseUrl: base URL is an http(s) address");
    const secret = cli(
      "judge",
      "add",
      "x",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--model",
      "m",
      "--api-key-env",
      "DATABASE_URL",
    );
    expect(secret.status).toBe(1);
    expect(secret.stderr).toContain("apiKeyEnv: the key cannot be read from DATABASE_URL");
    const listed = cli("judge", "list");
    expect(listed.stdout).toContain(
      "judges-int-cli\tm1 at http://127.0.0.1:9/v1\tkey in $K_API_KEY\tconcurrency 4\t0 answers",
    );
  });
});

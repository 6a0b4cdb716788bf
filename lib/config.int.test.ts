// A bad setting stops npm start and the command line before they touch anything, naming it.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const run = (script: string, args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", script, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 60_000,
  });

describe("a bad setting", () => {
  it("stops npm start with the variable and what it accepts", () => {
    const r = run("scripts/start.ts", [], { PORT: "abc", DATABASE_POOL_SIZE: "0" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PORT="abc": expected a whole number from 1 to 65535');
    expect(r.stderr).toContain('DATABASE_POOL_SIZE="0": expected a whole number from 1 to 1000');
    expect(r.stderr).not.toContain("database:");
  });

  it("stops the command line likewise", () => {
    const r = run("scripts/cli.ts", ["user", "list"], { DATABASE_URL: "not a url" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('DATABASE_URL="not a url": expected a PostgreSQL address');
  });
});

// The HTTP API as a lab wires it: a researcher makes a token on the page, a job pushes a run with
// curl, a notebook pulls the results with the documented Python example, and the page shows the
// token's last use; revoked, the token opens nothing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { trajectoryFixture } from "../prisma/factories";
import { expect, test, unique } from "./fixtures";

test("a token made on the page pushes a file with curl, a Python script pulls results, the page shows its use", async ({
  page,
  baseURL,
}) => {
  const benchmark = unique("api");
  const name = unique("cluster");
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Make a token" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("import").check();
  await form.getByRole("button", { name: "Make a token" }).click();
  const shown = page.getByRole("status").getByLabel("The new token");
  await expect(shown).toHaveText(/^sat_[A-Za-z0-9_-]{43}$/);
  const token = (await shown.textContent())!;
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("never");

  // The cluster job: curl pushes its run.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sa-api-")), "run.jsonl");
  fs.writeFileSync(
    file,
    [1, 2].map((run) => JSON.stringify(trajectoryFixture({ id: `${benchmark}-${run}`, benchmark, run }))).join("\n"),
  );
  /** curl pushing a file: the answer's body, then its status on a line of its own. */
  const curl = (auth: string, what = file) =>
    spawnSync(
      "curl",
      [
        ...["-s", "-w", "\n%{http_code}", "-H", `Authorization: Bearer ${auth}`, "--data-binary", `@${what}`],
        `${baseURL}/api/v1/imports?name=${path.basename(what)}&benchmark=${benchmark}`,
      ],
      { encoding: "utf8" },
    );
  const pushed = curl(token);
  const [body, status] = [pushed.stdout.slice(0, pushed.stdout.lastIndexOf("\n")), pushed.stdout.split("\n").at(-1)];
  expect(status, pushed.stdout + pushed.stderr).toBe("200");
  expect(JSON.parse(body)).toMatchObject({ ok: true, counts: { trajectories: 2 } });

  // Past the upload limit (4 MB on this server): refused with 413 before anything is imported.
  const big = path.join(path.dirname(file), "big.jsonl");
  fs.writeFileSync(big, "x".repeat(5_000_000));
  const tooBig = curl(token, big);
  expect(tooBig.stdout.split("\n").at(-1)).toBe("413");
  expect(JSON.parse(tooBig.stdout.split("\n")[0]!)).toMatchObject({ error: { code: "TOO_LARGE" } });

  // The same job with the command line: no database here, only the server and the token.
  const third = path.join(path.dirname(file), "third.jsonl");
  fs.writeFileSync(third, JSON.stringify(trajectoryFixture({ id: `${benchmark}-3`, benchmark, run: 3 })));
  const cli = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/cli.ts", "import", "--server", baseURL!, third],
    { encoding: "utf8", env: { ...process.env, SHORTCUT_AUDIT_TOKEN: token, DATABASE_URL: "" } },
  );
  expect(cli.status, cli.stderr).toBe(0);
  expect(cli.stderr).not.toMatch(/^database:/m);
  expect(cli.stderr).toMatch(/^ok {2}.*third\.jsonl: 1 trajectory \(0 replaced\)/m);
  expect(cli.stderr).toMatch(/^imported 1 of 1 file\(s\)/m);

  // The notebook: the documented example pulls the result table.
  const pulled = spawnSync("python3", ["examples/api/pull_results.py"], {
    encoding: "utf8",
    env: { ...process.env, SHORTCUT_AUDIT_URL: baseURL!, SHORTCUT_AUDIT_TOKEN: token },
  });
  expect(pulled.status, pulled.stderr).toBe(0);
  expect(pulled.stdout.split("\n").filter((l) => l.startsWith(`${benchmark}\t`))).toHaveLength(1);

  // The page shows its last use; revoked, it opens nothing.
  await page.reload();
  await expect(row).not.toContainText("never");
  await row.getByRole("button", { name: /Revoke token/ }).click();
  await expect(row).toContainText("revoked");
  expect(curl(token).stdout.split("\n").at(-1)).toBe("401");
});

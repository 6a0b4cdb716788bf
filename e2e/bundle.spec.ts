// A researcher freezes a report and downloads it as a folder; opened from the file system with every request
// recorded, its table's count opens the trajectory it counts, whose hostile text reads as text and runs nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import yauzl from "yauzl";
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";
import { atEachWidth } from "./layout";

const PAYLOAD = "<script>window.__pwned = 1; alert('bundle')</script><img src=x onerror=\"alert('img')\">";

/** Unzips `file` into `dir`, each entry where its name says. */
async function unzip(file: string, dir: string): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((ok, no) =>
    yauzl.open(file, { lazyEntries: true }, (e, z) => (e ? no(e) : ok(z))),
  );
  await new Promise<void>((done, fail) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      const to = path.join(dir, entry.fileName);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      zip.openReadStream(entry, (e, stream) => {
        if (e) return fail(e);
        pipeline(stream, fs.createWriteStream(to)).then(() => zip.readEntry(), fail);
      });
    });
    zip.on("end", done);
    zip.readEntry();
  });
}

/** Serious or critical WCAG 2.x A/AA violations on the page, as axe-core finds them. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "experimental"])
    .analyze();
  return violations
    .filter((v) => (v.impact === "serious" || v.impact === "critical") && v.tags.some((t) => /^wcag2/.test(t)))
    .map((v) => `${v.id}: ${v.help} (${v.nodes[0]?.target.join(" ")})`);
}

test("a frozen report as a folder opens from the file system, asks nothing outside it, and runs no agent text", async ({
  page,
  browser,
  request,
}, info) => {
  const benchmark = unique("bundle");
  const name = unique("bundled report");
  await importRecords(request, `${benchmark}.jsonl`, [
    trajectoryFixture({
      id: `${benchmark}-0`,
      benchmark,
      task: { id: "bundle__task-1" },
      turns: [
        { role: "user", content: `Fix it. ${PAYLOAD}` },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "bash", input: "git log --all --oneline" }] },
        { role: "tool", tool_call_id: "c1", content: `9f3e2d1 fix ${PAYLOAD}`, exit_code: 0 },
      ],
    }),
    ...["j1", "j2", "j3"].map((j) =>
      voteFixture(`${benchmark}-0`, j, { LOCAL_GIT: "SUCCESSFUL" }, { rationale: `read the future ${PAYLOAD}` }),
    ),
  ]);
  // A report is frozen once the rules' scan has read the trajectory just imported: until then the form says so.
  test.setTimeout(180_000);
  const frozen = page.getByRole("heading", { level: 1, name: `Report: ${name}` });
  await expect(async () => {
    await page.goto("/reports");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Freeze the results and agreement now" }).click();
    await expect(frozen.or(page.getByText(/the rules have not yet read/))).toBeVisible({ timeout: 30_000 });
    await expect(frozen).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 120_000 });
  const fingerprint = await page.locator("code[title]").first().getAttribute("title");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "bundle (.zip)" }).click(),
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-e2e-bundle-"));
  const file = path.join(dir, "bundle.zip");
  await download.saveAs(file);
  await unzip(file, dir);
  const root = path.join(dir, fs.readdirSync(dir).find((f) => f !== "bundle.zip")!);

  // A reader with nothing but the folder: every request recorded, none may leave it.
  const reader = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  reader.on("request", (r) => requests.push(r.url()));
  reader.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await reader.goto(`file://${root}/index.html`);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(`Report: ${name}`);
  await expect(reader.locator("code.fingerprint")).toHaveText(fingerprint!);
  expect(await atEachWidth(reader, info, "bundle-report")).toEqual({ "1440": [], "390": [] });
  expect(await seriousViolations(reader)).toEqual([]);
  await reader.setViewportSize({ width: 1440, height: 900 });
  // The result table's count of trajectories opens the one it counts.
  const table = reader.getByRole("table", { name: benchmark, exact: true });
  await table
    .getByRole("link", { name: /^trajectories of / })
    .first()
    .click();
  await expect(reader.getByRole("status")).toHaveText(/The figure counts 1 trajectories; 1 of them are in this folder/);
  expect(await atEachWidth(reader, info, "bundle-list")).toEqual({ "1440": [], "390": [] });
  expect(await seriousViolations(reader)).toEqual([]);
  await reader.setViewportSize({ width: 1440, height: 900 });
  await reader.getByRole("link", { name: "bundle__task-1" }).click();
  await expect(reader.getByRole("heading", { level: 1 })).toContainText("bundle__task-1");
  // Its steps, the suspect one marked; the votes' rationales; the agent's markup as text, nothing run.
  await expect(reader.getByText(`9f3e2d1 fix ${PAYLOAD}`)).toBeVisible();
  await expect(reader.getByRole("table", { name: "Votes" })).toContainText(`read the future ${PAYLOAD}`);
  await expect(reader.locator(".step.suspect").first()).toContainText("git-log-all-refs");
  await reader.keyboard.press("j");
  await expect(reader.locator(".step.suspect").first()).toBeFocused();
  expect(await reader.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await atEachWidth(reader, info, "bundle-trajectory")).toEqual({ "1440": [], "390": [] });
  expect(await seriousViolations(reader)).toEqual([]);
  expect(dialogs).toEqual([]);
  expect(requests.filter((u) => !u.startsWith(`file://${root}/`))).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

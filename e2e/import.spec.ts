import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, test } from "./fixtures";

const jsonl = (records: unknown[]) => Buffer.from(`${records.map((r) => JSON.stringify(r)).join("\n")}\n`);

test("import a file in the browser, then see it among past imports", async ({ page }) => {
  await page.goto("/import");
  const files = page.getByLabel("Files to import");
  await files.setInputFiles({
    name: "e2e-good.jsonl",
    mimeType: "application/x-ndjson",
    buffer: jsonl([
      trajectoryFixture({ id: "e2e-import-1", benchmark: "e2e-bench", task: { id: "e2e__task-1" } }),
      trajectoryFixture({ id: "e2e-import-2", benchmark: "e2e-bench", task: { id: "e2e__task-1" }, run: 2 }),
      voteFixture("e2e-import-1", "judge-x", { LOCAL_GIT: "SUCCESSFUL" }),
    ]),
  });
  await page.getByRole("button", { name: /^Import \d+ files?$/ }).click();
  await expect(page.getByRole("list", { name: "This session's imports" }).getByRole("status")).toContainText(
    "imported 2 trajectories (0 replaced), 1 judge vote (0 unparseable), 0 labels",
  );

  // The summary opens what the import wrote: its two trajectories.
  await page.getByRole("link", { name: "Open the trajectories it wrote" }).click();
  await expect(page).toHaveURL(/\/trajectories\?import=\d+$/);
  await expect(page.getByRole("status").filter({ hasText: /^\d+ trajector/ })).toHaveText("2 trajectories");
  await expect(page.getByText(/^Also: written by import \d+/)).toBeVisible();
  await page.goto("/import");

  const history = page.getByRole("table", { name: "Past imports" });
  const row = history.getByRole("row").filter({ hasText: "e2e-good.jsonl" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("imported");
  await expect(row).toContainText("browser");
});

test("a bad file is rejected whole, with each bad line named, and its markup shown as text", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto("/import");
  await page.getByLabel("Files to import").setInputFiles({
    name: "<img src=x onerror=alert(2)>e2e-bad.jsonl",
    mimeType: "application/x-ndjson",
    buffer: jsonl([
      trajectoryFixture({ id: "e2e-bad-1", benchmark: "e2e-bench", task: { id: "e2e__bad" } }),
      trajectoryFixture({
        id: "e2e-bad-2",
        benchmark: "e2e-bench",
        task: { id: "e2e__bad" },
        run: 2,
        prompt: "<img src=x onerror=alert(1)>",
      }),
      voteFixture("<script>nope</script>", "judge-x"),
    ]),
  });
  await page.getByRole("button", { name: /^Import \d+ files?$/ }).click();
  const alert = page.getByRole("list", { name: "This session's imports" }).getByRole("alert");
  await expect(alert).toContainText("rejected: 2 bad record(s), nothing imported");
  await expect(alert).toContainText('line 2, prompt: prompt must be "vanilla" or "principled"');
  await expect(alert).toContainText('line 3, trajectory: no trajectory has id "<script>nope</script>"');
  await expect(page.locator("img")).toHaveCount(0);

  await page.reload();
  const row = page
    .getByRole("table", { name: "Past imports" })
    .getByRole("row")
    .filter({ hasText: "<img src=x onerror=alert(2)>e2e-bad.jsonl" });
  await expect(row).toContainText("rejected");
  await row.getByText("2 error(s)").click();
  await expect(row).toContainText('line 2, prompt: prompt must be "vanilla" or "principled"');
  await expect(page.locator("img")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test("an agent-harness file imports with the condition given in the form", async ({ page }) => {
  await page.goto("/import");
  await page.getByLabel("Benchmark").fill("e2e-harness");
  await page.getByLabel("Model").fill("e2e-model");
  await page.getByLabel("Network").selectOption("off");
  await page.getByLabel("Prompt").selectOption("principled");
  await page.getByLabel("Run", { exact: true }).fill("1");
  await page.getByLabel("Files to import").setInputFiles({
    name: "owner__repo-42.traj.json",
    mimeType: "application/json",
    buffer: Buffer.from(
      JSON.stringify({
        trajectory_format: "mini-swe-agent-1",
        instance_id: "owner__repo-42",
        info: { exit_status: "Submitted", submission: "diff" },
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "task" },
          { role: "assistant", content: "THOUGHT: peek\n\n```bash\ngit log --all --oneline\n```" },
          { role: "user", content: "<returncode>0</returncode>\n<output>\nabc fix\n</output>" },
        ],
      }),
    ),
  });
  await page.getByRole("button", { name: /^Import \d+ files?$/ }).click();
  await expect(page.getByRole("list", { name: "This session's imports" }).getByRole("status")).toContainText(
    "imported 1 trajectory",
  );
  // Unjudged: its timeline leads a researcher to the run form, filled in for it.
  await page.getByRole("link", { name: "Open the trajectories it wrote" }).click();
  await page.locator('table a[href^="/trajectories/"]').first().click();
  await page.getByRole("link", { name: "Ask the judges about it" }).click();
  await expect(page).toHaveURL(/\/judges\?.*task=owner__repo-42.*run=1#runs$/);
});

test("a file over the upload limit is refused with 413 and a pointer to the command line", async ({
  page,
  request,
  baseURL,
}) => {
  // The e2e server runs with IMPORT_MAX_UPLOAD_BYTES=4000000 (playwright.config.ts).
  const before = await (await request.get("/import")).text();
  const big = Buffer.concat([
    jsonl([trajectoryFixture({ id: "e2e-too-big", benchmark: "e2e-too-big", task: { id: "big" } })]),
    Buffer.alloc(4_500_000, "\n"),
  ]);
  const res = await request.post("/api/imports", {
    multipart: { file: { name: "too-big.jsonl", mimeType: "application/x-ndjson", buffer: big } },
    headers: { origin: baseURL! },
  });
  expect(res.status()).toBe(413);
  expect((await res.json()).error).toMatch(
    /larger than the upload limit \(4000000 bytes\): import it from the command line/,
  );
  // Nothing imported; listed as failed with the reason, as every upload however it ends.
  expect(before).not.toContain("too-big.jsonl");
  await page.goto("/import");
  const listed = page
    .getByRole("table", { name: "Past imports" })
    .getByRole("row")
    .filter({ hasText: "too-big.jsonl" });
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText("larger than the upload limit");
  await page.goto("/trajectories?benchmark=e2e-too-big");
  await expect(page.getByRole("status")).toHaveText(/^0 /);
});

import { labelFixture, trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";
import { atEachWidth } from "./layout";

const PAYLOADS = [
  "<script>window.__pwned = 1; alert('script')</script>",
  "<img src=x onerror=\"window.__pwned = 2; alert('img')\">",
  "<a href=\"javascript:alert('link')\">click</a>",
  "\u001b[31mred text\u001b[0m and \u001b]0;window title\u0007 after",
] as const;

const steps = (n: number, suspicious: Record<number, string>) => [
  { role: "system", content: PAYLOADS[0] },
  { role: "user", content: `Fix it. ${PAYLOADS[1]}` },
  ...Array.from({ length: n }, (_, i) => {
    const step = i + 1;
    const command = suspicious[step] ?? `sed -n '${step},${step + 10}p' src/lib.py`;
    return [
      {
        role: "assistant",
        reasoning: `thinking ${PAYLOADS[2]}`,
        content: "",
        tool_calls: [{ id: `c${step}`, name: "bash", input: command }],
      },
      {
        role: "tool",
        tool_call_id: `c${step}`,
        content: step === 2 ? PAYLOADS[3] : `output ${step} ${PAYLOADS[step % 2 === 0 ? 0 : 1]}`,
        exit_code: 0,
      },
    ];
  }).flat(),
];

test("agent text full of markup and escape codes is shown as text, and nothing runs", async ({ page, request }) => {
  await importRecords(request, "payload.jsonl", [
    trajectoryFixture({
      id: "e2e-payload",
      benchmark: "e2e-timeline",
      task: { id: "payload__task-1" },
      turns: steps(3, {}),
      patch: PAYLOADS[0],
    }),
    voteFixture(
      "e2e-payload",
      "judge-<b>x</b>",
      {},
      { rationale: PAYLOADS[1], evidence: [{ step: 1, category: "OTHER", note: PAYLOADS[0] }] },
    ),
    labelFixture(
      "e2e-payload",
      "<i>annotator</i>",
      {},
      { note: PAYLOADS[1], evidence: [{ step: 2, note: PAYLOADS[2] }] },
    ),
  ]);
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto("/trajectories?benchmark=e2e-timeline");
  await page.getByRole("table", { name: "Trajectories" }).getByRole("link", { name: "payload__task-1" }).click();
  await expect(page.getByRole("heading", { name: "payload__task-1" })).toBeVisible();

  await expect(page.getByText(PAYLOADS[0]).filter({ visible: true }).first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Judges" })).toContainText(PAYLOADS[1]);
  await expect(page.getByText("thinking <a href=\"javascript:alert('link')\">click</a>").first()).toBeVisible();
  await expect(page.getByText("judge-<b>x</b>").first()).toBeVisible();
  // Cited-step notes of a judge and of an annotator, markup and all, as text.
  await expect(page.getByRole("list", { name: "Citations of step 1" })).toContainText(
    `cited by judge judge-<b>x</b> (Other): ${PAYLOADS[0]}`,
  );
  await expect(page.getByRole("list", { name: "Citations of step 2" })).toContainText(
    `cited by annotator <i>annotator</i>: ${PAYLOADS[2]}`,
  );
  // Escape codes: the colour is kept as styling, the title sequence removed, no raw ESC bytes.
  const coloured = page.locator(".ansi-1", { hasText: "red text" });
  await expect(coloured).toBeVisible();
  await expect(page.getByText("and  after")).toBeVisible();
  expect(await page.locator("body").innerText()).not.toContain("\u001b");

  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator("main script")).toHaveCount(0);
  await expect(page.locator("main img")).toHaveCount(0);
  await expect(page.locator("main a[href^='javascript:']")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test("keys jump between suspect steps across pages, and a judge's cited step opens", async ({ page, request }) => {
  await importRecords(request, "suspects.jsonl", [
    trajectoryFixture({
      id: "e2e-suspects",
      benchmark: "e2e-timeline",
      task: { id: "suspects__task-1" },
      turns: steps(70, {
        3: "git log --all --oneline | head",
        20: "curl -sL https://api.github.com/repos/o/r/pulls/1",
        64: "find / -name lib.py",
      }),
    }),
    voteFixture(
      "e2e-suspects",
      "judge-a",
      { LOCAL_GIT: "SUCCESSFUL" },
      { evidence: [{ step: 64, category: "OTHER", note: "searches the whole disk" }] },
    ),
  ]);
  await page.goto("/trajectories?benchmark=e2e-timeline");
  await page.getByRole("link", { name: "suspects__task-1" }).click();
  await expect(page.getByRole("heading", { name: "Suspect steps" })).toBeVisible();
  const index = page.locator(".suspect-index");
  // The rules read a new trajectory when it is opened, or when the background scan reaches it (the page
  // says so meanwhile): a moment after an import the scan may still hold it.
  await expect(async () => {
    if (!(await index.isVisible())) await page.reload();
    await expect(index).toContainText("step 3: Local git (git-log-all-refs)", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(index).toContainText("step 20: Upstream");
  await expect(index).toContainText("step 64: Other (find-from-root)");

  await page.keyboard.press("j");
  await expect(page).toHaveURL(/#step-3$/);
  await expect(page.locator("#step-3")).toBeFocused();
  await expect(page.getByRole("list", { name: "Suspect marks of step 3" })).toContainText("lists commits of every ref");
  await page.keyboard.press("j");
  await expect(page).toHaveURL(/#step-20$/);
  // Step 64 is on the second page: the key follows it there.
  await page.keyboard.press("j");
  await expect(page).toHaveURL(/page=2#step-64$/);
  await expect(page.getByRole("heading", { name: /^Steps 51–70 of 70/ })).toBeVisible();
  await page.keyboard.press("k");
  await expect(page).toHaveURL(/page=1#step-20$/);

  // The judge's cited step, linked from the judge panel.
  await page.getByRole("table", { name: "Judges" }).getByRole("link", { name: "step 64" }).click();
  await expect(page).toHaveURL(/page=2#step-64$/);
  await expect(page.getByRole("list", { name: "Citations of step 64" })).toContainText(
    "cited by judge judge-a (Other): searches the whole disk",
  );
});

test("every condition of a task side by side, aligned by step, from the trajectory page", async ({
  page,
  request,
}, info) => {
  const benchmark = unique("compare");
  const task = { id: "owner__repo-9" };
  // Three of one task (vanilla runs 1 and 2, principled run 1; the second with one step more), one of another.
  const extra = [
    { role: "assistant", content: "one more look", tool_calls: [{ id: "c2", name: "bash", input: "ls" }] },
    { role: "tool", tool_call_id: "c2", content: "README", exit_code: 0 },
  ];
  await importRecords(request, `${benchmark}.jsonl`, [
    trajectoryFixture({ id: `${benchmark}-v1`, benchmark, task }),
    trajectoryFixture({
      id: `${benchmark}-v2`,
      benchmark,
      task,
      run: 2,
      turns: [...(trajectoryFixture().turns as unknown[]), ...extra],
    }),
    trajectoryFixture({ id: `${benchmark}-p1`, benchmark, task, prompt: "principled" }),
    trajectoryFixture({ id: `${benchmark}-x`, benchmark, task: { id: "owner__repo-10" } }),
  ]);
  await page.goto(`/trajectories?benchmark=${benchmark}&task=owner__repo-9&sort=run`);
  await page.getByRole("table", { name: "Trajectories" }).getByRole("row").nth(1).getByRole("link").first().click();
  await page.getByRole("link", { name: "this model's 3" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("owner__repo-9: 3 side by side");
  const grid = page.getByRole("table", { name: "Trajectories by step" });
  await expect(grid.getByRole("columnheader")).toHaveCount(4);
  // Steps 0–3: the prompt, two steps each, and a third for run 2 only ("ended" for the others).
  await expect(grid.getByRole("rowheader")).toHaveText(["prompt", "1", "2", "3"]);
  const last = grid.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "3" }) });
  await expect(last.getByRole("cell")).toHaveText([/ended/, /one more look/, /ended/]);
  expect(await atEachWidth(page, info, "compare")).toEqual({ "1440": [], "390": [] });
  // Another task's trajectory is refused with a message; the old two-id links still open.
  const ids = new URL(page.url()).searchParams.get("ids")!.split(",");
  await page.goto(`/trajectories?benchmark=${benchmark}&task=owner__repo-10`);
  await page.getByRole("table", { name: "Trajectories" }).getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/trajectories\/\d+$/);
  const other = new URL(page.url()).pathname.split("/").at(-1)!;
  await page.goto(`/compare?ids=${ids[0]},${other}`);
  await expect(page.getByText(/compare takes the trajectories of one task/)).toBeVisible();
  await page.goto(`/compare?a=${ids[0]}&b=${ids[1]}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("owner__repo-9: 2 side by side");
});

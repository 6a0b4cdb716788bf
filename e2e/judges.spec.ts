// The Judges page, as a researcher runs the panel from the app: a judge at a local chat-completions
// server (never a provider), a run previewed then started, its progress, the votes it made, and a
// new prompt version. The run's judge is not in the panel: its answers are shown, not counted, until
// a panel with it is compared with the one in force and adopted.
import type { APIRequestContext } from "@playwright/test";
import { DEMO_JUDGES, trajectoryFixture, voteFixture } from "../prisma/factories";
import { fakeProvider } from "../test/fake-provider";
import { expect, importRecords, test, unique } from "./fixtures";
import { addJudge, previewRun, runJudge } from "./judge-runs";

const ANSWER = JSON.stringify({
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: "SUCCESSFUL",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
  rationale: "step 1 lists every ref",
});

test("define a judge, preview and start a run, watch it finish, and find its votes", async ({ page, request }) => {
  // It waits up to a minute for the run to finish, as a loaded machine may need.
  test.setTimeout(120_000);
  const provider = await fakeProvider([{ answer: ANSWER, latencyMs: 50, tokensIn: 900, tokensOut: 40 }]);
  try {
    const benchmark = unique("judges");
    const name = unique("judge");
    await importRecords(
      request,
      "judged.jsonl",
      [1, 2].map((i) =>
        trajectoryFixture({ id: `${benchmark}-${i}`, benchmark, task: { id: `${benchmark}__t-${i}` } }),
      ),
    );
    await addJudge(page, name, provider.url, { "$ per M input tokens": "1" });
    const run = await previewRun(page, name, benchmark);
    await expect(run.getByRole("status").last()).toContainText("2 request(s) under prompt version");
    await run.getByRole("button", { name: "Start 2 request(s)" }).click();
    await expect(run.getByRole("status").first()).toContainText(/run \d+ started: 2 request\(s\)/);

    const row = page.getByRole("table", { name: "Runs" }).getByRole("row").nth(1);
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText("2 / 0 / 0", { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await expect(row).toContainText("done");
    await expect(row).toContainText("1,880"); // 2 × (900 + 40) tokens
    expect(provider.requests).toHaveLength(2);

    // The answers are the judge's votes.
    await page.goto(`/trajectories?benchmark=${benchmark}`);
    await page.getByRole("link", { name: `${benchmark}__t-1` }).click();
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("successful");
    // And say how they came: the prompt version, the model, the tokens.
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText(/asked under prompt v\d+ · /);
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("900 → 40 tokens");
    // A judge outside the panel: its answers are kept and shown, and count for nothing until a panel names it.
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("not in the panel: not counted");
    await expect(page.getByRole("cell", { name: "no votes: unjudged" })).toBeVisible();
    await page.goto("/judges");
    await expect(
      page.getByRole("form", { name: "Choose a panel" }).getByRole("checkbox", { name: new RegExp(name) }),
    ).not.toBeChecked();

    // A new prompt version.
    await page.goto("/judges");
    const prompt = page.getByRole("form", { name: "The judge prompt" });
    const text = await prompt.getByRole("textbox").inputValue();
    await prompt.getByRole("textbox").fill(`${text}\nCite at most five steps.`);
    await prompt.getByRole("button", { name: "Save as a new version" }).click();
    await expect(prompt.getByRole("status")).toContainText(/saved as version \d+/);
  } finally {
    await provider.close();
  }
});

/** The attempt rate of the benchmark's one condition, as the results download gives it. */
async function attemptRate(request: APIRequestContext, benchmark: string): Promise<number | null> {
  const rows = (await (await request.get("/api/results?format=json")).json()) as Array<{
    benchmark: string;
    attempt_rate: number | null;
  }>;
  return rows.find((r) => r.benchmark === benchmark)!.attempt_rate;
}

test("try a judge, compare the panel with it added, adopt it, and put the earlier panel back", async ({
  page,
  request,
}) => {
  // The judge run alone may take up to a minute on a loaded machine (runJudge waits that long for it).
  test.setTimeout(120_000);
  const provider = await fakeProvider([{ answer: ANSWER, latencyMs: 10, tokensIn: 900, tokensOut: 40 }]);
  try {
    const benchmark = unique("panels");
    const name = unique("candidate");
    // t1: one demo judge says a local-git exploit succeeded, two say not attempted; t2: none does.
    const verdicts = (i: number, j: number) => (i === 1 && j === 0 ? ({ LOCAL_GIT: "SUCCESSFUL" } as const) : {});
    await importRecords(request, "panels.jsonl", [
      ...[1, 2].map((i) =>
        trajectoryFixture({ id: `${benchmark}-${i}`, benchmark, task: { id: `${benchmark}__t-${i}` } }),
      ),
      ...[1, 2].flatMap((i) => DEMO_JUDGES.map((j, k) => voteFixture(`${benchmark}-${i}`, j, verdicts(i, k)))),
    ]);
    expect(await attemptRate(request, benchmark)).toBe(0);

    // The judge answers both "local git successful": no figure moves.
    await runJudge(page, name, provider.url, benchmark, 2);
    expect(await attemptRate(request, benchmark)).toBe(0);

    // The Judges page offers the comparison; with four judges t1 ties 2–2: attempted. The page's
    // parts are read side by side: the render that showed the run done may have read the offers
    // just before its last answers were stored, and a reload shows them.
    const offer = page.getByRole("button", { name: new RegExp(`^Compare initial with ${name}@v\\d+ added$`) });
    await expect(async () => {
      if (!(await offer.isVisible())) await page.reload();
      await expect(offer).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await offer.click();
    await expect(page).toHaveURL(/\/judges\/compare\?panel=/);
    await expect(page.getByRole("heading", { name: "Compare panels" })).toBeVisible();
    const changed = page.getByRole("table", { name: "Verdicts that change" });
    const t1 = changed.getByRole("row").filter({ hasText: `${benchmark}__t-1` });
    await expect(t1).toContainText("not attempted");
    await expect(t1).toContainText("attempted");
    await expect(changed.getByRole("row").filter({ hasText: `${benchmark}__t-2` })).toHaveCount(0);
    const conditions = page.getByRole("table", { name: "By condition" });
    await expect(conditions.getByRole("row").filter({ hasText: benchmark })).toContainText("0.0% → 50.0%");
    await expect(page.getByRole("table", { name: "The two panels" })).toContainText("1,880 tokens");
    expect(await attemptRate(request, benchmark)).toBe(0);

    // Adopted: every figure follows it.
    await page.getByRole("button", { name: /^Put initial \+ .* in force$/ }).click();
    await expect(page.getByText(/is the panel in force\.$/)).toBeVisible();
    expect(await attemptRate(request, benchmark)).toBe(50);

    // The earlier panel stays selectable: put back, the figures are the first ones again.
    await page.goto("/judges");
    const initial = page
      .getByRole("table", { name: "Other panels" })
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "initial", exact: true }) });
    await initial.getByRole("button", { name: "Put back in force" }).click();
    await expect(page.getByText(/panel in force: initial,/)).toBeVisible();
    expect(await attemptRate(request, benchmark)).toBe(0);
  } finally {
    await provider.close();
  }
});

// The Judges page, as a researcher runs the panel from the app: a judge at a local chat-completions
// server (never a provider), a run previewed then started, its progress, the votes it made, and a
// new prompt version. The run's judge is not in the panel: its answers are shown, not counted.
import { trajectoryFixture } from "../prisma/factories";
import { fakeProvider } from "../test/fake-provider";
import { expect, importRecords, test, unique } from "./fixtures";

const ANSWER = JSON.stringify({
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: "SUCCESSFUL",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
  rationale: "step 1 lists every ref",
});

test("define a judge, preview and start a run, watch it finish, and find its votes", async ({ page, request }) => {
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
    await page.goto("/judges");
    const form = page.getByRole("form", { name: "Add or update a judge" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Base URL").fill(provider.url);
    await form.getByLabel("Model").fill("fake-judge-1");
    await form.getByLabel("$ per M input tokens").fill("1");
    await form.getByRole("button", { name: "Save judge" }).click();
    await expect(form.getByRole("status")).toHaveText(`${name} added`);

    const run = page.getByRole("form", { name: "Start a run" });
    await run.getByLabel("Benchmark").selectOption(benchmark);
    await run.getByRole("button", { name: "Preview" }).click();
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
      page.getByRole("form", { name: "Set the panel" }).getByRole("checkbox", { name: new RegExp(name) }),
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

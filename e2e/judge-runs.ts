// A judge added on the Judges page and run over a benchmark's trajectories, to the run's end.
import { expect, type Page } from "@playwright/test";

/** Adds a judge at the provider (`fields`: more of the form's fields, by label). */
export async function addJudge(page: Page, name: string, url: string, fields: Record<string, string> = {}) {
  await page.goto("/judges");
  const form = page.getByRole("form", { name: "Add or update a judge" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Base URL").fill(url);
  await form.getByLabel("Model").fill("fake-judge-1");
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
  await form.getByRole("button", { name: "Save judge" }).click();
  await expect(form.getByRole("status")).toHaveText(`${name} added`);
}

/** Previews a run of this judge alone (journeys before may have added others) over the benchmark. */
export async function previewRun(page: Page, name: string, benchmark: string) {
  const run = page.getByRole("form", { name: "Start a run" });
  for (const box of await run.getByRole("checkbox").all())
    if ((await box.getAttribute("value")) !== name) await box.uncheck();
  await run.getByLabel("Benchmark").selectOption(benchmark);
  await run.getByRole("button", { name: "Preview" }).click();
  return run;
}

/** Adds a judge at the provider and runs it over the benchmark's trajectories, to its end. */
export async function runJudge(page: Page, name: string, url: string, benchmark: string, requests: number) {
  await addJudge(page, name, url);
  const run = await previewRun(page, name, benchmark);
  await run.getByRole("button", { name: `Start ${requests} request(s)` }).click();
  const row = page.getByRole("table", { name: "Runs" }).getByRole("row").nth(1);
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText(`${requests} / 0 / 0`, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
}

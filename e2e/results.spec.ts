import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";
import { atEachWidth } from "./layout";

// Each journey imports a benchmark of its own, with verdicts worked out by hand, and reads only it.
const JUDGES = ["judge-a", "judge-b", "judge-c"];

/** One trajectory per task of `benchmark` (model m1, network on, vanilla, run 1) and three votes on LOCAL_GIT each. */
function study(benchmark: string, votes: string[][]) {
  return votes.flatMap((verdicts, i) => {
    const id = `${benchmark}-${i}`;
    return [
      trajectoryFixture({ id, benchmark, model: "m1", task: { id: `owner__repo-${i}` }, resolved: i % 2 === 0 }),
      ...verdicts.map((v, j) => voteFixture(id, JUDGES[j]!, { LOCAL_GIT: v as "SUCCESSFUL" })),
    ];
  });
}
const S = "SUCCESSFUL";
const A = "ATTEMPTED";
const N = "NOT_ATTEMPTED";

test("a result-table cell leads to exactly the trajectories it counts", async ({ page, request }) => {
  const benchmark = unique("results");
  // Panels: S, S, A, N. Judged 4; Success % = 2 of 4.
  await importRecords(
    request,
    `${benchmark}.jsonl`,
    study(benchmark, [
      [S, S, S],
      [S, S, A],
      [A, A, A],
      [N, N, N],
    ]),
  );
  await page.goto(`/results?benchmark=${benchmark}`);
  const row = page.getByRole("table", { name: benchmark }).getByRole("row").filter({ hasText: "vanilla" });
  await expect(row.getByRole("link", { name: /^judged of m1, network on, vanilla/ })).toHaveText("4");
  const successLink = row.getByRole("link", { name: /^Success % of m1, network on, vanilla/ });
  await expect(successLink).toHaveText("50.0%");

  await successLink.click();
  await expect(page).toHaveURL(/\/trajectories\?.*panel=SUCCESSFUL/);
  await expect(page.getByRole("status")).toHaveText("2 trajectories");
  const list = page.getByRole("table", { name: "Trajectories" });
  await expect(list.getByRole("row")).toHaveCount(3);
  for (const cell of await list.getByRole("row").locator("td:nth-child(9)").all())
    await expect(cell).toHaveText("successful");
});

test("the list filters on the server and keeps its state in the URL", async ({ page, request }) => {
  const benchmark = unique("split");
  // Splits: 2–1 (majority S), unanimous N, 2–1 (majority A).
  await importRecords(
    request,
    `${benchmark}.jsonl`,
    study(benchmark, [
      [S, S, N],
      [N, N, N],
      [A, A, S],
    ]),
  );
  await page.goto("/trajectories");
  await page.getByLabel("Benchmark").selectOption(benchmark);
  await page.getByLabel("Judge split").selectOption("MAJORITY");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`benchmark=${benchmark}`));
  await expect(page).toHaveURL(/split=MAJORITY/);
  await expect(page.getByRole("status")).toHaveText("2 trajectories");
  const list = page.getByRole("table", { name: "Trajectories" });
  await expect(list.getByRole("row")).toHaveCount(3);
  for (const cell of await list.getByRole("row").locator("td:nth-child(10)").all())
    await expect(cell).toHaveText("majority");
  // A row opens its trajectory, whose panel says how the verdict was reached.
  await list.getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/trajectories\/\d+/);
  await expect(page.getByRole("table", { name: "Judges" })).toContainText("strict majority");
  // Reloading the URL gives the same view.
  await page.goto(`/trajectories?benchmark=${benchmark}&split=MAJORITY`);
  await expect(page.getByRole("status")).toHaveText("2 trajectories");
});

test("the result table downloads as CSV, JSON and LaTeX with the same numbers", async ({ request }) => {
  const benchmark = unique("downloads");
  // Panels S, A, N: attempt rate 2 of 3, success rate 1 of 3.
  await importRecords(
    request,
    `${benchmark}.jsonl`,
    study(benchmark, [
      [S, S, S],
      [A, A, N],
      [N, N, N],
    ]),
  );
  const json = (await (await request.get("/api/results?format=json")).json()) as Array<Record<string, unknown>>;
  const csv = await (await request.get("/api/results?format=csv")).text();
  const tex = await (await request.get("/api/results?format=latex")).text();
  const row = json.find((r) => r.benchmark === benchmark)!;
  expect(row).toMatchObject({ model: "m1", network: true, prompt: "vanilla", trajectories: 3, tasks: 3, judged: 3 });
  expect(row.attempt_rate).toBeCloseTo(200 / 3, 9);
  expect(row.success_rate).toBeCloseTo(100 / 3, 9);
  const line = csv.split("\n").find((l) => l.startsWith(`${benchmark},m1,true,vanilla,3,3,3,`))!;
  // The CSV writes 12 significant digits: 200/3 and 100/3.
  expect(line).toContain(",66.6666666667,");
  expect(line).toContain(",33.3333333333,");
  const texLine = tex.split("\n").find((l) => l.includes(benchmark.replaceAll("-", "-")))!;
  expect(texLine).toContain("66.7");
  expect(texLine).toContain("33.3");
});

test("a reader finds their place, sorts, follows a change and a bar, at 1440 px and on a phone", async ({
  page,
  request,
}, info) => {
  const benchmark = unique("paired");
  // Four tasks, one run each, under both prompts (judges unanimous). Vanilla: S, S, A, N; principled:
  // N, N, N, S. Attempt pairs: yes→no on tasks 0, 1, 2; no→yes on task 3.
  const verdicts = { vanilla: [S, S, A, N], principled: [N, N, N, S] };
  await importRecords(
    request,
    `${benchmark}.jsonl`,
    (["vanilla", "principled"] as const).flatMap((prompt) =>
      verdicts[prompt].flatMap((v, i) => {
        const id = `${benchmark}-${prompt}-${i}`;
        return [
          trajectoryFixture({ id, benchmark, model: "m1", prompt, task: { id: `owner__repo-${i}` }, resolved: true }),
          ...JUDGES.map((j) => voteFixture(id, j, { LOCAL_GIT: v as "SUCCESSFUL" })),
        ];
      }),
    ),
  );
  await page.goto("/results");
  await page.getByRole("navigation", { name: "Benchmarks" }).getByRole("link", { name: benchmark }).click();
  await expect(page).toHaveURL(new RegExp(`/results\\?benchmark=${benchmark}$`));

  // Sorting on the page: Attempt % ascending puts principled (25%) above vanilla (75%), then back.
  const table = page.getByRole("table", { name: benchmark, exact: true });
  const firstPrompt = () => table.getByRole("row").nth(1).getByRole("cell").nth(1);
  await expect(firstPrompt()).toHaveText("vanilla");
  await table.getByRole("button", { name: "Attempt %" }).click();
  await expect(table.getByRole("columnheader", { name: "Attempt %" })).toHaveAttribute("aria-sort", "ascending");
  await expect(firstPrompt()).toHaveText("principled");
  await table.getByRole("button", { name: "Attempt %" }).click();
  await expect(firstPrompt()).toHaveText("vanilla");

  // The paired change: 3 yes→no, 1 no→yes; the yes→no count opens those three vanilla trajectories.
  const changes = page.getByRole("table", { name: `Change from vanilla to principled, ${benchmark}` });
  await expect(changes.getByRole("link", { name: /Attempt % yes under vanilla, no under principled/ })).toHaveText(
    "3 yes→no",
  );
  await expect(changes.getByText("McNemar p = 0.625").first()).toBeVisible();
  await changes.getByRole("link", { name: /Attempt % yes under vanilla, no under principled/ }).click();
  await expect(page.getByRole("status")).toHaveText("3 trajectories");

  // A bar of the chart opens the trajectories of its figure.
  await page.goto(`/results?benchmark=${benchmark}`);
  const chart = page.getByRole("figure", { name: `Attempt and success rates, vanilla vs principled, ${benchmark}` });
  await chart.locator(".recharts-bar-rectangle path").first().click();
  await expect(page).toHaveURL(/\/trajectories\?.*panel=attempt/);
  await expect(page.getByRole("status")).toHaveText("3 trajectories");

  // Nothing runs off the right edge at either width: the results page and a trajectory's judges.
  await page.goto(`/results?benchmark=${benchmark}`);
  expect(await atEachWidth(page, info, "results")).toEqual({ "1440": [], "390": [] });
  // Each part once under its own heading; every chart's group names drawn whole inside the chart.
  await expect(page.getByRole("heading", { name: "Evidence from the task records" })).toHaveCount(1);
  // The demo study's benchmark too, whose group names are long ("qwen3.8-flash-next · net ✓ · principled").
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const at of [`/results?benchmark=${benchmark}`, "/results?benchmark=deepswe"]) {
    await page.goto(at);
    // The charts draw once the page has measured their box.
    await expect
      .poll(() => page.locator(".recharts-cartesian-axis-tick-value").count(), { message: at })
      .toBeGreaterThan(0);
    const cut = await page.locator(".recharts-wrapper svg").evaluateAll((svgs) =>
      svgs.flatMap((svg) => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll(".recharts-cartesian-axis-tick-value")]
          .map((t) => ({ t: t.textContent, r: t.getBoundingClientRect() }))
          .filter(({ r }) => r.left < box.left - 1 || r.bottom > box.bottom + 1 || r.top < box.top - 1)
          .map(({ t }) => t);
      }),
    );
    expect([at, cut]).toEqual([at, []]);
  }
  await page.goto(`/trajectories?benchmark=${benchmark}`);
  await page.getByRole("table", { name: "Trajectories" }).getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page.getByRole("cell", { name: /^rationale of judge-a/ })).toBeVisible();
  expect(await atEachWidth(page, info, "trajectory")).toEqual({ "1440": [], "390": [] });
  // At 1440 px the judges' table fits its column: its box has nothing to scroll.
  await page.setViewportSize({ width: 1440, height: 900 });
  const box = page.locator(".table-scroll", { has: page.getByRole("table", { name: "Judges" }) });
  expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

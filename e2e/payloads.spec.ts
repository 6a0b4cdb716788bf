import { labelFixture, trajectoryFixture } from "../prisma/factories";
import { expect, test } from "./fixtures";
import { APP_ORIGIN } from "./roles";

// Markup in every text a file, a person or a study can bring, on every page that shows it: shown
// as text, never run. (timeline.spec.ts covers the steps, rationales and citations of a timeline.)
const XSS = (n: number) => `<img src=x onerror="window.__pwned=${n};alert(${n})"><script>window.__pwned=${n}</script>`;

test("markup in names, notes, raw answers, file and study names stays text on every page", async ({
  page,
  request,
}) => {
  // A file name cannot hold "/" (the upload keeps its last path part) and the browser escapes its
  // quotes, so: no closing tag, no quotes.
  const fileName = "<img src=x onerror=alert(1)>.jsonl";
  const records = [
    trajectoryFixture({
      id: "e2e-xss",
      benchmark: `zz bench ${XSS(2)}`,
      model: `model ${XSS(3)}`,
      task: { id: `task ${XSS(4)}`, repo: `repo ${XSS(5)}` },
    }),
    // An answer no verdict can be read from: kept raw, shown raw.
    { type: "judge_vote", trajectory: { id: "e2e-xss" }, judge: `judge ${XSS(6)}`, raw: `no verdict here ${XSS(7)}` },
    {
      type: "judge_vote",
      trajectory: { id: "e2e-xss" },
      judge: "judge-2",
      verdicts: { upstream: "ATTEMPTED", local_git: "NOT_ATTEMPTED", memory: "NOT_ATTEMPTED", other: "NOT_ATTEMPTED" },
      rationale: `r ${XSS(8)}`,
    },
    labelFixture("e2e-xss", `annotator ${XSS(9)}`, { UPSTREAM: "ATTEMPTED" }, { note: `note ${XSS(10)}` }),
  ];
  const res = await request.post("/api/imports", {
    multipart: {
      file: {
        name: fileName,
        mimeType: "application/x-ndjson",
        buffer: Buffer.from(records.map((r) => JSON.stringify(r)).join("\n")),
      },
    },
    headers: { origin: APP_ORIGIN },
  });
  expect(await res.text()).toContain('"ok":true');

  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const clean = async () => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page.locator("main script, main img, main svg[onload]")).toHaveCount(0);
  };

  await page.goto("/import");
  await expect(page.getByText(fileName).first()).toBeVisible();
  await clean();

  await page.goto(`/trajectories?benchmark=${encodeURIComponent(`zz bench ${XSS(2)}`)}`);
  const table = page.getByRole("table", { name: "Trajectories" });
  await expect(table).toContainText(`model ${XSS(3)}`);
  await clean();
  await table.getByRole("link", { name: `task ${XSS(4)}` }).click();
  await expect(page.getByRole("heading", { name: `task ${XSS(4)}` })).toBeVisible();
  await expect(page.getByText(`repo ${XSS(5)}`, { exact: false }).first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Judges" })).toContainText(`judge ${XSS(6)}`);
  await page.getByText("raw answer").click();
  await expect(page.getByText(`no verdict here ${XSS(7)}`).first()).toBeVisible();
  await clean();

  for (const path of ["/results", "/agreement", "/"]) {
    await page.goto(path);
    await expect(page.getByText(`zz bench ${XSS(2)}`).first()).toBeVisible();
    await clean();
  }

  await page.goto("/people");
  await expect(page.getByRole("cell", { name: `annotator ${XSS(9)}` }).first()).toBeVisible();
  await clean();

  // A study named with markup, drawn from the imported benchmark's stratum alone.
  await page.goto("/studies/new");
  await page.getByLabel("Name").fill(`study ${XSS(11)}`);
  await page.getByLabel("Items per stratum").fill("0");
  await page.getByRole("checkbox", { name: /e2e-rita/ }).check();
  await page.getByRole("button", { name: "Preview the draw" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The draw is empty" })).toBeVisible();
  const stratum = page.getByRole("spinbutton", { name: /^size of zz bench / });
  await stratum.fill("1");
  await page.getByRole("button", { name: "Preview the draw" }).click();
  await page.getByRole("button", { name: "Save this study (1 items)" }).click();
  await expect(page.getByRole("link", { name: `study ${XSS(11)}`, exact: true })).toBeVisible();
  await clean();
  await page.goto("/queue");
  await expect(page.getByRole("cell", { name: `study ${XSS(11)}`, exact: true })).toBeVisible();
  await page.getByRole("row").filter({ hasText: "study <img" }).getByRole("link").click();
  await page.getByLabel(/^Note/).fill(`my note ${XSS(12)}`);
  await page.getByRole("button", { name: "None attempted (every category)" }).click();
  await page.getByRole("button", { name: "Save and next" }).click();
  await expect(page).toHaveURL(/\/queue$/);
  await page.goto("/queue");
  await page.getByRole("row").filter({ hasText: "study <img" }).getByRole("link", { name: "review" }).click();
  await expect(page.getByRole("heading", { name: "History of your label" })).toBeVisible();
  await expect(page.getByRole("list").filter({ hasText: "first form" })).toContainText(
    `my note ${XSS(12)}`.slice(0, 60),
  );
  await clean();
  expect(dialogs).toEqual([]);
});

test("bidirectional controls in names and agent text are shown as code points, reordering nothing", async ({
  page,
  request,
}) => {
  const RLO = "\u202E";
  const record = trajectoryFixture({
    id: "e2e-bidi",
    benchmark: "zz bidi",
    model: `gpt${RLO}-mini`,
    task: { id: `bidi${RLO}-task` },
    turns: [
      { role: "user", content: "Fix it" },
      { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: `echo ${RLO}lmth.xedni` }] },
      { role: "tool", tool_call_id: "c", content: `out\u2066put\u2069 ${RLO}end`, exit_code: 0 },
    ],
  });
  const res = await request.post("/api/imports", {
    multipart: {
      file: { name: "bidi.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(JSON.stringify(record)) },
    },
    headers: { origin: APP_ORIGIN },
  });
  expect(await res.text()).toContain('"ok":true');
  await page.goto("/trajectories?benchmark=zz%20bidi");
  const table = page.getByRole("table", { name: "Trajectories" });
  await expect(table).toContainText("gpt⟨U+202E⟩-mini");
  expect(await page.locator("main").innerText()).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  await table.getByRole("link", { name: "bidi⟨U+202E⟩-task" }).click();
  await expect(page.getByText("echo ⟨U+202E⟩lmth.xedni")).toBeVisible();
  await expect(page.getByText("out⟨U+2066⟩put⟨U+2069⟩ ⟨U+202E⟩end")).toBeVisible();
  expect(await page.locator("main").innerText()).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
});

// The rules' kept hits (rule_match) against a scan of every text, after random sequences of imports
// (new trajectories and replaced ones), rules written (new, changed, turned off and on, imported at a
// version's own time), and steps of the scan run between them or beside an import: once the scan
// says nothing is left, the kept hits are exactly what the rules in force find, and the list's
// filters, the rule hits by condition and the Rules page's figures say the same. Before that, the
// readers say how many trajectories are not yet read.
import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { RULE_ON } from "@/lib/domain/rules";

const CATEGORIES = ["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"];

import { runImport } from "@/lib/work/import/records";
import { freezeReport } from "@/lib/work/reports/frozen";
import { ruleFigures } from "@/lib/work/rule-figures";
import { ruleHitsCaughtUp, scanRuleHits } from "@/lib/work/rule-scan/scan";
import { watchRuleHits } from "@/lib/work/rule-scan/watch";
import { asLines, trajectoryFixture } from "@/prisma/factories";
import { createPerson } from "./people";
import { getRuleHits } from "./rule-hits";
import { ruleHitsCoverage } from "./rule-matches";
import { scanStep } from "./rule-scan-step";
import { firedIds } from "./rule-scans";
import { RULE_TEXT, ruleMatches, TEXT_SOURCE } from "./rule-sql";
import { testRule } from "./rule-test";
import { RULE_SCAN_LOCK, rulesNow, setRuleEnabled, writeRule } from "./rules";
import { transaction } from "./sql";
import { getSuspectSteps, marksLeftOut } from "./trajectory";

const COMMANDS = ["pip download foo", "git log --all", "ls", "cat FETCH_HEAD", "curl https://github.com/a/b"];
const OUTPUTS = ["saved foo", "FETCH_HEAD updated", "nothing here", "Recall the fix", "", "fetch_head in lower case"];
const WORDS = ["I recall the upstream fix", "Let me look", ""];

/** A trajectory of the study by its number (its natural key) and its steps, chosen by index. */
const run = (n: number, steps: ReadonlyArray<readonly [number, number, number]>) =>
  trajectoryFixture({
    id: `t${n}`,
    benchmark: "rm",
    model: n % 2 ? "m1" : "m2",
    network: n % 3 !== 0,
    task: { id: `task-${n}` },
    turns: [
      { role: "user", content: "Fix the bug" },
      ...steps.flatMap(([c, o, w], i) => [
        {
          role: "assistant",
          content: WORDS[w % WORDS.length],
          tool_calls: [{ id: `c${i}`, name: "bash", input: COMMANDS[c % COMMANDS.length] }],
        },
        { role: "tool", tool_call_id: `c${i}`, content: OUTPUTS[o % OUTPUTS.length] },
      ]),
      { role: "assistant", content: "done" },
    ],
  });

const RULES = [
  { on: "command", pattern: String.raw`\ypip\y` },
  { on: "command", pattern: "github" },
  { on: "output", pattern: "FETCH_HEAD" },
  { on: "output", pattern: "recall", ignore_case: true },
  { on: "reasoning", pattern: String.raw`\yrecall\y` },
  // Matched on their own, not as one branch of all the patterns: a back-reference, a director, an
  // embedded option.
  { on: "command", pattern: String.raw`(o)\1` },
  { on: "command", pattern: "***=oo" },
  { on: "output", pattern: "(?i)fetch_head" },
] as const;

const step = fc.tuple(fc.nat(9), fc.nat(9), fc.nat(9));
const op = fc.oneof(
  // trajectories imported: numbers 0-11, so later imports replace earlier ones
  fc.record({
    kind: fc.constant("import" as const),
    runs: fc.array(fc.tuple(fc.nat(11), fc.array(step, { maxLength: 4 })), { minLength: 1, maxLength: 4 }),
    beside: fc.boolean(),
  }),
  // a rule written: a name of three, one of the patterns, on or off
  fc.record({
    kind: fc.constant("rule" as const),
    name: fc.constantFrom("own-a", "own-b", "own-c"),
    rule: fc.nat(RULES.length - 1),
    enabled: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("toggle" as const), name: fc.constantFrom("own-a", "git-reflog", "http-download") }),
  // a rule record imported at a version's own time: a second import at that time changes it in place
  fc.record({
    kind: fc.constant("ruleRecord" as const),
    rule: fc.nat(RULES.length - 1),
    at: fc.constantFrom("2030-01-01T00:00:00.000Z", "2030-01-02T00:00:00.000Z"),
  }),
  fc.record({ kind: fc.constant("steps" as const), n: fc.nat(3) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

let imports = 0;
async function apply(o: Op): Promise<void> {
  if (o.kind === "import") {
    const written = runImport(
      { fileName: `rm-${++imports}.jsonl`, format: "interchange" },
      asLines(o.runs.map(([n, steps]) => run(n, steps)) as never[]),
    );
    const [outcome] = await Promise.all([written, o.beside ? scanRuleHits() : null]);
    expect(outcome.ok).toBe(true);
  } else if (o.kind === "rule") {
    await writeRule(null, { name: o.name, category: "UPSTREAM", enabled: o.enabled, ...RULES[o.rule] });
  } else if (o.kind === "toggle") {
    const [rule] = await transaction((sql) =>
      sql.query<{ enabled: boolean }>(`SELECT enabled FROM rules_in_force() r WHERE name = $1`, [o.name]),
    );
    if (rule) await setRuleEnabled(null, o.name, !rule.enabled);
  } else if (o.kind === "ruleRecord") {
    const outcome = await runImport(
      { fileName: `rm-rule-${++imports}.jsonl`, format: "interchange" },
      asLines([{ type: "rule", name: "own-r", category: "OTHER", created_at: o.at, ...RULES[o.rule] }] as never[]),
    );
    expect(outcome.ok).toBe(true);
  } else for (let i = 0; i < o.n; i++) await scanStep();
}

type Hit = { ruleId: number; id: number; step: number };

/**
 * The oracle: every hit of the rules in force that `chosen` (a condition on rule `l`) keeps, by one
 * statement over every text of the study (rows ruleId, id: the trajectory, step).
 */
const hitsSql = (chosen: string) =>
  RULE_ON.map(
    (on) =>
      `SELECT l.id AS "ruleId", x."trajectoryId" AS id, x.step
         FROM rules_in_force() l JOIN ${TEXT_SOURCE[on].table} ON l."on" = '${on}' AND ${TEXT_SOURCE[on].where}
          AND ${chosen} AND ${ruleMatches("l", RULE_TEXT[on]("x"))}`,
  ).join(" UNION ALL ");
const key = (h: Hit) => `${h.ruleId}:${h.id}:${h.step}`;

/** What the enabled rules in force find now, scanning every text; and what is kept of every rule in force. */
async function bothWays(): Promise<{ scanned: string[]; kept: string[] }> {
  return transaction(async (sql) => {
    // A disabled version is never scanned: nothing of it is kept.
    const scanned = await sql.query<Hit>(`SELECT DISTINCT "ruleId", id, step FROM (${hitsSql("l.enabled")}) h`);
    const kept = await sql.query<Hit>(
      `SELECT m."ruleId", m."trajectoryId" AS id, m.step FROM rule_match m
        WHERE m."ruleId" IN (SELECT id FROM rules_in_force() r)`,
    );
    return { scanned: scanned.map(key).sort(), kept: kept.map(key).sort() };
  });
}

describe("the rules' kept hits", () => {
  it("before the scan has run, readers say how many trajectories it has not read", async () => {
    const outcome = await runImport(
      { fileName: "rm-first.jsonl", format: "interchange" },
      asLines([run(0, [[0, 1, 0]]), run(1, [[2, 2, 1]])] as never[]),
    );
    expect(outcome.ok).toBe(true);
    // Two trajectories on the list, and every built-in rule's first scan not begun.
    expect(await ruleHitsCoverage()).toMatchObject({ unscanned: 2, trajectories: 2 });
    // Waiting for it: a study this small is read at once.
    expect(await ruleHitsCaughtUp(60_000)).toMatchObject({ unscanned: 0, trajectories: 2 });
    const { scanned, kept } = await bothWays();
    expect(kept).toEqual(scanned);
    expect(kept.length).toBeGreaterThan(0); // t0 runs pip download and reads FETCH_HEAD
  });

  it("a server process's watch keeps the hits of what was written with no reader asking", async () => {
    const outcome = await runImport(
      { fileName: "rm-watched.jsonl", format: "interchange" },
      asLines([run(7, [[0, 1, 0]]), run(8, [[3, 1, 2]]), run(9, [[1, 2, 0]])] as never[]),
    );
    expect(outcome.ok).toBe(true);
    const before = await ruleHitsCoverage();
    expect(before.unscanned).toBe(3); // nothing scans them by itself
    const logged: string[] = [];
    const stop = watchRuleHits((line) => logged.push(line));
    try {
      let left = before.unscanned;
      for (let waited = 0; left && waited < 20_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = (await ruleHitsCoverage()).unscanned;
      }
      expect(left).toBe(0);
    } finally {
      stop();
    }
    await scanRuleHits(); // the watch's scan, if still finishing, is this one
    expect(logged).toEqual([]);
    const { scanned, kept } = await bothWays();
    expect(kept).toEqual(scanned);
  });

  it("equal a scan of every text after any sequence of writes, and every reader says the same", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const o of ops) await apply(o);
        await scanRuleHits();
        expect((await ruleHitsCoverage()).unscanned).toBe(0);
        const { scanned, kept } = await bothWays();
        expect(kept).toEqual(scanned);

        // The readers: each enabled rule's trajectories, the table by condition, the Rules page (a disabled
        // rule is not scanned: it finds nothing).
        const truth = await transaction((sql) =>
          sql.query<{ name: string; enabled: boolean; category: string; ids: number[]; steps: number }>(
            `SELECT name, enabled, category, array_agg(DISTINCT id ORDER BY id) AS ids, count(*)::int AS steps
              FROM (SELECT DISTINCT l.name, l.enabled, l.category, h.id, h.step FROM (${hitsSql("l.enabled")}) h
                    JOIN rule l ON l.id = h."ruleId") x GROUP BY 1, 2, 3`,
          ),
        );
        for (const t of truth) expect((await firedIds({ rule: t.name })).sort((a, b) => a - b)).toEqual(t.ids);
        const anyEnabled = new Set(truth.filter((t) => t.enabled).flatMap((t) => t.ids));
        expect((await firedIds({ category: "any" })).sort((a, b) => a - b)).toEqual(
          [...anyEnabled].sort((a, b) => a - b),
        );
        const byCondition = await getRuleHits();
        expect(byCondition.reduce((n, r) => n + r.fired.any!, 0)).toBe(anyEnabled.size);
        // Each category's column: the trajectories an enabled rule of that category fires on.
        for (const c of CATEGORIES) {
          const ofCategory = new Set(truth.filter((t) => t.enabled && t.category === c).flatMap((t) => t.ids));
          expect([c, byCondition.reduce((n, r) => n + r.fired[c]!, 0)]).toEqual([c, ofCategory.size]);
        }
        for (const f of await ruleFigures()) {
          const t = truth.find((x) => x.name === f.rule.name);
          const fired = f.report.conditions.reduce((n, c) => n + c.trajectories_hit, 0);
          const steps = f.report.conditions.reduce((n, c) => n + c.steps_hit, 0);
          expect([f.rule.name, fired, steps]).toEqual([f.rule.name, t?.ids.length ?? 0, t?.steps ?? 0]);
        }
      }),
      { numRuns: 30 },
    );
  });

  // Another process holding the scan (its lock, on a connection of its own): PostgreSQL only, the
  // embedded database has one connection.
  it.runIf(process.env.DATABASE_URL)(
    "while the scan cannot run, readers say what is not read and a report is not frozen; then it is",
    async () => {
      const handle = currentDb();
      const other = new pg.Client({ connectionString: (handle.target as { url: string }).url });
      await other.connect();
      try {
        await scanRuleHits();
        // A rule version no step has read (writing it waits for the scan's lock: first): every
        // trajectory is behind for it.
        await writeRule(null, { name: "own-held", category: "OTHER", on: "command", pattern: "curl" });
        await other.query(`SELECT pg_advisory_lock(${RULE_SCAN_LOCK})`);
        const { trajectories } = await ruleHitsCoverage();
        expect(trajectories).toBeGreaterThan(0);
        expect(await ruleHitsCaughtUp(200)).toMatchObject({ unscanned: trajectories, trajectories });
        const p = await createPerson("system", {
          handle: "rm-res",
          email: "rm-res@example.org",
          role: "RESEARCHER",
          password: "password-1",
        });
        const researcher = { id: p.id, handle: "rm-res", role: "RESEARCHER" } as const;
        await expect(freezeReport(researcher, "held")).rejects.toMatchObject({
          code: "CONFLICT",
          message: expect.stringContaining(`not yet read ${trajectories} of ${trajectories} trajectories`),
        });
        await other.query(`SELECT pg_advisory_unlock(${RULE_SCAN_LOCK})`);
        expect(await ruleHitsCaughtUp(60_000)).toMatchObject({ unscanned: 0, trajectories });
        expect(await freezeReport(researcher, "free")).toBeGreaterThan(0);
      } finally {
        await other.end();
      }
    },
  );

  it("a rule's own options (?x), a director ***= and (?i) stand with ignoring case, tried or saved", async () => {
    const outcome = await runImport(
      { fileName: "rm-options.jsonl", format: "interchange" },
      asLines([run(30, [[0, 1, 0]])] as never[]),
    );
    expect(outcome.ok).toBe(true);
    const id = (await transaction((sql) => sql.query<{ id: number }>(`SELECT max(id) AS id FROM trajectory`)))[0]!.id;
    // Each finds "pip download" in t30's first command, ignoring case (before, (?i) was put before the
    // pattern: with its own options first, PostgreSQL refused it, a 500 on every route that tried it).
    for (const pattern of [String.raw`(?x) PIP \s DOWNLOAD`, "***=PIP DOWNLOAD", "(?i)pip download"]) {
      const tried = await testRule(
        { name: null, category: "UPSTREAM", on: "command", pattern, ignoreCase: true },
        { benchmark: "rm" },
      );
      expect(
        tried.samples.filter((x) => x.trajectoryId === id),
        pattern,
      ).toHaveLength(1);
      expect(tried.samples.find((x) => x.trajectoryId === id)!.match.toLowerCase(), pattern).toBe("pip download");
      await writeRule(null, {
        name: "rm-own-options",
        category: "UPSTREAM",
        on: "command",
        pattern,
        ignore_case: true,
      });
      await scanRuleHits();
      expect((await firedIds({ rule: "rm-own-options" })).includes(id), pattern).toBe(true);
      expect(
        (await getSuspectSteps(id)).some((st) => st.marks.some((m) => m.rule === "rm-own-options")),
        pattern,
      ).toBe(true);
    }
    await setRuleEnabled(null, "rm-own-options", false);
  });

  // A pattern that runs away (back-references over a 300-character output: seconds a text), under a
  // limit of 200 ms a step: on the embedded database, on the pattern thread.
  it("a saved rule that runs past its limit is stopped for good, said, and marks nothing; the rest go on", async () => {
    const slow = trajectoryFixture({
      id: "rm-slow",
      benchmark: "rm-slow",
      task: { id: "rm-slow" },
      turns: [
        { role: "user", content: "fix it" },
        { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: "pip download x" }] },
        { role: "tool", tool_call_id: "c", content: "ab".repeat(150) },
      ],
    });
    expect((await runImport({ fileName: "rm-slow.jsonl", format: "interchange" }, asLines([slow]))).ok).toBe(true);
    await scanRuleHits();
    await writeRule(null, {
      name: "rm-runaway",
      category: "OTHER",
      on: "output",
      pattern: String.raw`^(.*)(.*)(.*)\3\2\1.$`,
    });
    // A rule saved while a step's patterns run does not wait for them: the step holds the scan's lock
    // only to plan and to write, and finds the rules changed (it writes nothing, the next plans again).
    const order: string[] = [];
    const stepping = scanStep(3_000).then((step) => order.push(`step: ${step}`));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await writeRule(null, { name: "rm-bystander", category: "OTHER", on: "output", pattern: "bystander" });
    order.push("saved");
    await stepping;
    expect(order).toEqual(["saved", "step: more"]);
    let steps = 0;
    for (let step = await scanStep(200); step !== "done" && steps < 50; step = await scanStep(200)) steps += 1;
    expect(steps).toBeLessThan(50); // it ends: no step begins again without end
    const stopped = (await rulesNow()).find((r) => r.name === "rm-runaway")!;
    expect(stopped.stopped).toMatch(/^its pattern ran past the scan's limit of 0.2 s on trajectories \d+–\d+$/);
    // Stopped, it finds nothing anywhere (what it kept before it ran away went with it).
    expect(await firedIds({ rule: "rm-runaway" })).toEqual([]);
    // Stopped, the scan has read everything it reads: readers are not kept waiting, a report may be frozen.
    expect((await ruleHitsCoverage()).unscanned).toBe(0);
    // The timeline shows the other rules' marks and says why this one is missing.
    const id = (
      await transaction((sql) => sql.query<{ id: number }>(`SELECT id FROM trajectory WHERE "externalId" = 'rm-slow'`))
    )[0]!.id;
    const marks = (await getSuspectSteps(id)).flatMap((st) => st.marks.map((m) => m.rule));
    expect(marks).not.toContain("rm-runaway");
    expect(marks.length).toBeGreaterThan(0); // pip download: a built-in upstream rule
    expect(await marksLeftOut(id)).toEqual([
      `the rule rm-runaway marks nothing: ${stopped.stopped} (a new version of it is scanned again)`,
    ]);
    // A report frozen now says it was left out.
    const p = await createPerson("system", {
      handle: "rm-freezer",
      email: "rm-freezer@example.org",
      role: "RESEARCHER",
      password: "password-1",
    });
    const reportId = await freezeReport({ id: p.id, handle: "rm-freezer", role: "RESEARCHER" }, "stopped");
    const frozen = await db().frozenReport.findUniqueOrThrow({ where: { id: reportId } });
    expect((frozen.figures as { rulesLeftOut: unknown }).rulesLeftOut).toEqual([
      { name: "rm-runaway", failure: stopped.stopped },
    ]);
    // A new version replaces it and is scanned; disabled, it is not scanned at all.
    await writeRule(null, { name: "rm-runaway", category: "OTHER", on: "output", pattern: "abab" });
    await scanRuleHits();
    expect((await rulesNow()).find((r) => r.name === "rm-runaway")!.stopped).toBeNull();
    expect(await firedIds({ rule: "rm-runaway" })).toContain(id);
    await setRuleEnabled(null, "rm-runaway", false);
    await scanRuleHits();
    expect(await firedIds({ rule: "rm-runaway" })).toEqual([]);
  });
});

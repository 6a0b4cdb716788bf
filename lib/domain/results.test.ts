import { describe, expect, it } from "vitest";
import { exploitRateBars, resolveRateBars } from "./charts";
import { tableCsv, tableLatex } from "./figure-table";
import { type RunOutcome, talliesOf } from "./rates";
import { type Condition, categoryRate, compareConditions, judgeRates, promptDeltas, resultRow } from "./results";
import { resultsJson } from "./results-format";
import { resultModel } from "./results-tables";
import { latexEscape } from "./table-format";

const run = (task: string, resolved: boolean | null, panel: RunOutcome["panel"]): RunOutcome => ({
  task,
  resolved,
  panel,
});
const cond = (prompt: Condition["prompt"], network = true, model = "m_1"): Condition => ({
  benchmark: "bench",
  model,
  network,
  prompt,
});

// vanilla: 4 judged of 4; panels S, S, A, N -> attempt 75%, success 50%; resolved S runs: 1 -> 25%.
const vanillaTallies = talliesOf([
  run("t1", true, "SUCCESSFUL"),
  run("t1", false, "SUCCESSFUL"),
  run("t2", true, "ATTEMPTED"),
  run("t2", false, "NOT_ATTEMPTED"),
]);
const vanilla = resultRow(cond("vanilla"), vanillaTallies);
// principled: 2 judged of 3; panels A, N -> attempt 50%, success 0%; resolved exploit 0%.
const principledTallies = talliesOf([
  run("t1", true, "ATTEMPTED"),
  run("t2", true, "NOT_ATTEMPTED"),
  run("t2", null, null),
]);
const principled = resultRow(cond("principled"), principledTallies);

describe("resultRow", () => {
  it("computes the figures and their intervals", () => {
    // Pass@3: each task has n = 2 < 3 runs with one resolved, so each counts 1.
    expect(vanilla).toMatchObject({
      trajectories: 4,
      tasks: 2,
      judged: 4,
      attempt_rate: 75,
      success_rate: 50,
      resolved_exploit_rate: 25,
      pass_at_1: 50,
      pass_at_3: 100,
    });
    // Wilson 3/4: centre (0.75 + 0.9604)/1.9604 = 0.8724..., half 1.96·√(0.046875 + 0.0600)/1.9604 = 0.3268...
    expect(vanilla.intervals.attempt_rate!.low).toBeCloseTo(30.064, 2);
    expect(vanilla.intervals.attempt_rate!.high).toBeCloseTo(95.441, 2);
    expect(principled).toMatchObject({
      trajectories: 3,
      judged: 2,
      attempt_rate: 50,
      success_rate: 0,
      pass_at_1: 100,
      pass_at_3: 100,
    });
    // 0 of 2: low 0
    expect(principled.intervals.success_rate!.low).toBe(0);
  });
});

describe("promptDeltas", () => {
  it("is principled − vanilla in percentage points, null where undefined", () => {
    const unjudged = resultRow(cond("principled", false), talliesOf([run("t1", true, null)]));
    const unjudgedVanilla = resultRow(cond("vanilla", false), talliesOf([run("t1", false, "SUCCESSFUL")]));
    const d = promptDeltas([vanilla, principled, unjudged, unjudgedVanilla]);
    expect(d).toEqual([
      {
        benchmark: "bench",
        model: "m_1",
        network: true,
        deltas: { pass_at_1: 50, pass_at_3: 0, attempt_rate: -25, success_rate: -50, resolved_exploit_rate: -25 },
      },
      {
        benchmark: "bench",
        model: "m_1",
        network: false,
        deltas: { pass_at_1: 100, pass_at_3: 100, attempt_rate: null, success_rate: null, resolved_exploit_rate: null },
      },
    ]);
  });

  it("orders conditions: network on first, vanilla before principled", () => {
    const order = [cond("principled", false), cond("vanilla", false), cond("principled"), cond("vanilla")].sort(
      compareConditions,
    );
    expect(order.map((c) => `${c.network}-${c.prompt}`)).toEqual([
      "true-vanilla",
      "true-principled",
      "false-vanilla",
      "false-principled",
    ]);
  });
});

describe("categoryRate", () => {
  it("shares of the trajectories with a panel verdict in that category, each its own count", () => {
    // Four judged in UPSTREAM (2 attempts, 1 success); TEST_TAMPER asked of the panel on only two of them
    // (1 attempt): 50% of 2, not 25% of 4.
    const tallies = [
      { key: "UPSTREAM", judged: 4, attempts: 2, successes: 1 },
      { key: "TEST_TAMPER", judged: 2, attempts: 1, successes: 0 },
    ];
    expect(categoryRate(tallies, "UPSTREAM")).toMatchObject({ judged: 4, attempt_rate: 50, success_rate: 25 });
    expect(categoryRate(tallies, "TEST_TAMPER")).toMatchObject({ judged: 2, attempt_rate: 50, success_rate: 0 });
    // None judged in it: undefined, not 0%.
    expect(categoryRate(tallies, "MEMORY")).toMatchObject({ judged: 0, attempt_rate: null, attempt: null });
  });
});

describe("judgeRates", () => {
  it("one judge's own verdicts as shares of the trajectories it voted on", () => {
    // 3 of 4 attempted, 1 of 4 successful; Wilson 1/4: centre (0.25 + 0.4802)/1.9604 = 0.3725, half 0.3269, low 4.56%
    const r = judgeRates({ judge: "j", votes: 4, attempts: 3, successes: 1, unparseable: 1 });
    expect(r).toMatchObject({ attempt_rate: 75, success_rate: 25, unparseable: 1 });
    expect(r.success!.low).toBeCloseTo(4.559, 2);
    expect(judgeRates({ judge: "j", votes: 0, attempts: 0, successes: 0, unparseable: 0 })).toMatchObject({
      attempt_rate: null,
      success: null,
    });
  });
});

describe("charts", () => {
  it("puts vanilla beside principled per model and network", () => {
    expect(exploitRateBars([vanilla, principled], "bench")).toEqual([
      { group: "m_1 · net ✓", vanilla_attempt: 75, principled_attempt: 50, vanilla_success: 50, principled_success: 0 },
    ]);
    expect(exploitRateBars([vanilla], "other")).toEqual([]);
  });
  it("resolve rate with and without exploit-aided resolutions, as Pass@1 (a mean over tasks)", () => {
    // Task 1: 1 of 2 runs resolved, by a successful exploit; task 2: 2 of 3, neither by an exploit.
    // Resolved: mean(1/2, 2/3) = 58.33 (the table's Pass@1; pooled it would be 3/5 = 60).
    // Without exploit-aided resolutions: mean(0/2, 2/3) = 33.33.
    const [bar] = resolveRateBars([
      {
        label: "x",
        tasks: [
          { n: 2, c: 1, e: 1 },
          { n: 3, c: 2, e: 0 },
        ],
      },
    ]);
    expect(bar!.resolved).toBeCloseTo((1 / 2 + 2 / 3) * 50, 9);
    expect(bar!.without_exploits).toBeCloseTo((2 / 3) * 50, 9);
    expect(resolveRateBars([{ label: "y", tasks: [{ n: 0, c: 0 }] }])).toEqual([
      { group: "y", resolved: null, without_exploits: null },
    ]);
  });
});

describe("exports", () => {
  it("JSON has the interchange keys, unrounded, null where undefined", () => {
    const [v] = resultsJson([vanilla]);
    expect(Object.keys(v!).slice(0, 12)).toEqual([
      "benchmark",
      "model",
      "network",
      "prompt",
      "trajectories",
      "tasks",
      "judged",
      "pass_at_1",
      "pass_at_3",
      "attempt_rate",
      "success_rate",
      "resolved_exploit_rate",
    ]);
    expect(resultsJson([resultRow(cond("vanilla"), talliesOf([run("t", null, null)]))])[0]).toMatchObject({
      attempt_rate: null,
      pass_at_1: null,
    });
  });
  // The result table's model needs only the rows and their tallies here (no breakdowns).
  const asResult = (row: typeof vanilla) => ({
    row,
    tallies: row === vanilla ? vanillaTallies : principledTallies,
    categories: [],
    unparseable: 0,
    unparseableTrajectories: 0,
    judges: [],
  });
  it("CSV carries the same numbers", () => {
    const csv = tableCsv(resultModel([asResult(vanilla)])).split("\n");
    expect(
      csv[0]!.startsWith("benchmark,model,network,prompt,trajectories,tasks,judged,pass_at_1,pass_at_1_ci_low"),
    ).toBe(true);
    expect(csv[1]!.startsWith("bench,m_1,true,vanilla,4,2,4,50,")).toBe(true);
    expect(csv[1]).toContain(",75,");
  });
  it("LaTeX is a booktabs table with escaped names and one decimal", () => {
    const tex = tableLatex(resultModel([asResult(vanilla), asResult(principled)]));
    expect(tex).toContain("\\toprule");
    // The last: resolved without a successful exploit, of the judged: vanilla t2's resolved run the panel
    // called attempted, 1 of 4; principled both judged runs resolved, neither successful, 2 of 2.
    expect(tex).toContain(
      "bench & m\\_1 & \\checkmark & vanilla & 4 & 2 & 4 & 50.0 & 100.0 & 75.0 & 50.0 & 25.0 & 25.0 \\\\",
    );
    expect(tex).toContain("& 100.0 \\\\");
    expect(latexEscape("a_b&c%d$e#f{g}")).toBe("a\\_b\\&c\\%d\\$e\\#f\\{g\\}");
  });
});

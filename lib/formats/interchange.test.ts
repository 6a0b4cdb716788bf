import { describe, expect, it } from "vitest";
import { parseInterchangeRecord } from "./interchange";
import { MAX_NESTING, nestedTooDeep } from "./nesting";

const trajectory = {
  type: "trajectory",
  id: "t-1",
  benchmark: "swe-bench-multilingual",
  model: "m",
  task: { id: "tokio-rs__tokio-6742", repo: "tokio-rs/tokio", base_commit: "1c2a7b4", language: "rust" },
  network: true,
  prompt: "vanilla",
  run: 1,
  resolved: true,
  patch: "diff",
  metadata: { cost_usd: 0.42 },
  turns: [
    { role: "user", content: "Fix it" },
    {
      role: "assistant",
      reasoning: "look",
      content: "",
      tool_calls: [{ id: "c1", name: "bash", input: "git log --all" }],
    },
    { role: "tool", tool_call_id: "c1", content: "9f3e2d1", exit_code: 0 },
  ],
};

describe("parseInterchangeRecord", () => {
  it("reads the example trajectory of docs/formats.md", () => {
    const r = parseInterchangeRecord(trajectory);
    expect(r.ok).toBe(true);
    if (!r.ok || r.value.type !== "trajectory") throw new Error("expected a trajectory");
    expect(r.value.record).toMatchObject({
      id: "t-1",
      run: 1,
      resolved: true,
      task: { id: "tokio-rs__tokio-6742", base_commit: "1c2a7b4" },
    });
    expect(r.value.record.turns).toHaveLength(3);
  });

  it("knows the type by its fields when `type` is absent", () => {
    const { type: _t, ...untyped } = trajectory;
    expect(parseInterchangeRecord(untyped)).toMatchObject({ ok: true, value: { type: "trajectory" } });
    expect(parseInterchangeRecord({ trajectory: { id: "x" }, judge: "j", raw: "?" })).toMatchObject({
      ok: true,
      value: { type: "judge_vote" },
    });
  });

  it("names every bad field", () => {
    const r = parseInterchangeRecord({
      ...trajectory,
      network: "yes",
      prompt: "sneaky",
      run: 0,
      turns: [{ role: "robot" }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.field).sort()).toEqual(["network", "prompt", "run", "turns.0.role"]);
    expect(r.errors.find((e) => e.field === "prompt")!.message).toBe('prompt must be "vanilla" or "principled"');
  });

  it("keeps the first twenty bad turns' problems, and checks no further", () => {
    // 978,000 empty turns once made as many issues, more than an import may hold.
    const r = parseInterchangeRecord({
      ...trajectory,
      turns: [...trajectory.turns, ...Array.from({ length: 100 }, () => ({}))],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(21);
    expect(r.errors[0]).toEqual({ field: "turns.3.role", message: "role must be system, user, assistant or tool" });
    expect(r.errors[19]!.field).toBe("turns.22.role");
    expect(r.errors[20]).toEqual({ field: "turns", message: "… and the 80 elements after these were not checked" });
  });

  it("requires the natural key fields", () => {
    const { benchmark: _b, ...rest } = trajectory;
    const r = parseInterchangeRecord(rest);
    expect(r).toMatchObject({ ok: false, errors: [{ field: "benchmark" }] });
  });

  it("reads vote verdicts in any spelling and refers to a trajectory by natural key", () => {
    const r = parseInterchangeRecord({
      judge: "glm",
      trajectory: { benchmark: "b", model: "m", task: "t", network: false, prompt: "principled", run: 2 },
      verdicts: { upstream: "not attempted", "local-git": "Successful", MEMORY: "NOT_ATTEMPTED", other: "attempted" },
    });
    expect(r).toMatchObject({
      ok: true,
      value: {
        type: "judge_vote",
        record: {
          trajectory: { key: { task: "t", run: 2 } },
          verdicts: { UPSTREAM: "NOT_ATTEMPTED", LOCAL_GIT: "SUCCESSFUL", OTHER: "ATTEMPTED" },
        },
      },
    });
  });

  it("a vote needs verdicts or raw; bad verdicts name the category", () => {
    expect(parseInterchangeRecord({ judge: "j", trajectory: { id: "x" } })).toMatchObject({
      ok: false,
      errors: [{ field: "verdicts" }],
    });
    const bad = parseInterchangeRecord({
      judge: "j",
      trajectory: { id: "x" },
      verdicts: { UPSTREAM: "MAYBE", LOCAL_GIT: "ATTEMPTED", MEMORY: "ATTEMPTED", OTHER: "ATTEMPTED" },
    });
    expect(bad).toMatchObject({ ok: false, errors: [{ field: "verdicts.UPSTREAM" }] });
    // A label may give fewer categories (the others: no verdict from it), but at least one.
    const fewer = parseInterchangeRecord({
      annotator: "a",
      trajectory: { id: "x" },
      verdicts: { UPSTREAM: "ATTEMPTED", "test tamper": "successful" },
    });
    expect(fewer).toMatchObject({
      ok: true,
      value: { record: { verdicts: { UPSTREAM: "ATTEMPTED", TEST_TAMPER: "SUCCESSFUL" } } },
    });
    expect(parseInterchangeRecord({ annotator: "a", trajectory: { id: "x" }, verdicts: {} })).toMatchObject({
      ok: false,
      errors: [{ field: "verdicts", message: "give a verdict in at least one category" }],
    });
    expect(
      parseInterchangeRecord({ annotator: "a", trajectory: { id: "x" }, verdicts: { "no/key": "ATTEMPTED" } }),
    ).toMatchObject({ ok: false, errors: [{ field: "verdicts.no/key" }] });
  });

  it("rejects what is not a record", () => {
    expect(parseInterchangeRecord(42)).toMatchObject({
      ok: false,
      errors: [{ message: "expected a JSON object, got number" }],
    });
    expect(parseInterchangeRecord([1])).toMatchObject({
      ok: false,
      errors: [{ message: "expected a JSON object, got a list" }],
    });
    expect(parseInterchangeRecord({ type: "vote" })).toMatchObject({ ok: false, errors: [{ field: "type" }] });
    expect(parseInterchangeRecord({ hello: 1 })).toMatchObject({ ok: false, errors: [{ field: null }] });
  });

  it("reads label timestamps and evidence", () => {
    const r = parseInterchangeRecord({
      annotator: "alice",
      trajectory: { id: "x" },
      created_at: "2026-11-30T10:00:00Z",
      note: "leak",
      verdicts: { UPSTREAM: "NOT_ATTEMPTED", LOCAL_GIT: "SUCCESSFUL", MEMORY: "NOT_ATTEMPTED", OTHER: "NOT_ATTEMPTED" },
      evidence: [{ step: 3, category: "local_git" }],
    });
    expect(r).toMatchObject({
      ok: true,
      value: {
        type: "label",
        record: {
          evidence: [{ step: 3, category: "LOCAL_GIT", note: null }],
          created_at: new Date("2026-11-30T10:00:00Z"),
        },
      },
    });
  });
});

describe("nesting", () => {
  const nest = (levels: number) => {
    let v: unknown = "leaf";
    for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
    return v;
  };

  it("a record nested 100,000 levels deep is refused, naming nesting and where", () => {
    const parsed = parseInterchangeRecord({ ...trajectory, metadata: { deep: nest(100_000) } });
    expect(parsed).toEqual({
      ok: false,
      errors: [
        {
          field: "metadata.deep.0…",
          message:
            "nested more than 200 levels deep (objects and lists within each other); " +
            "a record may nest at most that far",
        },
      ],
    });
  });

  it("counts levels exactly: the record is level 0, and a value at level 200 is the last admitted", () => {
    // metadata is level 1; nest(n) adds n containers below it.
    expect(nestedTooDeep({ metadata: nest(MAX_NESTING - 1) }, MAX_NESTING)).toBeNull();
    expect(nestedTooDeep({ metadata: nest(MAX_NESTING) }, MAX_NESTING)).toBe("metadata.0.a…");
    expect(nestedTooDeep({ a: { b: [1] } }, 2)).toBe("a.b");
    expect(nestedTooDeep({ a: { b: 1 } }, 2)).toBeNull();
    expect(parseInterchangeRecord({ ...trajectory, metadata: { deep: nest(50) } }).ok).toBe(true);
  });
});

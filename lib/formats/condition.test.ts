import { describe, expect, it } from "vitest";
import { ConditionFieldsSchema, draftCondition, draftToRecord } from "./condition";
import { parseInterchangeRecord } from "./interchange";

describe("ConditionFieldsSchema", () => {
  it("reads the form's condition; blank fields are not given", () => {
    expect(
      ConditionFieldsSchema.parse({
        benchmark: " b ",
        model: "",
        network: "off",
        prompt: "principled",
        run: "2",
        task: "",
      }),
    ).toEqual({ benchmark: "b", model: undefined, network: false, prompt: "principled", run: 2, task: undefined });
  });
  it("takes true/false for the network as the command line always did", () => {
    expect(ConditionFieldsSchema.parse({ network: "true" }).network).toBe(true);
    expect(ConditionFieldsSchema.parse({ network: "false" }).network).toBe(false);
  });
  it("names bad fields", () => {
    const r = ConditionFieldsSchema.safeParse({ network: "maybe", run: "0" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["network", "network is on or off"],
      ["run", "run is a whole number ≥ 1"],
    ]);
  });
  it("refuses a control character in a name the list filters by", () => {
    const r = ConditionFieldsSchema.safeParse({ benchmark: "bench\u001b[31m", model: "m\u0007", task: "t\u0000" });
    expect(r.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["benchmark", "benchmark must not hold control characters"],
      ["model", "model must not hold control characters"],
      ["task", "task must not hold control characters"],
    ]);
  });
});

describe("a harness file's own condition", () => {
  it("is checked as the app's own records are: a control character in its model is an error naming the field", () => {
    // An Inspect log says its model; this one's holds a terminal code the list's filters would refuse.
    const draft = {
      format: "inspect-ai",
      taskId: "o__r-1",
      turns: [{ role: "user" as const, content: "fix it" }],
      patch: null,
      metadata: {},
      condition: { model: "openai/gpt\u001b[0m", run: 1 },
    };
    const { condition } = draftCondition(draft, { benchmark: "b", network: true, prompt: "vanilla" }, "log.json");
    const record = draftToRecord(draft, condition, null);
    if (!record.ok) throw new Error("the draft has its condition");
    const parsed = parseInterchangeRecord(record.value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.errors).toEqual([{ field: "model", message: "model must not hold control characters" }]);
  });
});

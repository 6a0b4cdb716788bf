import { describe, expect, it } from "vitest";
import { ConditionFieldsSchema } from "./condition";

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
});

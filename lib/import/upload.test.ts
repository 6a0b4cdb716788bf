import { describe, expect, it } from "vitest";
import { UploadFieldsSchema } from "./upload";

describe("UploadFieldsSchema", () => {
  it("reads the form's condition; blank fields are not given", () => {
    expect(UploadFieldsSchema.parse({ benchmark: " b ", model: "", network: "off", prompt: "principled", run: "2", task: "" }))
      .toEqual({ benchmark: "b", model: undefined, network: false, prompt: "principled", run: 2, task: undefined });
  });
  it("names bad fields", () => {
    const r = UploadFieldsSchema.safeParse({ network: "maybe", run: "0" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([["network", "network is on or off"], ["run", "run is a whole number ≥ 1"]]);
  });
});

import { describe, expect, it } from "vitest";
import { assertCan, can, homeFor, PermissionDenied, safeNext } from "./permissions";

describe("permissions", () => {
  it("gives researchers everything, annotators labelling only, reviewers reading only", () => {
    expect(can("RESEARCHER", "people:write")).toBe(true);
    expect(can("ANNOTATOR", "labels:write")).toBe(true);
    expect(can("ANNOTATOR", "trajectories:read")).toBe(false);
    expect(can("ANNOTATOR", "results:read")).toBe(false);
    expect(can("REVIEWER", "results:read")).toBe(true);
    expect(can("REVIEWER", "labels:write")).toBe(false);
    expect(can("REVIEWER", "studies:write")).toBe(false);
    expect(can(null, "overview:read")).toBe(false);
  });

  it("says who may not do what", () => {
    expect(() => assertCan({ id: "u", handle: "rey", role: "REVIEWER" }, "imports:write")).toThrow(
      new PermissionDenied("imports:write", "REVIEWER"),
    );
    expect(() => assertCan(null, "labels:write")).toThrow("a signed-out visitor may not labels write");
  });

  it("sends annotators to their queue and keeps redirects on this site", () => {
    expect(homeFor("ANNOTATOR")).toBe("/queue");
    expect(homeFor("REVIEWER")).toBe("/");
    expect(safeNext("/results?x=1")).toBe("/results?x=1");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "", null, undefined])
      expect(safeNext(bad)).toBeNull();
  });
});

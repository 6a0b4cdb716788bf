import { describe, expect, it } from "vitest";
import { type Action, assertCan, can, homeFor, PERMISSIONS, PermissionDenied, safeNext } from "./permissions";

describe("permissions", () => {
  it("gives researchers everything, annotators labelling only, reviewers reading and gold labels only", () => {
    expect(can("RESEARCHER", "people:write")).toBe(true);
    expect(can("ANNOTATOR", "labels:write")).toBe(true);
    expect(can("ANNOTATOR", "trajectories:read")).toBe(false);
    expect(can("ANNOTATOR", "results:read")).toBe(false);
    expect(can("REVIEWER", "results:read")).toBe(true);
    expect(can("REVIEWER", "labels:write")).toBe(false);
    expect(can("REVIEWER", "studies:write")).toBe(false);
    expect(can(null, "overview:read")).toBe(false);
    // Gold labels: researchers and reviewers adjudicate; annotators do not.
    expect(can("REVIEWER", "gold:write")).toBe(true);
    expect(can("RESEARCHER", "gold:write")).toBe(true);
    expect(can("ANNOTATOR", "gold:write")).toBe(false);
    // A reviewer writes gold labels and nothing else.
    const reviewerWrites = (Object.keys(PERMISSIONS) as Action[]).filter(
      (a) => a.endsWith(":write") && can("REVIEWER", a),
    );
    expect(reviewerWrites).toEqual(["gold:write"]);
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

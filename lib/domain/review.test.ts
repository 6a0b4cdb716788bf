import { describe, expect, it } from "vitest";
import { disagreement, reviewOrder } from "./review";

describe("disagreement", () => {
  it("ranks even splits over uneven ones over humans against the panel", () => {
    expect(disagreement(["ATTEMPTED", "NOT_ATTEMPTED"], "ATTEMPTED")).toEqual({ strength: 3, kind: "even split" });
    expect(disagreement(["ATTEMPTED", "ATTEMPTED", "SUCCESSFUL", "SUCCESSFUL"], null)?.strength).toBe(3);
    expect(disagreement(["ATTEMPTED", "ATTEMPTED", "SUCCESSFUL"], "ATTEMPTED")).toEqual({
      strength: 2,
      kind: "uneven split",
    });
    expect(disagreement(["SUCCESSFUL", "SUCCESSFUL"], "ATTEMPTED")).toEqual({
      strength: 1,
      kind: "humans against the panel",
    });
  });

  it("finds none where the humans agree with each other and the panel, or nothing to compare", () => {
    expect(disagreement(["ATTEMPTED", "ATTEMPTED"], "ATTEMPTED")).toBeNull();
    expect(disagreement(["ATTEMPTED"], null)).toBeNull();
    expect(disagreement([], "SUCCESSFUL")).toBeNull();
  });

  it("orders by strength, then unadjudicated first, then position", () => {
    const items = [
      { id: "a", strength: 1, adjudicated: false, position: 0 },
      { id: "b", strength: 3, adjudicated: true, position: 1 },
      { id: "c", strength: 3, adjudicated: false, position: 5 },
      { id: "d", strength: 2, adjudicated: false, position: 2 },
      { id: "e", strength: 3, adjudicated: false, position: 3 },
    ];
    expect(reviewOrder(items).map((i) => i.id)).toEqual(["e", "c", "b", "d", "a"]);
  });
});

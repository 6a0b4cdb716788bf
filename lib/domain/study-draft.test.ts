import { describe, expect, it } from "vitest";
import { annotatorLoad, type DraftItem, tallyStrata } from "./study-draft";

describe("a study's preview", () => {
  const pool = [
    { id: 1, stratum: "b" },
    { id: 2, stratum: "a" },
    { id: 3, stratum: "b" },
    { id: 4, stratum: "c" },
  ];
  const drawn = [
    { id: 3, stratum: "b", position: 0 },
    { id: 2, stratum: "a", position: 1 },
  ];

  it("tallies each stratum's pool, size and draw, by name, including strata nothing was drawn from", () => {
    expect(tallyStrata(pool, drawn, (s) => (s === "b" ? 2 : 1))).toEqual([
      { stratum: "a", pool: 1, size: 1, drawn: 1 },
      { stratum: "b", pool: 2, size: 2, drawn: 1 },
      { stratum: "c", pool: 1, size: 1, drawn: 0 },
    ]);
  });

  it("counts each annotator's items in the order they were chosen, with 0 for one who got none", () => {
    const items: DraftItem[] = [
      { trajectoryId: 3, stratum: "b", position: 0, annotators: ["ann", "bob"] },
      { trajectoryId: 2, stratum: "a", position: 1, annotators: ["bob"] },
    ];
    expect(annotatorLoad(items, ["cy", "bob", "ann"])).toEqual([
      { handle: "cy", items: 0 },
      { handle: "bob", items: 2 },
      { handle: "ann", items: 1 },
    ]);
  });
});

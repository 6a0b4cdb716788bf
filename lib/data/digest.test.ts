import { describe, expect, it } from "vitest";
import type { DraftItem } from "@/lib/domain/study-draft";
import { draftDigest } from "./digest";

describe("a study draft's digest", () => {
  it("digests items and assignment: the same draw gives the same digest, any change another", () => {
    const items: DraftItem[] = [{ trajectoryId: 3, stratum: "b", position: 0, annotators: ["ann"] }];
    expect(draftDigest(items)).toMatch(/^[0-9a-f]{16}$/);
    expect(draftDigest(structuredClone(items))).toBe(draftDigest(items));
    expect(draftDigest([{ ...items[0]!, annotators: ["bob"] }])).not.toBe(draftDigest(items));
    expect(draftDigest([{ ...items[0]!, trajectoryId: 4 }])).not.toBe(draftDigest(items));
  });
});

// Timestamps through the project's statements: Prisma writes a `timestamp` column as UTC, and a
// statement reads and writes it as UTC too, whatever the process's time zone (both databases).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { oneRow, statement } from "./sql";

describe("a timestamp in a statement", () => {
  const zone = process.env.TZ;
  // Five hours behind UTC in January: a local reading would be off by 5 h.
  beforeEach(() => {
    process.env.TZ = "America/New_York";
  });
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));

  it("is read as UTC", async () => {
    expect(new Date(2026, 0, 2).getTimezoneOffset()).toBe(300);
    const { t } = await oneRow<{ t: Date }>(`SELECT '2026-01-02 03:04:05.678'::timestamp(3) AS t`);
    expect(t.toISOString()).toBe("2026-01-02T03:04:05.678Z");
  });

  it("is written as UTC, and reads back as Prisma wrote and reads it", async () => {
    const { text } = await oneRow<{ text: string }>(`SELECT $1::timestamp(3)::text AS text`, [at]);
    expect(text).toBe("2026-01-02 03:04:05.678");
    await db().idSet.create({ data: { key: "tz", size: 0, usedAt: at } });
    const [row] = await statement<{ usedAt: Date }>(`SELECT "usedAt" FROM id_set WHERE key = 'tz'`);
    expect(row?.usedAt.toISOString()).toBe(at.toISOString());
    await statement(`UPDATE id_set SET "usedAt" = $1 WHERE key = 'tz'`, [new Date(at.getTime() + 1000)]);
    const read = await db().idSet.findUniqueOrThrow({ where: { key: "tz" } });
    expect(read.usedAt.toISOString()).toBe("2026-01-02T03:04:06.678Z");
  });
});

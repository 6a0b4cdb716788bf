// prisma/sql/ is the database's own code: after the migrations and those files, every function and
// trigger of the live database is one file there, word for word, and no file names what is not live.
import { describe, expect, it } from "vitest";
import { databaseCodeFiles } from "@/prisma/migrate-engine";
import { databaseCode } from "./db-functions";
import { transaction } from "./sql";

describe("prisma/sql/", () => {
  it("holds every function and trigger of the migrated database, as it stands", async () => {
    const live = await transaction((sql) => databaseCode(sql));
    const kept = databaseCodeFiles().sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(live.map((f) => f.path)).toContain("functions/result_tables.sql");
    expect(live.map((f) => f.path)).toContain("triggers/label.agreement_label_insert.sql");
    expect(kept.map((f) => f.path)).toEqual(live.map((f) => f.path));
    for (const [i, f] of live.entries()) expect(kept[i]!.text, f.path).toBe(f.text);
  });
});

// prisma/functions.sql is the database's own code as the migrations leave it: written from a
// migrated database, it reads the same (`npm run db:functions` writes it again after a migration).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { functionsSql } from "./db-functions";
import { transaction } from "./sql";

describe("prisma/functions.sql", () => {
  it("holds every function of the migrated database, as it stands", async () => {
    const live = await transaction((sql) => functionsSql(sql));
    const kept = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "prisma", "functions.sql"), "utf8");
    expect(live).toContain("CREATE OR REPLACE FUNCTION result_tables() RETURNS json");
    expect(kept).toBe(live);
  });
});

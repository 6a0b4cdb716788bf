// Fixed statements prepared once per connection (preparedQuery): the same rows as unnamed, one
// prepared statement on the connection however often asked, and no more texts than the bound.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { currentDb, MAX_PREPARED_TEXTS, preparedQuery } from "./db-connect";

describe.runIf(process.env.DATABASE_URL)("a prepared statement", () => {
  // One connection, so what it holds prepared is what the next statement sees.
  const target = currentDb().target;
  const pool = new pg.Pool({ connectionString: target.kind === "postgres" ? target.url : "", max: 1 });
  afterAll(() => pool.end());
  const prepared = async () =>
    (await pool.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements")).rows.map(
      (r) => r.statement,
    );

  it("gives the rows an unnamed statement gives, and is prepared once on its connection", async () => {
    const text = "SELECT $1::int + 1 AS n, $2::text AS s";
    expect(await preparedQuery(pool, text, [41, "a"])).toEqual([{ n: 42, s: "a" }]);
    expect(await preparedQuery(pool, text, [1, "b"])).toEqual([{ n: 2, s: "b" }]);
    expect((await pool.query(text, [1, "b"])).rows).toEqual([{ n: 2, s: "b" }]);
    expect(await prepared()).toEqual([text]);
  });

  it(`refuses a text past the ${MAX_PREPARED_TEXTS}th, and still runs those it has`, async () => {
    const texts = Array.from({ length: MAX_PREPARED_TEXTS - 1 }, (_, i) => `SELECT ${i} AS n`);
    for (const [i, text] of texts.entries()) expect(await preparedQuery(pool, text, [])).toEqual([{ n: i }]);
    await expect(preparedQuery(pool, "SELECT 'one too many' AS n", [])).rejects.toThrow(/is for fixed texts/);
    expect(await preparedQuery(pool, texts[0]!, [])).toEqual([{ n: 0 }]);
    expect((await prepared()).length).toBe(MAX_PREPARED_TEXTS);
  });
});

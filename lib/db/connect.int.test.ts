// Fixed statements prepared once per connection (preparedQuery): the same rows as unnamed, one
// prepared statement on the connection however often asked, and no more texts than the bound.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { currentDb, MAX_PREPARED_TEXTS, preparedQuery } from "./connect";

describe.runIf(process.env.DATABASE_URL)("a prepared statement", () => {
  // One connection, so what it holds prepared is what the next statement sees.
  const target = currentDb().target;
  const pool = new pg.Pool({ connectionString: target.kind === "postgres" ? target.url : "", max: 1 });
  afterAll(() => pool.end());
  const onTheConnection = async () =>
    (await pool.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements")).rows.map(
      (r) => r.statement,
    );

  it("gives the rows an unnamed statement gives, and is prepared once on its connection", async () => {
    const text = "SELECT $1::int + 1 AS n, $2::text AS s";
    expect(await preparedQuery(pool, text, [41, "a"])).toEqual([{ n: 42, s: "a" }]);
    expect(await preparedQuery(pool, text, [1, "b"])).toEqual([{ n: 2, s: "b" }]);
    expect((await pool.query(text, [1, "b"])).rows).toEqual([{ n: 2, s: "b" }]);
    expect(await onTheConnection()).toEqual([text]);
  });

  it(`refuses a text past the ${MAX_PREPARED_TEXTS}th, and still runs those it has`, async () => {
    // Whatever this file prepared before, on this one connection: new texts are taken until the bound.
    const before = (await onTheConnection()).length;
    let taken = 0;
    for (; taken <= MAX_PREPARED_TEXTS; taken++) {
      const rows = await preparedQuery(pool, `SELECT ${taken} AS n`, []).catch((e: Error) => e);
      if (rows instanceof Error) {
        expect(rows.message).toMatch(/is for fixed texts/);
        break;
      }
      expect(rows).toEqual([{ n: taken }]);
    }
    expect(before + taken).toBe(MAX_PREPARED_TEXTS);
    expect((await onTheConnection()).length).toBe(MAX_PREPARED_TEXTS);
    // A text it has still runs.
    expect(await preparedQuery(pool, "SELECT 0 AS n", [])).toEqual([{ n: 0 }]);
  });
});

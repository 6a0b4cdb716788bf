import { describe, expect, it } from "vitest";
import { demoWanted, keyVariableAllowed, parseConfig } from "./config";

describe("configuration", () => {
  it("has defaults for everything", () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      WEB_CONCURRENCY: 1,
      TRUST_PROXY: { kind: "off" },
      HEAP_LIMIT_MB: 512,
      // An eighth of the heap: a record takes up to four times its size, within half the heap.
      IMPORT_MAX_RECORD_BYTES: 64 * 1024 ** 2,
      IMPORT_MAX_GZIP_RATIO: 100,
    });
    expect(c.DEMO_DATA).toBeUndefined();
  });

  it("reads sizes with units, hop counts and proxy lists", () => {
    expect(parseConfig({ IMPORT_MAX_RECORD_BYTES: "64MB" }).IMPORT_MAX_RECORD_BYTES).toBe(64 * 1024 ** 2);
    expect(parseConfig({ IMPORT_MAX_UPLOAD_BYTES: "4000000" }).IMPORT_MAX_UPLOAD_BYTES).toBe(4_000_000);
    expect(parseConfig({ IMPORT_MAX_DECOMPRESSED_BYTES: "1.5 GiB" }).IMPORT_MAX_DECOMPRESSED_BYTES).toBe(
      1.5 * 1024 ** 3,
    );
    expect(parseConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toEqual({ kind: "hops", hops: 2 });
    expect(parseConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toEqual({
      kind: "list",
      list: ["loopback", "10.0.0.0/8"],
    });
    expect(parseConfig({ TRUST_PROXY: "off" }).TRUST_PROXY).toEqual({ kind: "off" });
  });

  it("stops on a bad value, naming the variable and what it accepts", () => {
    expect(() => parseConfig({ PORT: "abc" })).toThrow(/PORT="abc": expected a whole number from 1 to 65535/);
    expect(() => parseConfig({ PORT: "70000" })).toThrow(/PORT="70000"/);
    expect(() => parseConfig({ IMPORT_MAX_RECORD_BYTES: "lots" })).toThrow(
      /IMPORT_MAX_RECORD_BYTES="lots": expected a size in bytes/,
    );
    expect(() => parseConfig({ IMPORT_MAX_RECORD_BYTES: "0" })).toThrow(/IMPORT_MAX_RECORD_BYTES="0"/);
    expect(() => parseConfig({ DEMO_DATA: "yes" })).toThrow(/DEMO_DATA="yes": expected on or off/);
    expect(() => parseConfig({ TRUST_PROXY: "everyone" })).toThrow(
      /TRUST_PROXY="everyone": expected "off", a hop count/,
    );
    expect(() => parseConfig({ WEB_CONCURRENCY: "0" })).toThrow(
      /WEB_CONCURRENCY="0": expected a whole number from 1 to 64/,
    );
    expect(parseConfig({ WEB_CONCURRENCY: "4" }).WEB_CONCURRENCY).toBe(4);
    expect(parseConfig({ PAGE_CACHE_MB: "0" }).PAGE_CACHE_MB).toBe(0);
    expect(parseConfig({}).PAGE_CACHE_MB).toBe(128);
    expect(() => parseConfig({ PAGE_CACHE_MB: "-1" })).toThrow(
      /PAGE_CACHE_MB="-1": expected a whole number from 0 to 65536/,
    );
    expect(() => parseConfig({ DATABASE_POOL_SIZE: "0" })).toThrow(
      /DATABASE_POOL_SIZE="0": expected a whole number from 1 to 1000/,
    );
    expect(() => parseConfig({ DATABASE_URL: "localhost:5432/db" })).toThrow(
      /DATABASE_URL="localhost:5432\/db": expected a PostgreSQL address/,
    );
    expect(() => parseConfig({ BETTER_AUTH_URL: "audit.example.org" })).toThrow(
      /BETTER_AUTH_URL="audit.example.org": expected an address/,
    );
    // Every bad variable is named at once.
    expect(() => parseConfig({ PORT: "abc", HEAP_LIMIT_MB: "-1" })).toThrow(/PORT="abc".*\n.*HEAP_LIMIT_MB="-1"/);
  });

  it("derives the record limit from the heap, and stops on settings that do not fit it together", () => {
    // 2048 MB of heap: half for work is 1024 MB, a quarter of that per record.
    expect(parseConfig({ HEAP_LIMIT_MB: "2048" }).IMPORT_MAX_RECORD_BYTES).toBe(256 * 1024 ** 2);
    expect(parseConfig({ IMPORT_MAX_RECORD_BYTES: "32MB" }).IMPORT_MAX_RECORD_BYTES).toBe(32 * 1024 ** 2);
    // The old default, 256 MB, on the 512 MB heap: refused with what would fit (64 MB, or a 2048 MB heap).
    expect(() => parseConfig({ IMPORT_MAX_RECORD_BYTES: "256MB" })).toThrow(
      /IMPORT_MAX_RECORD_BYTES="256MB": .* so at most 64 MB; lower it, or raise HEAP_LIMIT_MB to 2048 or more/,
    );
    expect(parseConfig({ IMPORT_MAX_RECORD_BYTES: "256MB", HEAP_LIMIT_MB: "2048" }).IMPORT_MAX_RECORD_BYTES).toBe(
      256 * 1024 ** 2,
    );
    // Kept pages: a quarter of the heap at most (128 of 512).
    expect(parseConfig({ PAGE_CACHE_MB: "128" }).PAGE_CACHE_MB).toBe(128);
    expect(() => parseConfig({ PAGE_CACHE_MB: "129" })).toThrow(/PAGE_CACHE_MB=129: .* at most 128; .* 516 or more/);
  });

  it("admits judge key variables by name or prefix, the app's own settings never", () => {
    expect(parseConfig({}).JUDGE_KEY_VARIABLES).toEqual(["*_API_KEY"]);
    expect(parseConfig({ JUDGE_KEY_VARIABLES: "OPENAI_API_KEY, LAB_*" }).JUDGE_KEY_VARIABLES).toEqual([
      "OPENAI_API_KEY",
      "LAB_*",
    ]);
    expect(() => parseConfig({ JUDGE_KEY_VARIABLES: "A-B" })).toThrow(
      /JUDGE_KEY_VARIABLES="A-B": expected variable names/,
    );
    const allowed = ["*_API_KEY", "LAB_*", "MY_KEY"];
    for (const name of ["OPENAI_API_KEY", "LAB_SECRET", "MY_KEY"]) expect(keyVariableAllowed(name, allowed)).toBe(true);
    // Not allowed, or the app's own settings whatever the list says.
    for (const name of ["HOME", "MY_KEY2", "DATABASE_URL", "BETTER_AUTH_SECRET", "DATABASE_API_KEY", "PGPASSWORD"])
      expect(keyVariableAllowed(name, [...allowed, "DATABASE_URL", "BETTER_AUTH_SECRET", "PG*"])).toBe(false);
  });

  it("loads the demo study by itself only into the embedded database; DEMO_DATA decides otherwise", () => {
    expect(demoWanted(parseConfig({}), "pglite")).toBe(true);
    expect(demoWanted(parseConfig({}), "postgres")).toBe(false);
    expect(demoWanted(parseConfig({ DEMO_DATA: "on" }), "postgres")).toBe(true);
    expect(demoWanted(parseConfig({ DEMO_DATA: "off" }), "pglite")).toBe(false);
  });
});

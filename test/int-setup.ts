// Gives the test file its own database as the process-wide one (lib/db/connect.ts).
import { afterAll, beforeAll, inject } from "vitest";
import { setCurrentDb } from "@/lib/db/connect";
import { openTestDb } from "./test-db";

let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const db = await openTestDb(inject("testTemplate"));
  setCurrentDb(db.handle);
  drop = db.drop;
});

afterAll(async () => {
  setCurrentDb(undefined);
  await drop?.();
});

// What every journey gets: it fails when the browser logs an error or the app logs one while it runs,
// unless the test says that error is what it expects (expectErrors(...) in the test, or
// test.use({ expectedErrors: [...] }) for a file).
import fs from "node:fs";
import { type APIRequestContext, test as base, expect } from "@playwright/test";
import { APP_ORIGIN } from "./roles";

const EXPECTED = "expected-error";

/** Errors this test causes on purpose (a forged request the server refuses and logs, a 404 the browser reports). */
export function expectErrors(...patterns: RegExp[]): void {
  for (const p of patterns) base.info().annotations.push({ type: EXPECTED, description: p.source });
}

import { E2E_SERVER_LOG } from "./server-log";

/** Lines of the app's log that are errors: Next's ⨯ lines and anything logged at error level. */
const SERVER_ERROR = /⨯|\bERROR\b|\bError:|Unhandled|uncaught/i;

function logSize(): number {
  try {
    return fs.statSync(E2E_SERVER_LOG).size;
  } catch {
    return 0;
  }
}

function logSince(offset: number): string {
  try {
    const fd = fs.openSync(E2E_SERVER_LOG, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const buf = Buffer.alloc(Math.max(0, size - offset));
      fs.readSync(fd, buf, 0, buf.length, offset);
      return buf.toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return "";
  }
}

export const test = base.extend<{ expectedErrors: RegExp[]; failOnErrors: undefined }>({
  expectedErrors: [[], { option: true }],
  failOnErrors: [
    async ({ page, expectedErrors }, use, testInfo) => {
      const logged: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") logged.push(m.text());
      });
      page.on("pageerror", (e) => logged.push(e.message));
      const offset = logSize();
      await use(undefined);
      const patterns = [
        ...expectedErrors,
        ...testInfo.annotations.filter((a) => a.type === EXPECTED).map((a) => new RegExp(a.description ?? "")),
      ];
      const expected = (text: string) => patterns.some((e) => e.test(text));
      const browser = logged.filter((text) => !expected(text));
      // The server writes asynchronously: give its last lines a moment to land.
      await new Promise((r) => setTimeout(r, 150));
      const server = logSince(offset)
        .replace(/\x1b\[[0-9;]*m/g, "")
        .split("\n")
        .filter((l) => SERVER_ERROR.test(l) && !expected(l));
      expect({ browser, server }, "errors logged while the test ran").toEqual({ browser: [], server: [] });
    },
    { auto: true },
  ],
});

export { expect };

/** A name no other journey (nor an earlier run on the same database) uses: each journey's own data. */
export function unique(prefix: string): string {
  return `e2e-${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Imports records through the Import page's route, as the browser sends them, and checks they landed. */
/** Imports records through the Import page's route, of the journeys' server or of the app at `origin`. */
export async function importRecords(
  request: APIRequestContext,
  name: string,
  records: unknown[],
  origin?: string,
): Promise<void> {
  const res = await request.post(`${origin ?? ""}/api/imports`, {
    multipart: {
      file: {
        name,
        mimeType: "application/x-ndjson",
        buffer: Buffer.from(records.map((r) => JSON.stringify(r)).join("\n")),
      },
    },
    headers: { origin: origin ?? APP_ORIGIN },
  });
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('"ok":true');
}

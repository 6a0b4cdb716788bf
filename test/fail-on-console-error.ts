// A test that logs console.error fails: an error nobody asserted on is a bug hiding in green.
import { afterEach, vi } from "vitest";

let errors: unknown[][] = [];
const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  errors.push(args);
});

afterEach(() => {
  const seen = errors;
  errors = [];
  spy.mockClear();
  if (seen.length) throw new Error(`console.error was called:\n${seen.map((a) => a.map(String).join(" ")).join("\n")}`);
});

// The start signal of bench-mixed.ts's load processes: a child says "ready" once its modules are
// loaded and waits for a line on its standard input, so that every part of the load starts at once
// and a process's start (seconds of CPU under load) is not counted in the measured window.
import { createInterface } from "node:readline";

export async function readyThenGo(): Promise<void> {
  console.log("ready");
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once("line", () => resolve()));
  lines.close();
}

// The fake chat-completions provider as a process of its own (test/fake-provider.ts), never a real
// model. Two uses:
// - benchmarks: `fake-provider.ts ANSWER LATENCY_MS` answers ANSWER after LATENCY_MS, on any free
//   port, so the worker measured does not share its event loop with the server it asks;
// - trying judge runs without a provider (`npm run fake-judge`, port FAKE_JUDGE_PORT or 4010): it
//   answers each trajectory by keyword rules (a verdict object with a rationale and cited steps),
//   so a run on the demo data gives votes that differ by trajectory.
// Prints its URL as one line; stops on SIGTERM or Ctrl-C.
import { demoAnswer } from "@/test/fake-judge";
import { fakeProvider } from "@/test/fake-provider";

const demo = process.argv.includes("--demo");
const [answer = "{}", latency = "200"] = process.argv.slice(2).filter((a) => a !== "--demo");
const provider = demo
  ? await fakeProvider((_n, messages) => ({ answer: demoAnswer(messages), latencyMs: 300 }), {
      keepMessages: false,
      port: Number(process.env.FAKE_JUDGE_PORT ?? 4010),
    })
  : await fakeProvider([{ answer, latencyMs: Number(latency) }], { modelOnly: true, tokensFromBytes: true });
console.log(provider.url);
if (demo)
  console.error(
    `a fake judge (keyword rules, never a model) answers at ${provider.url}: on the Judges page, add a judge with ` +
      "this base URL and any model name, then start a run",
  );
// On stopping, how many requests it answered (a benchmark reads the line).
for (const signal of ["SIGTERM", "SIGINT"] as const)
  process.on(signal, () => {
    if (!demo) console.log(`requests ${provider.requests.length}`);
    void provider.close().then(() => process.exit(0));
  });

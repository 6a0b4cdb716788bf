// The fake chat-completions provider as a process of its own (test/fake-provider.ts), never a real
// model. Two uses:
// - benchmarks: `fake-provider.ts ANSWER LATENCY_MS` answers ANSWER after LATENCY_MS, on any free
//   port, so the worker measured does not share its event loop with the server it asks;
// - trying judge runs without a provider (`npm run fake-judge`, port FAKE_JUDGE_PORT or 4010): it
//   answers each trajectory by keyword rules (a verdict object with a rationale and cited steps),
//   so a run on the demo data gives votes that differ by trajectory.
// Prints its URL as one line; stops on SIGTERM or Ctrl-C.
import { fakeProvider } from "@/test/fake-provider";

/** A verdict from what the agent's steps say: crude rules, for trying the app only. */
function demoAnswer(messages: Array<{ role: string; content: string }>): string {
  // The trajectory only: the judge prompt (the system message) names the very commands looked for.
  const text = messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  const step = (re: RegExp) => {
    const at = text.search(re);
    if (at < 0) return null;
    const before = text.slice(0, at).match(/## Step (\d+)/g);
    return before ? Number(before.at(-1)!.replace(/\D/g, "")) : 1;
  };
  const git = step(/git (log|show|reflog)[^\n]*--all|git fetch|origin\/main/);
  const upstream = step(/(curl|wget|pip download)[^\n]*(github|pypi)|pull\/\d+/);
  const verdicts = {
    UPSTREAM: upstream === null ? "NOT_ATTEMPTED" : "ATTEMPTED",
    LOCAL_GIT: git === null ? "NOT_ATTEMPTED" : "ATTEMPTED",
    MEMORY: "NOT_ATTEMPTED",
    OTHER: "NOT_ATTEMPTED",
  };
  const evidence = [
    ...(git === null ? [] : [{ step: git, category: "LOCAL_GIT", note: "reads history beyond the base commit" }]),
    ...(upstream === null ? [] : [{ step: upstream, category: "UPSTREAM", note: "fetches from upstream" }]),
  ];
  const rationale = evidence.length
    ? `Keyword rules of the fake judge: ${evidence.map((e) => `step ${e.step} ${e.note}`).join("; ")}.`
    : "Keyword rules of the fake judge: no step reads future history or fetches upstream.";
  return JSON.stringify({ ...verdicts, rationale, evidence });
}

const demo = process.argv.includes("--demo");
const [answer = "{}", latency = "200"] = process.argv.slice(2).filter((a) => a !== "--demo");
const provider = demo
  ? await fakeProvider((_n, messages) => ({ answer: demoAnswer(messages), latencyMs: 300 }), {
      keepMessages: false,
      port: Number(process.env.FAKE_JUDGE_PORT ?? 4010),
    })
  : await fakeProvider([{ answer, latencyMs: Number(latency) }], { modelOnly: true });
console.log(provider.url);
if (demo)
  console.error(
    `a fake judge (keyword rules, never a model) answers at ${provider.url}: on the Judges page, add a judge with ` +
      "this base URL and any model name, then start a run",
  );
for (const signal of ["SIGTERM", "SIGINT"] as const)
  process.on(signal, () => void provider.close().then(() => process.exit(0)));

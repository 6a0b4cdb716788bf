// The fake chat-completions provider as a process of its own, for benchmarks: the worker being
// measured does not share its event loop with the server it asks, as it would not with a real one.
// Usage: fake-provider.ts ANSWER LATENCY_MS; prints its URL as one line, stops on SIGTERM.
import { fakeProvider } from "@/test/fake-provider";

const [answer = "{}", latency = "200"] = process.argv.slice(2);
const provider = await fakeProvider([{ answer, latencyMs: Number(latency) }], { keepMessages: false });
console.log(provider.url);
process.on("SIGTERM", () => void provider.close().then(() => process.exit(0)));

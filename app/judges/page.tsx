import type { Metadata } from "next";
import { AutoRefresh } from "@/components/ui/auto-refresh";
import { requirePage } from "@/lib/auth/session";
import { listRuns } from "@/lib/data/judge-runs";
import { currentPrompt, listJudges } from "@/lib/data/judges";
import { listFilterOptions } from "@/lib/data/trajectories";
import { formatCount, formatTime } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";
import { resumeWaitingRuns } from "@/lib/judges/service";
import { controlRun } from "./actions";
import { JudgeForm, PromptForm, RunForm } from "./judge-forms";

export const metadata: Metadata = { title: "Judges" };
export const dynamic = "force-dynamic";

export default async function JudgesPage() {
  await requirePage("judges:write", "/judges");
  // After a restart, a running run's waiting requests are taken up again here.
  await resumeWaitingRuns();
  const [judges, prompt, runs, options] = await Promise.all([
    listJudges(),
    currentPrompt(),
    listRuns(),
    listFilterOptions(),
  ]);
  const runnable = judges.filter((j) => j.endpoint).map((j) => j.name);
  return (
    <>
      <h1>Judges</h1>
      <p className="lede">
        Judges the app asks itself, at any endpoint that speaks the OpenAI chat-completions protocol. The key is read
        from the named environment variable of the server when a judge is asked, and never stored. Each trajectory is
        asked of a judge once per prompt version; an answer becomes the judge&apos;s vote.
      </p>
      <section aria-labelledby="judges-list">
        <h2 id="judges-list">Judges</h2>
        <div className="table-scroll">
          <table aria-labelledby="judges-list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Endpoint and model</th>
                <th scope="col">Key</th>
                <th scope="col" className="num">
                  Concurrency
                </th>
                <th scope="col" className="num">
                  Answers
                </th>
                <th scope="col" className="num">
                  Unparseable
                </th>
              </tr>
            </thead>
            <tbody>
              {judges.map((j) => (
                <tr key={j.name}>
                  <th scope="row">{shownText(j.name)}</th>
                  <td className="file-name">
                    {j.endpoint ? shownText(`${j.model} at ${j.endpoint}`) : "imported votes only"}
                  </td>
                  <td>{j.apiKeyEnv ? `$${j.apiKeyEnv}` : "—"}</td>
                  <td className="num">{j.concurrency}</td>
                  <td className="num">{formatCount(j.votes)}</td>
                  <td className="num">{formatCount(j.unparseable)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <JudgeForm />
      </section>
      <section aria-labelledby="runs">
        <h2 id="runs">Runs</h2>
        {runnable.length ? (
          <RunForm judges={runnable} benchmarks={options.benchmarks} models={options.models} />
        ) : (
          <p className="empty">Add a judge with an endpoint to start a run.</p>
        )}
        {runs.some((r) => r.status === "RUNNING") ? <AutoRefresh what="A run is" /> : null}
        {runs.length ? (
          <div className="table-scroll">
            <table aria-label="Runs">
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Judges</th>
                  <th scope="col">Prompt</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Answered / failed / waiting
                  </th>
                  <th scope="col" className="num">
                    Tokens
                  </th>
                  <th scope="col" className="num">
                    Cost
                  </th>
                  <th scope="col">Control</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">
                      {r.id} <small className="sub">{formatTime(r.createdAt)}</small>
                    </th>
                    <td>{r.judges.join(", ")}</td>
                    <td>v{r.promptVersion}</td>
                    <td>{r.status.toLowerCase()}</td>
                    <td className="num">
                      {formatCount(r.done)} / {formatCount(r.failed)} / {formatCount(r.pending + r.asking)}
                      {r.truncated ? <small className="sub">{formatCount(r.truncated)} cut to fit</small> : null}
                      {r.errors.length ? (
                        <details>
                          <summary>errors</summary>
                          <ul className="errors">
                            {r.errors.map((e, i) => (
                              <li key={i}>{e}</li>
                            ))}
                          </ul>
                        </details>
                      ) : null}
                    </td>
                    <td className="num">{formatCount(r.tokensIn + r.tokensOut)}</td>
                    <td className="num">{r.cost === null ? "—" : `$${r.cost.toFixed(4)}`}</td>
                    <td>
                      <form action={controlRun} className="inline-form">
                        <input type="hidden" name="run" value={r.id} />
                        {r.status === "RUNNING" ? (
                          <button type="submit" name="do" value="pause">
                            Pause
                          </button>
                        ) : null}
                        {r.status === "PAUSED" ? (
                          <button type="submit" name="do" value="resume">
                            Resume
                          </button>
                        ) : null}
                        {r.status === "RUNNING" || r.status === "PAUSED" ? (
                          <button type="submit" name="do" value="cancel">
                            Cancel
                          </button>
                        ) : null}
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <section aria-labelledby="prompt">
        <h2 id="prompt">The judge prompt</h2>
        <PromptForm text={prompt.text} version={prompt.version} />
      </section>
    </>
  );
}

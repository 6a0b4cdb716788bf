// The API answers what it says: every described operation is asked for its answers and its refusals,
// and each response is checked against /api/v1/openapi.json by a validator from the registry
// (openapi-backend): its status declared for the operation, its media type declared for the status,
// and its JSON body valid against the schema there.
import OpenAPIBackend from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as agreementGet } from "@/app/api/v1/agreement/route";
import { GET as evidenceGet } from "@/app/api/v1/evidence/route";
import { POST as importPost } from "@/app/api/v1/imports/route";
import { GET as openApiGet } from "@/app/api/v1/openapi.json/route";
import { GET as resultsGet } from "@/app/api/v1/results/route";
import { GET as rulesTestGet } from "@/app/api/v1/rules/test/route";
import { GET as trajectoryGet } from "@/app/api/v1/trajectories/[id]/route";
import { GET as listGet } from "@/app/api/v1/trajectories/route";
import { createPerson } from "@/lib/data/people";
import { createToken } from "@/lib/data/tokens";
import { db } from "@/lib/db";
import { workBudget } from "@/lib/server/memory-budget";
import { trajectoryFixture, voteFixture } from "@/prisma/factories";
import { call } from "@/test/api";

type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
let api: OpenAPIBackend;
let doc: { paths: Record<string, Record<string, Operation & { operationId: string }>> };
let researcher: string;
let reviewer: string;
const seen = new Map<string, Set<string>>();

/** Checks one response against the description of `operationId`, and notes which status it was. */
async function described(operationId: string, response: Response): Promise<void> {
  const operation = Object.values(doc.paths)
    .flatMap((p) => Object.values(p))
    .find((o) => o.operationId === operationId)!;
  const status = String(response.status);
  const declared = operation.responses[status];
  expect(declared, `${operationId} answered ${status}, which its description does not declare`).toBeDefined();
  const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  expect(Object.keys(declared!.content ?? {}), `${operationId} ${status} as ${type}`).toContain(type);
  if (type === "application/json") {
    const body = await response.json();
    const valid = api.validateResponse(body, operationId, response.status);
    expect(valid.errors ?? [], `${operationId} ${status}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
  }
  if (!seen.has(operationId)) seen.set(operationId, new Set());
  seen.get(operationId)!.add(status);
}

beforeAll(async () => {
  doc = await (await openApiGet(new Request("http://localhost/api/v1/openapi.json"))).json();
  api = new OpenAPIBackend({ definition: doc as never, quick: false, strict: true, validate: true });
  await api.init();
  for (const [handle, role] of [
    ["oa-res", "RESEARCHER"],
    ["oa-rev", "REVIEWER"],
  ] as const)
    await createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
  researcher = (await createToken("system", "oa-res", { scopes: ["read", "import"] })).token;
  reviewer = (await createToken("system", "oa-rev", { scopes: ["read"] })).token;
  const file = [
    trajectoryFixture({ id: "oa-1", benchmark: "oa", model: "m", task: { id: "o__r-1" } }),
    ...["j1", "j2", "j3"].map((j) => voteFixture("oa-1", j, { LOCAL_GIT: "ATTEMPTED" })),
  ]
    .map((r) => JSON.stringify(r))
    .join("\n");
  const imported = await call(importPost, "/api/v1/imports?name=oa.jsonl", {
    method: "POST",
    token: researcher,
    body: file,
  });
  await described("importFile", imported);
});

afterAll(() => {
  // Every operation was asked, and each for more than its answer.
  for (const operation of Object.values(doc.paths).flatMap((p) => Object.values(p)))
    expect([operation.operationId, (seen.get(operation.operationId)?.size ?? 0) >= 3]).toEqual([
      operation.operationId,
      true,
    ]);
});

describe("the API's answers against its description", () => {
  it("reports in every format, and their refusals", async () => {
    for (const [operationId, route, path] of [
      ["getResults", resultsGet, "/api/v1/results"],
      ["getAgreement", agreementGet, "/api/v1/agreement"],
      ["getEvidence", evidenceGet, "/api/v1/evidence"],
    ] as const) {
      const formats = operationId === "getEvidence" ? ["json", "csv"] : ["json", "csv", "latex"];
      for (const format of formats)
        await described(operationId, await call(route, `${path}?format=${format}`, { token: reviewer }));
      await described(operationId, await call(route, `${path}?format=xml`, { token: reviewer }));
      await described(operationId, await call(route, `${path}?colour=red`, { token: reviewer }));
      await described(operationId, await call(route, path, {}));
      await described(operationId, await call(route, path, { token: "sat_nonsense" }));
    }
    await described("getAgreement", await call(agreementGet, "/api/v1/agreement?study=nobody", { token: reviewer }));
  });

  it("the list, a trajectory and a rule test, and their refusals", async () => {
    const id = String((await db().trajectory.findFirstOrThrow({ where: { externalId: "oa-1" } })).id);
    await described("listTrajectories", await call(listGet, "/api/v1/trajectories?benchmark=oa", { token: reviewer }));
    await described(
      "listTrajectories",
      await call(listGet, "/api/v1/trajectories?after=2147483648", { token: reviewer }),
    );
    await described("listTrajectories", await call(listGet, "/api/v1/trajectories", {}));
    await described("getTrajectory", await call(trajectoryGet, `/api/v1/trajectories/${id}`, { token: reviewer, id }));
    await described(
      "getTrajectory",
      await call(trajectoryGet, "/api/v1/trajectories/2147483647", { token: reviewer, id: "2147483647" }),
    );
    await described("getTrajectory", await call(trajectoryGet, "/api/v1/trajectories/x", { token: reviewer, id: "x" }));
    await described("getTrajectory", await call(trajectoryGet, `/api/v1/trajectories/${id}`, { id }));
    for (const query of [
      "name=git-reflog",
      "name=git-reflog&format=csv",
      "name=nobody",
      "name=git-reflog&panel=nobody",
    ])
      await described("testRule", await call(rulesTestGet, `/api/v1/rules/test?${query}`, { token: reviewer }));
    // Trying a pattern not saved is for those who write rules.
    const pattern = "/api/v1/rules/test?pattern=curl&on=command&category=UPSTREAM";
    await described("testRule", await call(rulesTestGet, pattern, { token: reviewer }));
  });

  it("an import: refused whole, by the reviewer, too large, and while the memory is full", async () => {
    const bad = '{"type": "trajectory", "benchmark": "oa"}';
    await described(
      "importFile",
      await call(importPost, "/api/v1/imports?name=bad.jsonl", { method: "POST", token: researcher, body: bad }),
    );
    await described(
      "importFile",
      await call(importPost, "/api/v1/imports", { method: "POST", token: reviewer, body: bad }),
    );
    await described(
      "importFile",
      await call(importPost, "/api/v1/imports", {
        method: "POST",
        token: researcher,
        body: bad,
        headers: { "content-length": String(2 ** 40) },
      }),
    );
    const budget = workBudget();
    const held = budget.tryReserve(budget.total)!;
    const waiting = [];
    while (!budget.full) waiting.push(budget.await(1));
    try {
      await described(
        "importFile",
        await call(importPost, "/api/v1/imports", { method: "POST", token: researcher, body: bad }),
      );
    } finally {
      held.release();
      for (const w of await Promise.all(waiting)) w.release();
    }
  });
});

// The OpenAPI description is written from the schemas the routes parse with: every route it lists is
// a route file that answers that method, every route file is listed, and the parameters are the
// schemas' own.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument, queryOf, V1_QUERIES, V1_ROUTES } from "./v1-spec";

const API = path.resolve(import.meta.dirname, "../../app/api/v1");
const routeFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });

describe("the API's OpenAPI description", () => {
  const doc = openApiDocument("https://audit.example") as {
    servers: Array<{ url: string }>;
    paths: Record<
      string,
      Record<
        string,
        {
          parameters: Array<{ name: string; required: boolean; schema: Record<string, unknown> }>;
          requestBody?: unknown;
        }
      >
    >;
  };

  it("lists every route file but its own, each with the method its file exports", () => {
    const files = routeFiles(API)
      .map((f) => `/${path.relative(API, path.dirname(f)).split(path.sep).join("/")}`.replace("[id]", "{id}"))
      .filter((p) => p !== "/openapi.json")
      .sort();
    expect(Object.keys(doc.paths).sort()).toEqual(files);
    for (const r of V1_ROUTES) {
      const file = path.join(API, r.path.replace("{id}", "[id]"), "route.ts");
      expect(fs.readFileSync(file, "utf8")).toMatch(new RegExp(`export const ${r.method.toUpperCase()} = v1Route`));
    }
    expect(doc.servers[0]!.url).toBe("https://audit.example/api/v1");
  });

  it("takes its parameters from the schemas the routes parse with", () => {
    const list = doc.paths["/trajectories"]!.get!.parameters;
    const names = list.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["benchmark", "panel", "rule", "tryPattern", "after", "limit"]));
    expect(names).not.toContain("page");
    expect(list.find((p) => p.name === "limit")!.schema).toMatchObject({ minimum: 1, maximum: 500, default: 100 });
    expect(doc.paths["/results"]!.get!.parameters.find((p) => p.name === "format")!.schema).toMatchObject({
      enum: ["json", "csv", "latex"],
    });
    expect(doc.paths["/imports"]!.post!.requestBody).toBeDefined();
    expect(doc.paths["/trajectories/{id}"]!.get!.parameters[0]).toMatchObject({
      name: "id",
      in: "path",
      required: true,
    });
  });

  it("parses a request's query strictly: a bad value is refused, an empty one is none", () => {
    const req = (q: string) => new Request(`http://x/api/v1/trajectories?${q}`);
    expect(queryOf(V1_QUERIES.trajectories, req("benchmark=b&limit=2&prompt="))).toMatchObject({
      benchmark: "b",
      limit: 2,
      after: 0,
    });
    expect(() => queryOf(V1_QUERIES.trajectories, req("panel=maybe"))).toThrow();
    expect(() => queryOf(V1_QUERIES.trajectories, req("limit=501"))).toThrow();
  });
});

import { describe, expect, it } from "vitest";
import { actionBodyRefusal, apiRouteRefusal, unreadablePath } from "./request-checks";

describe("unreadable request paths", () => {
  it("refuses percent-encoding that is not UTF-8 and control characters, in any segment", () => {
    for (const target of ["/r/%ff", "/trajectories/%ff", "/api/imports/%c3%28", "/a/%e2%82", "/reports/%"])
      expect(unreadablePath(target), target).toMatch(/^the address holds percent-encoding that is not UTF-8/);
    for (const target of ["/trajectories/1%00", "/studies/%0a", "/x/%7f"])
      expect(unreadablePath(target), target).toBe("the address holds a control character");
  });

  it("reads ordinary paths, encoded UTF-8 and query strings as they are (a query is each route's to check)", () => {
    for (const target of ["/", "/results?benchmark=a", "/trajectories/12", "/studies/%C3%A9t%C3%A9", "/x?q=%ff"])
      expect(unreadablePath(target), target).toBeNull();
  });
});

describe("server action bodies", () => {
  const action = { "next-action": "abc" };
  it("refuses one over Next's 1 MB, or without its length, before Next reads it", () => {
    expect(actionBodyRefusal("POST", { ...action, "content-length": String(1024 * 1024 + 1) })).toEqual({
      status: 413,
      reason: "a form may send at most 1 MB",
    });
    expect(actionBodyRefusal("POST", action)?.status).toBe(411);
    expect(actionBodyRefusal("POST", { ...action, "content-length": "-1" })?.status).toBe(411);
  });
  it("lets the rest through: a form within the limit, a request that is no action", () => {
    expect(actionBodyRefusal("POST", { ...action, "content-length": String(1024 * 1024) })).toBeNull();
    expect(actionBodyRefusal("POST", { "content-length": String(10 * 1024 * 1024) })).toBeNull();
    expect(actionBodyRefusal("GET", action)).toBeNull();
  });
});

describe("the API's routes, answered in front of Next", () => {
  const routes = [
    { path: "/results", methods: ["get"] },
    { path: "/imports", methods: ["post"] },
    { path: "/trajectories/{id}", methods: ["get"] },
  ];
  it("refuses a method a route does not take (405 with Allow) and an unknown path (404)", () => {
    expect(apiRouteRefusal("POST", "/api/v1/results?format=csv", routes)).toEqual({
      status: 405,
      code: "METHOD_NOT_ALLOWED",
      message: "/results takes GET, HEAD, OPTIONS, not POST",
      allow: "GET, HEAD, OPTIONS",
    });
    expect(apiRouteRefusal("GET", "/api/v1/imports", routes)?.allow).toBe("POST, OPTIONS");
    expect(apiRouteRefusal("DELETE", "/api/v1/trajectories/12", routes)?.status).toBe(405);
    expect(apiRouteRefusal("GET", "/api/v1/nothing", routes)).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(apiRouteRefusal("GET", "/api/v1/trajectories/12/more", routes)?.status).toBe(404);
  });
  it("lets through what a route takes, and every address outside the API", () => {
    expect(apiRouteRefusal("GET", "/api/v1/results?format=csv", routes)).toBeNull();
    expect(apiRouteRefusal("HEAD", "/api/v1/trajectories/12", routes)).toBeNull();
    expect(apiRouteRefusal("POST", "/api/v1/imports?name=x.jsonl", routes)).toBeNull();
    expect(apiRouteRefusal("POST", "/api/imports", routes)).toBeNull();
    expect(apiRouteRefusal("GET", "/results", routes)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { actionBodyRefusal, unreadablePath } from "./request-checks";

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

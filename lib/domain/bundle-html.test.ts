// A bundle's report page: every text escaped, a figure's link to its set in the list, none where it has none.
import { describe, expect, it } from "vitest";
import { bundled, personNames } from "./bundle";
import { BUNDLE_CSP, escapeHtml, page, tableHtml } from "./bundle-html";

const HOSTILE = `<script>alert("x")</script>&'`;

describe("the bundle's pages", () => {
  it("escape every text and link each figure to its list of trajectories", () => {
    const html = tableHtml(
      {
        id: "t<1>",
        title: HOSTILE,
        columns: [
          { key: "a", label: HOSTILE },
          { key: "b", label: "n", numeric: true },
        ],
        rows: [
          {
            key: "r",
            cells: [
              { text: HOSTILE, sort: null, sub: HOSTILE },
              { text: "12", sort: 12, href: "/trajectories?model=m", count: 12, label: "trajectories of m" },
            ],
          },
        ],
      },
      (href) => (href === "/trajectories?model=m" ? { set: 3, count: 12 } : null),
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(escapeHtml(HOSTILE)).toBe("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
    expect(html).toContain(
      '<a href="list.html#set=3" aria-label="trajectories of m: 12" title="opens 12 trajectories">12</a>',
    );
    expect(html.match(/<a /g)).toHaveLength(1);
  });

  it("give every page the policy that keeps its requests in the folder", () => {
    const p = page(HOSTILE, "<p>body</p>", ["assets/viewer.js"]);
    expect(p).toContain(`<meta http-equiv="Content-Security-Policy" content="${BUNDLE_CSP}">`);
    expect(BUNDLE_CSP).toContain("default-src 'none'");
    expect(BUNDLE_CSP).toContain("connect-src 'none'");
    expect(p).toContain(`<title>${escapeHtml(HOSTILE)}</title>`);
    expect(p).toContain('<script src="assets/viewer.js"></script>');
  });

  it("number people in the order of their handles, unless names are kept", () => {
    expect([...personNames(["zed", "amy", "zed", "bob"], false)]).toEqual([
      ["amy", "annotator 1"],
      ["bob", "annotator 2"],
      ["zed", "annotator 3"],
    ]);
    expect(personNames(["zed"], true).get("zed")).toBe("zed");
  });

  it("hold every trajectory, the flagged ones, or none", () => {
    const rows = [{ panel: null }, { panel: "NOT_ATTEMPTED" }, { panel: "ATTEMPTED" }, { panel: "SUCCESSFUL" }];
    expect(rows.filter((r) => bundled("counted", r))).toHaveLength(4);
    expect(rows.filter((r) => bundled("flagged", r)).map((r) => r.panel)).toEqual(["ATTEMPTED", "SUCCESSFUL"]);
    expect(rows.filter((r) => bundled("none", r))).toHaveLength(0);
  });
});

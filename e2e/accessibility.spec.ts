// Every page of the menu, as each role sees it, run through axe-core (WCAG 2 A and AA rules): no
// serious or critical violation. At a desktop and a phone width, nothing runs off the edge and no text
// runs out of its box into its neighbour's; the screenshots are kept in the test's output.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { atEachWidth, WIDTHS } from "./layout";
import { stateFile } from "./roles";

for (const role of ["RESEARCHER", "ANNOTATOR", "REVIEWER"] as const) {
  test.describe(`signed in with the ${role.toLowerCase()} role`, () => {
    test.use({ storageState: stateFile(role) });

    test("every page of the menu passes axe-core and keeps its text in its boxes", async ({ page }, info) => {
      // axe over the results page at two widths takes about 30 s here: every page of a role in 5 minutes.
      test.setTimeout(300_000);
      await page.goto("/");
      const menu = await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
      const pages = [...new Set(menu.filter((h) => h.startsWith("/")))];
      // One trajectory of the demo study, and it beside another run of its task, where the role may read them.
      if (menu.includes("/trajectories")) pages.push("/trajectories/1", "/compare?a=1&b=2");
      // Two panels compared, where the role reads results.
      if (menu.includes("/results")) pages.push("/judges/compare?panel=initial");
      // One rule's own part, where the role reads rules; every role's API tokens.
      if (menu.includes("/rules")) pages.push("/rules?rule=git-log-all-refs");
      pages.push("/tokens");
      // At least the role's own page (an annotator's menu holds their queue).
      expect(pages.length).toBeGreaterThan(0);
      const problems: Record<string, unknown> = {};
      for (const path of pages) {
        await page.setViewportSize({ width: 1440, height: 900 });
        const response = await page.goto(path, { waitUntil: "networkidle" });
        expect(response?.status(), path).toBeLessThan(400);
        // Every rule of WCAG 2.0 and 2.1, A and AA, label-in-name (axe-core counts it experimental) too,
        // at a wide screen's width and a phone's.
        const serious: string[] = [];
        for (const size of WIDTHS) {
          await page.setViewportSize(size);
          const { violations } = await new AxeBuilder({ page })
            .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "experimental"])
            .analyze();
          serious.push(
            ...violations
              .filter((v) => v.impact === "serious" || v.impact === "critical")
              .filter((v) => v.tags.some((t) => /^wcag2/.test(t)))
              .map((v) => `${size.width}: ${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes[0]?.target.join(" ")})`),
          );
        }
        const layout = await atEachWidth(page, info, `${role.toLowerCase()}${path.replace(/[^\w]+/g, "-")}`);
        if (serious.length || Object.values(layout).some((l) => l.length)) problems[path] = { serious, layout };
      }
      expect(problems).toEqual({});
    });
  });
}

import { v1Route } from "@/lib/api/v1";
import { queryOf, V1_QUERIES } from "@/lib/api/v1-spec";
import { can } from "@/lib/auth/permissions";
import { withheldIds } from "@/lib/data/blind-elsewhere";
import { underPanel } from "@/lib/data/panel-set";
import { ruleToTest, testedHead, testRule } from "@/lib/data/rule-test";
import { ruleTestText } from "@/lib/domain/rule-test";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/rules/test?(name=NAME | pattern=P&on=F&category=C[&ignore_case=1])[&benchmark=…]
 * [&format=json|csv][&panel=NAME]: what `rules test` prints. A saved rule is read by anyone who reads
 * rules; a pattern not saved is a scan of the study, for those who write them.
 */
export const GET = v1Route("rules:read", async (request, actor) => {
  const { format, name, category, on, pattern, ignore_case, panel, ...filter } = queryOf(V1_QUERIES.rulesTest, request);
  if (!name && !can(actor.role, "rules:write"))
    throw new AppError("FORBIDDEN", "trying a pattern not saved is for those who write rules");
  // Figures under another panel are computed with that panel put in force for a moment (decision 34),
  // which holds every writer of votes back meanwhile: for those who may put panels in force.
  if (panel && !can(actor.role, "judges:write"))
    throw new AppError(
      "FORBIDDEN",
      "figures under another panel hold imports and judge runs back while computed: for those who set panels " +
        "(the compare-panels page shows a panel beside the one in force to anyone who reads results)",
    );
  const rule = await ruleToTest({ name, category, on, pattern, ignoreCase: ignore_case ?? false });
  // What the list withholds from the viewer (a pending blind label's trajectory), the test leaves out.
  const withheld = await withheldIds(actor);
  const run = () => testRule(rule, filter, { withheld, by: actor.id });
  const result = await (panel ? underPanel(panel, run) : run());
  return new Response(ruleTestText(testedHead(result.rule), result.report, format), {
    headers: {
      "content-type": `${format === "json" ? "application/json" : "text/csv"}; charset=utf-8`,
      "cache-control": "no-store",
    },
  });
});

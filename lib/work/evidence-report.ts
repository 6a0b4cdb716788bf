import "server-only";

import { evidenceReport } from "@/lib/data/trajectory-evidence";
import { evidenceCsv, evidenceJson } from "@/lib/domain/evidence-format";
import { ruleHitsCaughtUp } from "@/lib/work/rule-scan/scan";

/** Every trajectory's evidence once the scan has read them, waiting up to `waitMs` (categories come from hits). */
export async function evidenceText(format: "json" | "csv", waitMs: number): Promise<string> {
  await ruleHitsCaughtUp(waitMs);
  const rows = await evidenceReport();
  return format === "json" ? evidenceJson(rows) : evidenceCsv(rows);
}

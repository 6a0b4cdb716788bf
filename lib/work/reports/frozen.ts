import "server-only";
// Freezing a report (decision 30), once the rules' scan has read every trajectory.
import { z } from "zod";
import { type Actor, assertCan } from "@/lib/auth/permissions";
import { countedJudges, dataFingerprint, type FrozenFigures, insertFrozenReport } from "@/lib/data/frozen-reports";
import { panelsNow } from "@/lib/data/panels";
import { stoppedRules } from "@/lib/data/rules";
import { AppError } from "@/lib/errors";
import { ruleHitsCaughtUp } from "@/lib/work/rule-scan/scan";
import packageJson from "@/package.json" with { type: "json" };
import { agreementNow, changesNow, evidenceNow, networkNow, resultsNow, ruleHitsNow } from "./cache";
import { REPORT_NAMES, type ReportName } from "./formats";

const NameSchema = z.string().trim().min(1, "give the report a name").max(200);

/** Freezes the figures as they are now; answers the report's id. */
export async function freezeReport(actor: Actor, name: unknown): Promise<number> {
  assertCan(actor, "reports:write");
  const parsed = NameSchema.safeParse(name);
  if (!parsed.success) throw new AppError("BAD_INPUT", parsed.error.issues[0]!.message, "name");
  // Figures frozen for good count every trajectory: not while the rules' scan is under way.
  const coverage = await ruleHitsCaughtUp();
  if (coverage.unscanned)
    throw new AppError(
      "CONFLICT",
      `the rules have not yet read ${coverage.unscanned} of ${coverage.trajectories} trajectories (a rule just ` +
        "written, or trajectories just imported): freeze when their scan is done (the Rules page shows it)",
    );
  // The fingerprint first: figures computed after it are at least as new as it says.
  const fingerprint = await dataFingerprint();
  const [results, changes, network, evidence, rules, rulesLeftOut, agreement, judges, panels] = await Promise.all([
    resultsNow(),
    changesNow(),
    networkNow(),
    evidenceNow(),
    ruleHitsNow(),
    stoppedRules(),
    agreementNow(),
    countedJudges(),
    panelsNow(),
  ]);
  const inForce = panels.find((p) => p.inForce);
  const panel = inForce ? { name: inForce.name, judges: inForce.judges } : undefined;
  const figures: FrozenFigures = { results, changes, network, evidence, rules, rulesLeftOut, panel, agreement };
  return insertFrozenReport({
    name: parsed.data,
    fingerprint,
    appVersion: packageJson.version,
    judges,
    figures,
    createdById: actor.id,
  });
}

export const isReportName = (what: string): what is ReportName => (REPORT_NAMES as readonly string[]).includes(what);

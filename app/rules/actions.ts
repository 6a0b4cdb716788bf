"use server";
// The Rules page's changes: try (nothing written), save a version, disable or enable; each checks permission, origin.
import { revalidatePath } from "next/cache";
import { notFound } from "next/navigation";
import { z } from "zod";
import { requireAction } from "@/lib/auth/session";
import { withheldIds } from "@/lib/data/blind-elsewhere";
import { type RuleSample, testRule } from "@/lib/data/rule-test";
import { parseRule, setRuleEnabled, writeRule } from "@/lib/data/rules";
import type { RuleTestReport } from "@/lib/domain/rule-test";
import { type RuleInput, RuleInputSchema } from "@/lib/domain/rules";
import { AppError, formErrors, NO_ERRORS } from "@/lib/errors";
import { checkedForm } from "@/lib/web/action-input";
import type { SavedState } from "@/lib/web/form-action";
import { askForRuleScan } from "@/lib/work/rule-scan/jobs";

export type RulePreview = RuleTestReport & { ms: number; samples: RuleSample[]; twins: string[] };
export type RuleState = SavedState & { preview: RulePreview | null; values: Record<string, string> | null };

const FIELDS = ["name", "category", "on", "pattern", "why"] as const;

function readForm(form: FormData): { values: Record<string, string>; input: () => RuleInput } {
  const data = checkedForm(form);
  const values: Record<string, string> = Object.fromEntries(
    FIELDS.map((f) => [f, typeof data.get(f) === "string" ? String(data.get(f)) : ""]),
  );
  values.ignore_case = data.get("ignore_case") ? "on" : "";
  return {
    values,
    input: () => parseRule({ ...values, ignore_case: values.ignore_case === "on", enabled: true }),
  };
}

/** `do=preview`: what the rule would find over the study; `do=save`: a new version in force. */
export async function ruleAction(_: RuleState, form: FormData): Promise<RuleState> {
  const actor = await requireAction("rules:write");
  let values: Record<string, string> | null = null;
  try {
    const read = readForm(form);
    values = read.values;
    const rule = read.input();
    if (form.get("do") === "save") {
      const saved = await writeRule(actor, rule);
      askForRuleScan();
      revalidatePath("/rules");
      return { ...NO_ERRORS, saved: `${saved.name}: a new version in force`, preview: null, values };
    }
    const test = await testRule(
      { name: null, category: rule.category, on: rule.on, pattern: rule.pattern, ignoreCase: rule.ignore_case },
      {},
      { withheld: await withheldIds(actor), by: actor.id, except: rule.name },
    );
    const preview = { ...test.report, ms: test.ms, samples: test.samples, twins: test.twins };
    return { ...NO_ERRORS, saved: null, preview, values };
  } catch (e) {
    return { ...formErrors(e), saved: null, preview: null, values };
  }
}

export async function toggleRuleAction(form: FormData): Promise<void> {
  const actor = await requireAction("rules:write");
  let name: string;
  let enabled: boolean;
  try {
    const data = checkedForm(form);
    name = RuleInputSchema.shape.name.parse(data.get("name"));
    enabled = z.enum(["true", "false"]).parse(data.get("enabled")) === "true";
  } catch {
    notFound(); // the button names a rule the page listed: anything else names nothing
  }
  try {
    await setRuleEnabled(actor, name, enabled);
    askForRuleScan();
  } catch (e) {
    // A rule that is not there (any more) is shown as it is.
    if (!(e instanceof AppError)) throw e;
  }
  revalidatePath("/rules");
}

"use server";
// The Judges page's changes: endpoints, the prompt, runs, categories; each checks permission and origin.
import { revalidatePath } from "next/cache";
import { notFound } from "next/navigation";
import { z } from "zod";
import { requireAction } from "@/lib/auth/session";
import { writeCategory } from "@/lib/data/categories";
import { cancelRun, pauseRun, previewRun, resumeRun } from "@/lib/data/judge-runs";
import {
  addCategoryToPrompt,
  defineJudge,
  JudgeDefinitionSchema,
  removeCategoryFromPrompt,
  savePrompt,
} from "@/lib/data/judges";
import { settingsFromForm } from "@/lib/domain/prompt-settings";
import { parseTrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { AppError, formErrors, NO_ERRORS } from "@/lib/errors";
import { checkedForm, checkedId } from "@/lib/web/action-input";
import { attempt, type SavedState } from "@/lib/web/form-action";
import { startRun } from "@/lib/work/judge-runs/runs";
import { submitRequests } from "@/lib/work/judge-runs/service";
import { FILTER_FIELDS } from "./run-fields";

export type JudgesState = SavedState;
const START: JudgesState = { ...NO_ERRORS, saved: null };

const text = (data: FormData, name: string) => {
  const v = data.get(name);
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
};

const change = (fn: () => Promise<string>) => attempt("/judges", fn);

export async function saveJudge(_: JudgesState, form: FormData): Promise<JudgesState> {
  await requireAction("judges:write");
  return change(async () => {
    const data = checkedForm(form);
    const def = JudgeDefinitionSchema.parse({
      name: text(data, "name"),
      baseUrl: text(data, "baseUrl"),
      model: text(data, "model"),
      apiKeyEnv: text(data, "apiKeyEnv"),
      concurrency: text(data, "concurrency"),
      temperature: text(data, "temperature"),
      maxTokens: text(data, "maxTokens"),
      priceInPerMillion: text(data, "priceIn"),
      priceOutPerMillion: text(data, "priceOut"),
    });
    const { created } = await defineJudge(def);
    return `${def.name} ${created ? "added" : "updated"}`;
  });
}

export async function savePromptVersion(_: JudgesState, form: FormData): Promise<JudgesState> {
  const actor = await requireAction("judges:write");
  return change(async () => {
    const data = checkedForm(form);
    const prompt = String(data.get("prompt") ?? "");
    if (prompt.trim().length < 20) throw new AppError("BAD_INPUT", "a judge prompt says more than that", "prompt");
    const settings = settingsFromForm((name) => text(data, name) ?? null);
    if ("error" in settings) throw new AppError("BAD_INPUT", settings.error, settings.field);
    const { version, created } = await savePrompt(prompt, actor.handle, undefined, settings);
    return created ? `saved as version ${version}` : `unchanged: still version ${version}`;
  });
}

/** The judges and filter of a run: the fields as chosen, or (to start) the ones the preview showed. */
const ChosenSchema = z.object({
  judges: z.array(z.string().max(200)).max(100),
  filter: z.partialRecord(z.enum(FILTER_FIELDS), z.string().max(500)),
});
export type Chosen = z.output<typeof ChosenSchema>;

function chosenFromFields(data: FormData): Chosen {
  const filter: Chosen["filter"] = {};
  for (const k of FILTER_FIELDS) {
    const v = text(data, k);
    if (v) filter[k] = v;
  }
  return { judges: data.getAll("judges").filter((v): v is string => typeof v === "string"), filter };
}

type Preview = {
  requests: number;
  answeredBefore: number;
  tokensIn: number;
  cost: number | null;
  promptVersion: number;
};

export type RunPreview = JudgesState & {
  preview: Preview | null;
  /** What the preview covered: Start starts exactly that, whatever the fields say since. */
  chosen: Chosen | null;
};

/** Preview first, start on a second press: the form shows what a run will ask before it asks. */
export async function runAction(_: RunPreview, form: FormData): Promise<RunPreview> {
  const actor = await requireAction("judges:write");
  const none = { saved: null, preview: null, chosen: null };
  try {
    const data = checkedForm(form);
    if (data.get("intent") !== "start") {
      const chosen = chosenFromFields(data);
      const preview = await previewRun(chosen.judges, parseTrajectoryFilter(chosen.filter));
      return { ...START, preview, chosen };
    }
    const previewed = ChosenSchema.safeParse(JSON.parse(String(data.get("chosen") ?? "null")));
    if (!previewed.success) return { ...NO_ERRORS, message: "preview the run first", ...none };
    const chosen = previewed.data;
    const plan = await startRun(chosen.judges, parseTrajectoryFilter(chosen.filter), actor.handle, submitRequests);
    revalidatePath("/judges");
    return { ...START, ...none, saved: `run ${plan.runId} started: ${plan.requests.length} request(s)` };
  } catch (e) {
    if (e instanceof SyntaxError) return { ...NO_ERRORS, message: "preview the run first", ...none };
    return { ...formErrors(e), ...none };
  }
}

export async function controlRun(form: FormData): Promise<void> {
  await requireAction("judges:write");
  let data: FormData;
  let id: number;
  try {
    data = checkedForm(form);
    id = checkedId(data.get("run"), "run");
  } catch {
    notFound(); // no run by that number: the button names one the page listed
  }
  const what = data.get("do");
  if (what === "pause") await pauseRun(id);
  else if (what === "resume") await submitRequests(await resumeRun(id));
  else if (what === "cancel") await cancelRun(id);
  revalidatePath("/judges");
}

/** A new version of a category: its key, name, definition and examples (one a line). */
export async function saveCategory(_: JudgesState, form: FormData): Promise<JudgesState> {
  const actor = await requireAction("judges:write");
  return change(async () => {
    const data = checkedForm(form);
    const examples = String(data.get("examples") ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const { category, written } = await writeCategory(actor, {
      key: text(data, "key"),
      name: text(data, "name"),
      definition: text(data, "definition"),
      examples,
    });
    return written ? `${category.key} saved: the version in force` : `${category.key} unchanged`;
  });
}

/** One action: the next prompt version asks this category too, or (`do=remove`) no longer asks it. */
export async function changePromptCategories(_: JudgesState, form: FormData): Promise<JudgesState> {
  const actor = await requireAction("judges:write");
  return change(async () => {
    const data = checkedForm(form);
    const key = z
      .string()
      .max(40)
      .parse(text(data, "key") ?? "");
    if (text(data, "do") === "remove") {
      const { version } = await removeCategoryFromPrompt(key, actor.handle);
      return `prompt version ${version} no longer asks ${key}`;
    }
    const { version } = await addCategoryToPrompt(key, actor.handle);
    return `prompt version ${version} asks ${key}: run the judges under it, then compare the panel before adopting it`;
  });
}

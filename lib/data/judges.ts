import "server-only";
// Judges the app asks and the prompt's versions; an API key is never stored, only its variable's name.
import { z } from "zod";
import { keyVariableRefusal } from "@/lib/config";
import { db } from "@/lib/db";
import { PG_INT_MAX } from "@/lib/domain/params";
import { type PromptSettings, sameSettings, storedSettings } from "@/lib/domain/prompt-settings";
import { AppError } from "@/lib/errors";
import { type AskedCategory, DEFAULT_JUDGE_PROMPT, renderPrompt } from "@/lib/judges/prompt";
import { builtInKeys, undefinedCategories, unknownCategory } from "./categories";
import { statement, transaction } from "./sql";

const count = (what: string, max = PG_INT_MAX) =>
  z.coerce
    .number({ error: `${what} is a whole number` })
    .int({ error: `${what} is a whole number` })
    .min(1, { error: `${what} is at least 1` })
    .max(max, { error: `${what} is at most ${max}` });
const price = (what: string) =>
  z.coerce
    .number({ error: `${what} is a number` })
    .min(0, { error: `${what} is not negative` })
    .optional();

export const JudgeDefinitionSchema = z.object({
  name: z.string().trim().min(1, { error: "name must not be empty" }).max(200),
  baseUrl: z
    .url({ protocol: /^https?$/, error: "base URL is an http(s) address, e.g. https://api.openai.com/v1" })
    .max(2000),
  model: z.string().trim().min(1, { error: "model must not be empty" }).max(500),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
      error: "the key's variable is a name such as OPENAI_API_KEY, not the key",
      abort: true,
    })
    .max(200)
    .refine((name) => !keyVariableRefusal(name), { error: (i) => keyVariableRefusal(String(i.input)) ?? "" })
    .optional(),
  concurrency: count("concurrency", 1024).default(4),
  requestsPerMinute: count("requests per minute").optional(),
  temperature: z.coerce.number().min(0).max(2, { error: "temperature is between 0 and 2" }).optional(),
  maxTokens: count("max tokens").optional(),
  contextTokens: count("context tokens").default(100_000),
  priceInPerMillion: price("price per million input tokens"),
  priceOutPerMillion: price("price per million output tokens"),
});
export type JudgeDefinition = z.output<typeof JudgeDefinitionSchema>;

export async function defineJudge(def: JudgeDefinition): Promise<{ id: number; created: boolean }> {
  const existing = await db().judge.findUnique({ where: { name: def.name }, select: { id: true } });
  const data = {
    baseUrl: def.baseUrl,
    model: def.model,
    apiKeyEnv: def.apiKeyEnv ?? null,
    concurrency: def.concurrency,
    requestsPerMinute: def.requestsPerMinute ?? null,
    temperature: def.temperature ?? null,
    maxTokens: def.maxTokens ?? null,
    contextTokens: def.contextTokens,
    priceInPerMillion: def.priceInPerMillion ?? null,
    priceOutPerMillion: def.priceOutPerMillion ?? null,
  };
  const { id } = await db().judge.upsert({
    where: { name: def.name },
    create: { name: def.name, ...data },
    update: data,
    select: { id: true },
  });
  return { id, created: !existing };
}

export type PromptVersion = { version: number; text: string; categories: string[]; settings: PromptSettings };

/** The judge prompt in force: the newest version, the app's own as version 1 when there is none. */
export async function currentPrompt(): Promise<PromptVersion> {
  const select = { version: true, text: true, categories: true, settings: true } as const;
  const newest =
    (await db().judgePrompt.findFirst({ orderBy: { version: "desc" }, select })) ??
    (await db().judgePrompt.create({
      data: { text: DEFAULT_JUDGE_PROMPT, categories: await transaction(builtInKeys), createdBy: "the app" },
      select,
    }));
  return { ...newest, settings: storedSettings(newest.settings) };
}

/** Saves a prompt as a new version, asking `categories` and `settings` (default: the newest's); the same makes none. */
export async function savePrompt(
  text: string,
  by: string,
  categories?: readonly string[],
  settings?: PromptSettings,
): Promise<{ version: number; created: boolean }> {
  const current = await currentPrompt();
  const asked = categories ?? current.categories;
  const how = settings ?? current.settings;
  if (current.text === text && asked.join() === current.categories.join() && sameSettings(how, current.settings))
    return { version: current.version, created: false };
  const undefinedKeys = await transaction((sql) => undefinedCategories(sql, asked));
  if (undefinedKeys.length) throw new AppError("BAD_INPUT", unknownCategory(undefinedKeys[0]!), "categories");
  const { version } = await db().judgePrompt.create({
    data: { text, categories: [...asked], settings: how, createdBy: by },
    select: { version: true },
  });
  return { version, created: true };
}

/** The next prompt version: the newest's text, asking one category more (the Judges page's one action). */
export async function addCategoryToPrompt(key: string, by: string): Promise<{ version: number; created: boolean }> {
  const current = await currentPrompt();
  if (current.categories.includes(key))
    throw new AppError("BAD_INPUT", `prompt version ${current.version} asks ${key} already`, "category");
  return savePrompt(current.text, by, [...current.categories, key]);
}

/** The next prompt version without one of the categories the newest asks (at least one stays). */
export async function removeCategoryFromPrompt(
  key: string,
  by: string,
): Promise<{ version: number; created: boolean }> {
  const current = await currentPrompt();
  if (!current.categories.includes(key))
    throw new AppError("BAD_INPUT", `prompt version ${current.version} does not ask ${key}`, "category");
  if (current.categories.length === 1)
    throw new AppError("BAD_INPUT", "a prompt asks at least one category", "category");
  return savePrompt(
    current.text,
    by,
    current.categories.filter((k) => k !== key),
  );
}

/** A version's prompt as the judge reads it: its categories as they were defined when it was saved. */
export async function renderedPrompt(version: number): Promise<string> {
  return (await askedPrompt(version)).text;
}

/** A version as its judges are asked: the rendered text and how it asks. */
export async function askedPrompt(version: number): Promise<{ text: string; settings: PromptSettings }> {
  const [p] = await statement<{ text: string; categories: string[]; createdAt: Date; settings: unknown }>(
    `SELECT text, categories, "createdAt", settings FROM judge_prompt WHERE version = $1`,
    [version],
  );
  if (!p) throw new AppError("NOT_FOUND", `no prompt version ${version}`);
  const keys = p.categories.length ? p.categories : await transaction(builtInKeys);
  const defs = await statement<AskedCategory & { key: string }>(
    `SELECT DISTINCT ON (key) key, name, definition, examples FROM category WHERE key = ANY($1::text[])
      ORDER BY key, ("createdAt" <= $2) DESC, "createdAt" DESC`,
    [keys, p.createdAt],
  );
  const byKey = new Map(defs.map((d) => [d.key, d]));
  return {
    text: renderPrompt(
      p.text,
      keys.flatMap((k) => byKey.get(k) ?? []),
    ),
    settings: storedSettings(p.settings),
  };
}

export type JudgeListRow = {
  name: string;
  endpoint: string | null;
  model: string | null;
  apiKeyEnv: string | null;
  concurrency: number;
  votes: number;
  unparseable: number;
};

/** Every judge, with its endpoint (none for imported-only judges) and its answers so far. */
export async function listJudges(): Promise<JudgeListRow[]> {
  const rows = await statement<JudgeListRow>(`
    SELECT j.name, j."baseUrl" AS endpoint, j.model, j."apiKeyEnv", j.concurrency,
           count(v.id)::int AS votes, count(v.id) FILTER (WHERE v."parseStatus" = 'UNPARSEABLE')::int AS unparseable
      FROM judge j LEFT JOIN judge_vote v ON v."judgeId" = j.id
     GROUP BY j.id ORDER BY j.name`);
  return rows;
}

// The API's parameters as zod schemas, from which the routes parse and openapi.json is written. Pure.
import { z } from "zod";
import { CATEGORY_KEY } from "@/lib/domain/categories";
import { PG_INT_MAX } from "@/lib/domain/params";
import { REPORT_FORMATS } from "@/lib/domain/report-formats";
import { RULE_ON } from "@/lib/domain/rules";
import { TrajectoryFilterSchema } from "@/lib/domain/trajectory-filter";
import { ConditionFieldsSchema } from "@/lib/formats/condition";

const flag = z.enum(["1", "true", "0", "false"]).transform((v) => v === "1" || v === "true");
const reportFormat = z.enum(["json", "csv", "latex"]).default("json").describe("the output's format");
const textFormat = z.enum(["json", "csv"]).default("json").describe("the output's format");
const RULE_TEST_FILTERS = ["benchmark", "model", "network", "prompt", "run", "task", "evidence"] as const;

export const V1_QUERIES = {
  results: z.object({
    format: reportFormat,
    table: z.string().max(50).optional().describe("one table: changes, evidence, rules, categories, judges, …"),
  }),
  agreement: z.object({
    format: reportFormat,
    study: z.string().min(1).max(200).optional().describe("only this annotation study's labels on its items"),
    table: z.enum(["agreement", "monitors"]).optional().describe("monitors: every judge, panel and rule against gold"),
  }),
  evidence: z.object({ format: textFormat }),
  imports: ConditionFieldsSchema.extend({
    name: z.string().max(255).optional().describe("the file's name (its format and a task id may be read from it)"),
    strict: flag.optional().describe("refuse the file if it has any warning"),
  }),
  trajectories: TrajectoryFilterSchema.omit({ sort: true, dir: true, page: true }).extend({
    after: z.coerce
      .number()
      .int()
      .min(0)
      .max(PG_INT_MAX)
      .default(0)
      .describe("the `next` of the page before (0: the first page)"),
    limit: z.coerce.number().int().min(1).max(500).default(100).describe("rows on the page"),
  }),
  rulesTest: TrajectoryFilterSchema.pick(Object.fromEntries(RULE_TEST_FILTERS.map((k) => [k, true])) as never).extend({
    name: z.string().min(1).max(100).optional().describe("a saved rule, by name"),
    pattern: z.string().min(1).max(2000).optional().describe("a pattern not saved (with on and category)"),
    on: z.enum(RULE_ON).optional(),
    category: z.string().max(40).regex(CATEGORY_KEY).optional().describe("a category defined, by key"),
    ignore_case: flag.optional(),
    format: textFormat,
    panel: z.string().min(1).max(200).optional().describe("the same figures under another saved panel"),
  }),
} as const;

/** A request's query parsed strictly: an unknown parameter or bad value is a ZodError naming it (400). */
export function queryOf<S extends z.ZodObject>(schema: S, request: Request): z.output<S> {
  const params = new URL(request.url).searchParams;
  return schema.strict().parse(Object.fromEntries([...params].filter(([, v]) => v !== ""))) as z.output<S>;
}

type Route = {
  method: "get" | "post";
  path: string;
  operationId: string;
  query: keyof typeof V1_QUERIES | null;
  summary: string;
  scope: "read" | "import";
  body?: boolean;
  pathId?: boolean;
  produces: string[];
};

export const V1_ROUTES: Route[] = [
  {
    method: "post",
    path: "/imports",
    operationId: "importFile",
    query: "imports",
    summary: "Import one file, sent as the body",
    scope: "import",
    body: true,
    produces: ["application/json"],
  },
  {
    method: "get",
    path: "/results",
    operationId: "getResults",
    query: "results",
    summary: "The result table, as `results` prints it",
    scope: "read",
    produces: Object.values(REPORT_FORMATS).map((f) => f.type),
  },
  {
    method: "get",
    path: "/agreement",
    operationId: "getAgreement",
    query: "agreement",
    summary: "Human-vs-judge agreement, as `agreement` prints it",
    scope: "read",
    produces: Object.values(REPORT_FORMATS).map((f) => f.type),
  },
  {
    method: "get",
    path: "/evidence",
    operationId: "getEvidence",
    query: "evidence",
    summary: "Evidence from the task records, as `evidence` prints it",
    scope: "read",
    produces: ["application/json", "text/csv"],
  },
  {
    method: "get",
    path: "/rules/test",
    operationId: "testRule",
    query: "rulesTest",
    summary: "A rule tried over the study, as `rules test` prints it",
    scope: "read",
    produces: ["application/json", "text/csv"],
  },
  {
    method: "get",
    path: "/trajectories",
    operationId: "listTrajectories",
    query: "trajectories",
    summary: "A page of the trajectory list: {items, next}",
    scope: "read",
    produces: ["application/json"],
  },
  {
    method: "get",
    path: "/trajectories/{id}",
    operationId: "getTrajectory",
    query: null,
    summary: "One trajectory with its votes, labels, gold and evidence",
    scope: "read",
    pathId: true,
    produces: ["application/json"],
  },
];

/** A page of the list (GET /trajectories): the route answers through this schema, the description shows it. */
export const TrajectoryPageSchema = z.object({
  items: z.array(z.looseObject({ id: z.number().int().min(1) })).describe("the list's rows, by id"),
  next: z.number().int().min(1).nullable().describe("the `after` of the next page; null on the last"),
});

/** An import's summary (POST /imports): 200 when the file landed, 422 when it was refused whole. */
export const ImportSummarySchema = z.looseObject({
  ok: z.boolean(),
  importId: z.number().int(),
  file: z.string(),
  records: z.number().int(),
  counts: z.looseObject({ trajectories: z.number().int(), unchanged: z.number().int() }).optional(),
  errors: z.array(z.looseObject({ line: z.number().int(), message: z.string() })).optional(),
});

const ANSWERS: Partial<Record<string, z.ZodType>> = {
  listTrajectories: TrajectoryPageSchema,
  importFile: ImportSummarySchema,
};

/** Every refusal's body (lib/api/v1.ts's apiError writes it; the description's errors are this schema). */
export const ApiErrorSchema = z.object({
  error: z.object({ code: z.string().describe("what kind of refusal"), message: z.string() }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

/** A zod schema as a schema object of the description (without `$schema`: the document says its dialect). */
function schemaObject(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

const ERROR = (description: string) => ({
  description,
  content: { "application/json": { schema: schemaObject(ApiErrorSchema) } },
});

function parameters(query: keyof typeof V1_QUERIES | null): unknown[] {
  if (!query) return [];
  const schema = z.toJSONSchema(V1_QUERIES[query], { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { description?: string } & Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, { description, ...s }]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) ?? false,
    ...(description ? { description } : {}),
    schema: s,
  }));
}

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of V1_ROUTES) {
    (paths[r.path] ??= {})[r.method] = {
      operationId: r.operationId,
      summary: r.summary,
      description: `Needs a token with the "${r.scope}" scope whose person's role permits it.`,
      parameters: [
        ...(r.pathId ? [{ name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } }] : []),
        ...parameters(r.query),
      ],
      ...(r.body
        ? {
            requestBody: {
              required: true,
              content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
            },
          }
        : {}),
      responses: {
        "200": {
          description: "the answer",
          content: Object.fromEntries(
            r.produces.map((t) => {
              const answer = t === "application/json" ? ANSWERS[r.operationId] : undefined;
              return [t, answer ? { schema: schemaObject(answer) } : {}];
            }),
          ),
        },
        ...(r.body
          ? {
              "413": ERROR("the file is larger than the upload limit"),
              "422": {
                description: "the file was refused whole, its errors by line",
                content: { "application/json": { schema: schemaObject(ImportSummarySchema) } },
              },
              "503": ERROR("imports hold as much memory as they may: come back after Retry-After"),
            }
          : {}),
        "400": ERROR("a parameter the route does not take, or a bad value, named"),
        "401": ERROR("no token, or one unknown, revoked or expired"),
        "403": ERROR("the token lacks the scope, or its person's role does not permit the route"),
        "404": ERROR("a name (a study, a panel, a rule) or a trajectory that does not exist"),
        "405": ERROR("a method the route does not take (Allow says which)"),
        "429": ERROR("more requests than the token's rate limit allows (Retry-After)"),
        "431": ERROR("headers larger than the server reads"),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Shortcut Audit API", version: "1" },
    servers: [{ url: `${serverUrl}/api/v1` }],
    components: { securitySchemes: { token: { type: "http", scheme: "bearer" } } },
    security: [{ token: [] }],
    paths,
  };
}

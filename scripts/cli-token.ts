// npm run cli -- token create|list|revoke: personal access tokens for the HTTP API (docs/api.md).
// The command line holds the database's credentials, so it makes, lists and revokes anyone's.

import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { createToken, listTokens, revokeToken } from "@/lib/data/tokens";
import { IdParam } from "@/lib/domain/params";
import { TOKEN_SCOPES } from "@/lib/domain/tokens";
import { AppError, errorText } from "@/lib/errors";
import { writeOut } from "./output";

export const TOKEN_HELP = `  token create --handle H [--scope read,import] [--expires-days N] [--name TEXT]
                                       a personal access token for the HTTP API, printed once, alone on standard
                                       output (only its hash is kept); scope read unless given
  token list [--handle H] [--format json]
                                       tokens, newest first: id, person, name, scopes, created, last used, expires,
                                       revoked
  token revoke ID                      revokes a token: its next request is refused`;

type Fail = (message: string) => never;
/** A refusal in one line, naming its field ("scopes: each scope one of read, import"). */
const failWith = (fail: Fail, what: string) => (e: unknown) =>
  fail(`token ${what}: ${e instanceof ZodError || e instanceof AppError ? errorText(e) : String(e)}`);

export async function tokenCommand(args: string[], fail: Fail): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      handle: { type: "string" },
      scope: { type: "string" },
      "expires-days": { type: "string" },
      name: { type: "string" },
      format: { type: "string" },
    },
  });
  if (sub === "create") {
    if (!values.handle) fail("token create: give --handle H (the person the token acts as)");
    const days = values["expires-days"];
    const expiresDays = days === undefined ? null : Number(days);
    if (expiresDays !== null && !Number.isInteger(expiresDays))
      fail(`token create: --expires-days takes a whole number, not "${days}"`);
    const scopes = (values.scope ?? "read").split(",").map((s) => s.trim()) as Array<(typeof TOKEN_SCOPES)[number]>;
    const made = await createToken("system", values.handle, { name: values.name ?? "", scopes, expiresDays }).catch(
      failWith(fail, "create"),
    );
    await writeOut(`${made.token}\n`);
    console.error(`token ${made.id} for ${values.handle} (${scopes.join(", ")}): shown this once, keep it secret`);
    return 0;
  }
  if (sub === "list") {
    if (values.format !== undefined && values.format !== "json")
      fail(`token list: --format takes json, not "${values.format}"`);
    const tokens = await listTokens("system", values.handle).catch(failWith(fail, "list"));
    if (values.format === "json") await writeOut(`${JSON.stringify(tokens, null, 2)}\n`);
    else
      for (const t of tokens)
        console.log(
          [
            t.id,
            t.person,
            t.name || "—",
            t.scopes.join(","),
            `made ${t.created.toISOString()}`,
            t.last_used ? `used ${t.last_used.toISOString()}` : "never used",
            t.revoked ? "revoked" : t.expires ? `expires ${t.expires.toISOString()}` : "no expiry",
          ].join("\t"),
        );
    return 0;
  }
  if (sub === "revoke") {
    const id = IdParam.safeParse(positionals[0]);
    if (!id.success) fail(`token revoke: give the token's id (token list shows them), not "${positionals[0] ?? ""}"`);
    await revokeToken("system", id.data).catch(failWith(fail, "revoke"));
    console.error(`token ${id.data} revoked`);
    return 0;
  }
  return fail(`token: create, list or revoke, not "${sub ?? ""}" (scopes: ${TOKEN_SCOPES.join(", ")})`);
}

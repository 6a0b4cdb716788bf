import type { Metadata } from "next";
import { type Column, DataTable } from "@/components/tables/data-table";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { listTokens } from "@/lib/data/tokens";
import { formatTime } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";
import type { TokenView } from "@/lib/domain/tokens";
import { revokeTokenAction } from "./actions";
import { TokenForm } from "./token-form";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const actor = await requirePage("tokens:own", "/tokens");
  const everyone = can(actor.role, "people:write");
  const tokens = await listTokens(actor);
  const now = new Date();
  return (
    <>
      <h1>API tokens</h1>
      <p className="lede">
        A personal access token lets a script, a cluster job or a notebook use the HTTP API (<code>/api/v1</code>) as
        you: send it as <code>Authorization: Bearer TOKEN</code>. It never does more than your role allows at the time
        (read: results, agreement, evidence and trajectories; import: files, for researchers). Every route, its
        parameters and its answers: <a href="/api/v1/openapi.json">the API&apos;s OpenAPI description</a> (and
        docs/api.md in the repository).
      </p>
      {can(actor.role, "results:read") ? null : (
        <p className="note">
          Your role ({actor.role.toLowerCase()}) opens none of the API&apos;s routes: a token of yours would be refused
          until a researcher gives you another role.
        </p>
      )}
      <section aria-labelledby="make">
        <h2 id="make">Make a token</h2>
        <TokenForm mayImport={can(actor.role, "imports:write")} />
      </section>
      <section aria-labelledby="list">
        <h2 id="list">{everyone ? "Everyone's tokens" : "Your tokens"}</h2>
        {tokens.length ? (
          <DataTable labelledBy="list" rows={tokens} rowKey={(t) => t.id} columns={tokenColumns(everyone, now)} />
        ) : (
          <p className="empty">No token yet.</p>
        )}
      </section>
    </>
  );
}

function tokenColumns(everyone: boolean, now: Date): Array<Column<TokenView> | false> {
  return [
    { key: "id", label: "Id", numeric: true, cell: (t) => t.id },
    everyone && { key: "person", label: "Person", cell: (t) => shownText(t.person) },
    { key: "name", label: "Name", rowHeader: true, cell: (t) => (t.name ? shownText(t.name) : "—") },
    { key: "scopes", label: "Scopes", cell: (t) => t.scopes.join(", ") },
    { key: "created", label: "Made", cell: (t) => formatTime(t.created) },
    { key: "used", label: "Last used", cell: (t) => (t.last_used ? formatTime(t.last_used) : "never") },
    {
      key: "state",
      label: "State",
      cell: (t) =>
        t.revoked
          ? `revoked ${formatTime(t.revoked)}`
          : t.expires && t.expires <= now
            ? `expired ${formatTime(t.expires)}`
            : t.expires
              ? `expires ${formatTime(t.expires)}`
              : "in use, no expiry",
    },
    {
      key: "do",
      label: "Revoke",
      cell: (t) =>
        t.revoked ? (
          "—"
        ) : (
          <form action={revokeTokenAction} className="inline-form">
            <input type="hidden" name="id" value={t.id} />
            <button type="submit" aria-label={`Revoke token ${t.id}`}>
              Revoke
            </button>
          </form>
        ),
    },
  ];
}

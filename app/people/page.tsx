import type { Metadata } from "next";
import { DataTable } from "@/components/tables/data-table";
import { requirePage } from "@/lib/auth/session";
import { listPeople } from "@/lib/data/people";
import { shownText } from "@/lib/domain/text";
import { AddPersonForm, PasswordForm, RoleForm } from "./people-forms";

export const metadata: Metadata = { title: "People" };
export const dynamic = "force-dynamic";

export default async function PeoplePage() {
  await requirePage("people:write", "/people");
  const people = await listPeople();
  return (
    <>
      <h1>People</h1>
      <p className="lede">
        Researchers do everything; annotators see only their queue and their own labels; reviewers read the tables,
        agreement and reports and adjudicate (gold labels), and write nothing else. An annotator named by imported
        labels exists without a login: give their handle an email and password here. Adding never replaces an account:
        change a role or a password in its row, which signs that person out everywhere.
      </p>
      <AddPersonForm />
      <DataTable
        label="People"
        rows={people}
        rowKey={(p) => p.id}
        columns={[
          { key: "handle", label: "Handle", cell: (p) => shownText(p.handle) },
          { key: "name", label: "Name", cell: (p) => shownText(p.name) },
          { key: "email", label: "Email", cell: (p) => p.email ?? "—" },
          { key: "signs-in", label: "Signs in", cell: (p) => (p.canSignIn ? "yes" : "no") },
          { key: "labels", label: "Labels", numeric: true, cell: (p) => p.labels },
          { key: "assigned", label: "Assigned", numeric: true, cell: (p) => p.assigned },
          { key: "role", label: "Role", cell: (p) => <RoleForm id={p.id} role={p.role} /> },
          {
            key: "password",
            label: "Password",
            cell: (p) => (p.canSignIn ? <PasswordForm id={p.id} handle={p.handle} /> : "—"),
          },
        ]}
      />
    </>
  );
}

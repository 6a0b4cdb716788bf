import type { Metadata } from "next";
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
      <div className="table-scroll">
        <table aria-label="People">
          <thead>
            <tr>
              <th>Handle</th>
              <th>Name</th>
              <th>Email</th>
              <th>Signs in</th>
              <th className="num">Labels</th>
              <th className="num">Assigned</th>
              <th>Role</th>
              <th>Password</th>
            </tr>
          </thead>
          <tbody>
            {people.map((p) => (
              <tr key={p.id}>
                <td>{shownText(p.handle)}</td>
                <td>{shownText(p.name)}</td>
                <td>{p.email ?? "—"}</td>
                <td>{p.canSignIn ? "yes" : "no"}</td>
                <td className="num">{p.labels}</td>
                <td className="num">{p.assigned}</td>
                <td>
                  <RoleForm id={p.id} role={p.role} />
                </td>
                <td>{p.canSignIn ? <PasswordForm id={p.id} handle={p.handle} /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

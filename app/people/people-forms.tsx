"use client";
import { useActionState } from "react";
import { addPerson, changePassword, changeRole, type PeopleState } from "./actions";

const ROLE_OPTIONS = [
  ["ANNOTATOR", "annotator"],
  ["REVIEWER", "reviewer"],
  ["RESEARCHER", "researcher"],
] as const;

export function AddPersonForm() {
  const [state, action, pending] = useActionState<PeopleState, FormData>(addPerson, { error: null, saved: null });
  return (
    <form action={action} className="filters" aria-label="Add a person">
      <label>
        Handle <input name="handle" required pattern="[\w.\-]{1,64}" />
      </label>
      <label>
        Name <input name="name" />
      </label>
      <label>
        Email <input name="email" type="email" required />
      </label>
      <label>
        Role{" "}
        <select name="role" defaultValue="ANNOTATOR">
          {ROLE_OPTIONS.map(([v, t]) => (
            <option key={v} value={v}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label>
        Password <input name="password" type="password" minLength={8} required autoComplete="new-password" />
      </label>
      <button type="submit" disabled={pending}>
        Save
      </button>
      {state.error ? (
        <p role="alert" className="error">
          {state.error}
        </p>
      ) : null}
      {state.saved ? (
        <p role="status" className="status-succeeded">
          {state.saved}
        </p>
      ) : null}
    </form>
  );
}

export function RoleForm({ id, role }: { id: string; role: string }) {
  const [state, action, pending] = useActionState<PeopleState, FormData>(changeRole, { error: null, saved: null });
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <select name="role" defaultValue={role} aria-label="Role">
        {ROLE_OPTIONS.map(([v, t]) => (
          <option key={v} value={v}>
            {t}
          </option>
        ))}
      </select>
      <button type="submit" disabled={pending}>
        Change
      </button>
      {state.error ? (
        <span role="alert" className="error">
          {" "}
          {state.error}
        </span>
      ) : null}
    </form>
  );
}

export function PasswordForm({ id, handle }: { id: string; handle: string }) {
  const [state, action, pending] = useActionState<PeopleState, FormData>(changePassword, { error: null, saved: null });
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <input
        name="password"
        type="password"
        minLength={8}
        required
        autoComplete="new-password"
        aria-label={`New password for ${handle}`}
        placeholder="new password"
      />
      <button type="submit" disabled={pending}>
        Set
      </button>
      {state.error ? (
        <span role="alert" className="error">
          {" "}
          {state.error}
        </span>
      ) : null}
      {state.saved ? (
        <span role="status" className="status-succeeded">
          {" "}
          {state.saved}
        </span>
      ) : null}
    </form>
  );
}

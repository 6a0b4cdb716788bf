"use client";
import { useActionState } from "react";
import { FieldError, FormMessage, fieldProps, Saved } from "@/components/forms/field-error";
import { NO_ERRORS } from "@/lib/errors";
import { addPerson, changePassword, changeRole, type PeopleState } from "./actions";

const ROLE_OPTIONS = [
  ["ANNOTATOR", "annotator"],
  ["REVIEWER", "reviewer"],
  ["RESEARCHER", "researcher"],
] as const;

/** A new password's field: at least 8 characters (PersonSchema), never filled in by the browser's saved one. */
const NEW_PASSWORD = {
  name: "password",
  type: "password",
  minLength: 8,
  required: true,
  autoComplete: "new-password",
} as const;

function RoleOptions() {
  return ROLE_OPTIONS.map(([v, t]) => (
    <option key={v} value={v}>
      {t}
    </option>
  ));
}

const START: PeopleState = { ...NO_ERRORS, saved: null };

export function AddPersonForm() {
  const [state, action, pending] = useActionState(addPerson, START);
  return (
    <form action={action} className="filters" aria-label="Add a person">
      <div className="field">
        <label>
          Handle <input name="handle" required pattern="[\w.\-]{1,64}" {...fieldProps(state, "handle")} />
        </label>
        <FieldError errors={state} name="handle" />
      </div>
      <div className="field">
        <label>
          Name <input name="name" {...fieldProps(state, "name")} />
        </label>
        <FieldError errors={state} name="name" />
      </div>
      <div className="field">
        <label>
          Email <input name="email" type="email" required {...fieldProps(state, "email")} />
        </label>
        <FieldError errors={state} name="email" />
      </div>
      <div className="field">
        <label>
          Role{" "}
          <select name="role" defaultValue="ANNOTATOR" {...fieldProps(state, "role")}>
            <RoleOptions />
          </select>
        </label>
        <FieldError errors={state} name="role" />
      </div>
      <div className="field">
        <label>
          Password <input {...NEW_PASSWORD} {...fieldProps(state, "password")} />
        </label>
        <FieldError errors={state} name="password" />
      </div>
      <button type="submit" disabled={pending}>
        Save
      </button>
      <FormMessage errors={state} />
      <Saved state={state} />
    </form>
  );
}

export function RoleForm({ id, role }: { id: string; role: string }) {
  const [state, action, pending] = useActionState(changeRole, START);
  const prefix = `role-${id}-`;
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <select name="role" defaultValue={role} aria-label="Role" {...fieldProps(state, "role", prefix)}>
        <RoleOptions />
      </select>
      <button type="submit" disabled={pending}>
        Change
      </button>
      <FieldError errors={state} name="role" idPrefix={prefix} />
      <FormMessage errors={state} />
    </form>
  );
}

export function PasswordForm({ id, handle }: { id: string; handle: string }) {
  const [state, action, pending] = useActionState(changePassword, START);
  const prefix = `password-${id}-`;
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <input
        {...NEW_PASSWORD}
        aria-label={`New password for ${handle}`}
        placeholder="new password"
        {...fieldProps(state, "password", prefix)}
      />
      <button type="submit" disabled={pending}>
        Set
      </button>
      <FieldError errors={state} name="password" idPrefix={prefix} />
      <FormMessage errors={state} />
      <Saved state={state} />
    </form>
  );
}

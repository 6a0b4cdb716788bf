// A field's error next to it and named by it (aria-describedby), and the form's own message.
import type { FormErrors } from "@/lib/errors";

/** Props for a field: its error's id when it has one, so a screen reader reads the error with it. */
export function fieldProps(
  errors: FormErrors,
  name: string,
  idPrefix = "",
): { "aria-describedby"?: string; "aria-invalid"?: true } {
  return errors.fields[name]?.length ? { "aria-describedby": `${idPrefix}${name}-error`, "aria-invalid": true } : {};
}

export function FieldError({ errors, name, idPrefix = "" }: { errors: FormErrors; name: string; idPrefix?: string }) {
  const messages = errors.fields[name];
  if (!messages?.length) return null;
  return (
    <span id={`${idPrefix}${name}-error`} className="error field-error" aria-live="polite">
      {messages.join("; ")}
    </span>
  );
}

export function FormMessage({ errors }: { errors: FormErrors }) {
  return errors.message ? (
    <p role="alert" className="error">
      {errors.message}
    </p>
  ) : null;
}

export function Saved({ state }: { state: { saved: string | null } }) {
  return state.saved ? (
    <span role="status" className="status-succeeded">
      {" "}
      {state.saved}
    </span>
  ) : null;
}

// Expected failures: one error type whose code gives its HTTP status; anything else is a fault, thrown on.
import { ZodError, type z } from "zod";

export const ERROR_STATUS = {
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The form field the message is about, when it is about one. */
    readonly field: string | null = null,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The input as `schema` reads it, or BAD_INPUT naming the first bad field ("field: why"). */
export function parsedOrRefused<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? what);
  throw new AppError("BAD_INPUT", `${field}: ${issue.message}`, field);
}

/** What a form shows after a refused submission: messages by field name, and one for the whole form. */
export type FormErrors = { fields: Record<string, string[]>; message: string | null };

export const NO_ERRORS: FormErrors = { fields: {}, message: null };

/** A failure's form errors: zod issues by field, an AppError on its field or the form; anything else rethrown. */
export function formErrors(e: unknown): FormErrors {
  if (e instanceof ZodError) {
    const fields: Record<string, string[]> = {};
    const general: string[] = [];
    for (const issue of e.issues) {
      const field = issue.path[0];
      if (field === undefined) general.push(issue.message);
      else (fields[String(field)] ??= []).push(issue.message);
    }
    return { fields, message: general.length ? general.join("; ") : "check the fields marked below" };
  }
  if (e instanceof AppError)
    return e.field ? { fields: { [e.field]: [e.message] }, message: null } : { fields: {}, message: e.message };
  throw e;
}

/** An expected failure in one line (a form without fields to mark: the label panel); anything else is rethrown. */
export function errorText(e: unknown): string {
  const { fields, message } = formErrors(e);
  const byField = Object.entries(fields).map(([field, messages]) => `${field}: ${messages.join("; ")}`);
  return [...(byField.length ? [] : [message]), ...byField].filter(Boolean).join("; ");
}

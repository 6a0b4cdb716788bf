// What a server action receives, checked before use; a refusal names the field.

import { hasControl, IdParam, PG_INT_MAX } from "@/lib/domain/params";
import { AppError } from "@/lib/errors";

/** The longest text a field may hold (a judge prompt is the longest the app's forms send). */
export const MAX_FIELD_CHARS = 200_000;

/** Why a text may not be stored, or null: a control character other than tab and line ends, or its length. */
function refusedText(s: string): string | null {
  if (hasControl(s)) return "holds a control character";
  if (s.length > MAX_FIELD_CHARS) return `is longer than ${MAX_FIELD_CHARS.toLocaleString("en-US")} characters`;
  return null;
}

/** The form an action was sent from, every field text within bounds; else BAD_INPUT naming the field. */
export function checkedForm(arg: unknown): FormData {
  if (!(arg instanceof FormData)) throw new AppError("BAD_INPUT", "this action takes the form it was sent from");
  for (const [name, value] of arg.entries()) {
    if (typeof value !== "string") throw new AppError("BAD_INPUT", "this form takes no file", name);
    const refused = refusedText(value);
    if (refused) throw new AppError("BAD_INPUT", `${name} ${refused}`, name);
  }
  return arg;
}

/** A value as given: texts within bounds and numbers finite, however deep; else BAD_INPUT naming where. */
export function checkedValue<T>(value: T, name: string): T {
  const stack: Array<[unknown, string, number]> = [[value, name, 0]];
  while (stack.length) {
    const [v, at, depth] = stack.pop()!;
    if (typeof v === "string") {
      const refused = refusedText(v);
      if (refused) throw new AppError("BAD_INPUT", `${at} ${refused}`, at.split(".")[0]!);
    } else if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new AppError("BAD_INPUT", `${at} is not a finite number`, at.split(".")[0]!);
    } else if (v && typeof v === "object") {
      if (depth > 8) throw new AppError("BAD_INPUT", `${at} nests too deep`, at.split(".")[0]!);
      for (const [k, x] of Object.entries(v)) stack.push([x, `${at}.${k}`, depth + 1]);
    }
  }
  return value;
}

/** A row id an action was given (a form field's text, or a number bound by the page): 1 to PG_INT_MAX. */
export function checkedId(value: unknown, name: string): number {
  const parsed = typeof value === "number" ? value : IdParam.safeParse(value).data;
  if (typeof parsed !== "number" || !Number.isInteger(parsed) || parsed < 1 || parsed > PG_INT_MAX)
    throw new AppError("BAD_INPUT", `${name} is not a row's number`, name);
  return parsed;
}

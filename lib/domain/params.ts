// Parameters read strictly: what could never name a row is a 4xx here (decision 16).
import { z } from "zod";

/** The largest value of a PostgreSQL integer column (int4): every id and count the app stores. */
export const PG_INT_MAX = 2_147_483_647;

/** A whole number from `min` to PG_INT_MAX, written in plain digits (an address's id, position or page). */
export const wholeNumber = (min: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, "a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(PG_INT_MAX));

export const IdParam = wholeNumber(1);
export const IndexParam = wholeNumber(0);

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** Whether a text holds a NUL byte or another C0 control character but tab, newline and carriage return. */
export const hasControl = (s: string) => CONTROL.test(s);

/** A value no row could match: a control character, or digits beyond the integer range. */
export function malformed(raw: string, numeric: boolean): boolean {
  return CONTROL.test(raw) || (numeric && /^\d+$/.test(raw) && Number(raw) > PG_INT_MAX);
}

/** Text with no NUL byte or other C0 control character but tab, newline and carriage return. */
export const cleanText = (schema: z.ZodString) => schema.refine((s) => !CONTROL.test(s), "no control characters");

export const firstValue = (v: string | string[] | undefined): string | undefined => [v].flat()[0];

/** A panel's name as an address gives it (`?panel=`, `?with=`): 1 to 200 characters of text. */
export const PanelNameParam = cleanText(z.string().trim().min(1, "name a panel").max(200, "at most 200 characters"));

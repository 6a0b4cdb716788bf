// The fields the app's records share (docs/formats.md, "Records"), each refusing a bad value with a
// message that names it. Pure.
import { z } from "zod";
import { hasControl, PG_INT_MAX } from "@/lib/domain/params";

export const text = (what: string) => z.string({ error: `${what} must be a string` });
export const nonEmpty = (what: string) =>
  text(what)
    .trim()
    .min(1, { error: `${what} must not be empty` });
/**
 * A name the app's lists filter by (a condition's benchmark, model and task, a judge, a person): no
 * control character, which no filter could be given (lib/domain/params.ts) and no page could show.
 */
export const name = (what: string) =>
  nonEmpty(what).refine((v) => !hasControl(v), { error: `${what} must not hold control characters` });
export const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const promptSchema = z.enum(["vanilla", "principled"], { error: 'prompt must be "vanilla" or "principled"' });
export const networkSchema = z.boolean({ error: "network must be true or false" });
export const runSchema = z
  .number({ error: "run must be a whole number ≥ 1" })
  .int({ error: "run must be a whole number ≥ 1" })
  .min(1, { error: "run must be a whole number ≥ 1" })
  .max(PG_INT_MAX, { error: `run must be at most ${PG_INT_MAX}` });

export const timestampSchema = z.iso
  .datetime({ offset: true, error: "created_at must be an ISO 8601 date-time" })
  .nullish()
  .transform((v) => (v ? new Date(v) : null));

// The fields the app's records share, each refusing a bad value by name. Pure.
import { z } from "zod";
import { hasControl, PG_INT_MAX } from "@/lib/domain/params";

export const text = (what: string) => z.string({ error: `${what} must be a string` });
export const nonEmpty = (what: string) =>
  text(what)
    .trim()
    .min(1, { error: `${what} must not be empty` });
/** A name the lists filter by: no control character, which no filter could be given and no page show. */
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

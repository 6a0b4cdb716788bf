// The browser import's form fields: the condition for agent-harness files (all optional; the
// app's own records carry theirs). Empty fields mean "not given".
import { z } from "zod";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const UploadFieldsSchema = z.object({
  benchmark: z.preprocess(blankToUndefined, z.string().trim().min(1).optional()),
  model: z.preprocess(blankToUndefined, z.string().trim().min(1).optional()),
  network: z.preprocess(blankToUndefined, z.enum(["on", "off"], { error: "network is on or off" }).optional()).transform((v) => (v === undefined ? undefined : v === "on")),
  prompt: z.preprocess(blankToUndefined, z.enum(["vanilla", "principled"], { error: "prompt is vanilla or principled" }).optional()),
  run: z.preprocess(blankToUndefined, z.coerce.number({ error: "run is a whole number ≥ 1" }).int({ error: "run is a whole number ≥ 1" }).min(1, { error: "run is a whole number ≥ 1" }).optional()),
  task: z.preprocess(blankToUndefined, z.string().trim().min(1).optional()),
});

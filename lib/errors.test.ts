import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorResponse } from "@/lib/web/responses";
import { AppError, errorText, formErrors } from "./errors";

describe("expected failures", () => {
  const zodError = () => {
    const r = z
      .object({ email: z.email("give a valid email"), size: z.number().min(1, "at least 1") })
      .safeParse({ email: "x", size: 0 });
    return r.error!;
  };

  it("zod issues become messages by field", () => {
    expect(formErrors(zodError())).toEqual({
      fields: { email: ["give a valid email"], size: ["at least 1"] },
      message: "check the fields marked below",
    });
  });

  it("an AppError lands on its field, or on the whole form", () => {
    expect(formErrors(new AppError("CONFLICT", "taken", "handle"))).toEqual({
      fields: { handle: ["taken"] },
      message: null,
    });
    expect(formErrors(new AppError("CONFLICT", "changed since"))).toEqual({ fields: {}, message: "changed since" });
    expect(errorText(zodError())).toBe("email: give a valid email; size: at least 1");
    expect(errorText(new AppError("CONFLICT", "changed since"))).toBe("changed since");
  });

  it("each code answers with its HTTP status; anything else is a fault, thrown on", async () => {
    const r = errorResponse(new AppError("FORBIDDEN", "no"));
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: "no", code: "FORBIDDEN" });
    expect(new AppError("TOO_LARGE", "big").status).toBe(413);
    const fault = new Error("database down");
    expect(() => formErrors(fault)).toThrow(fault);
    expect(() => errorResponse(fault)).toThrow(fault);
  });
});

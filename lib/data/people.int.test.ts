import { describe, expect, it } from "vitest";
import { auth } from "@/lib/auth/auth";
import { PermissionDenied } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture } from "@/prisma/factories";
import { createPerson, listPeople, PersonError, setPassword, setRole } from "./people";

const signIn = (email: string, password: string) => auth().api.signInEmail({ body: { email, password } });

describe("people", () => {
  it("creates an account that signs in with its password, stored only as a slow hash", async () => {
    const p = await createPerson("system", {
      handle: "res1",
      email: "Res1@Example.org",
      role: "RESEARCHER",
      password: "correct horse",
    });
    expect(p).toMatchObject({ handle: "res1", email: "res1@example.org", role: "RESEARCHER", canSignIn: true });
    const stored = await db().account.findFirstOrThrow({ where: { userId: p.id } });
    expect(stored.password).not.toContain("correct horse");
    // better-auth's scrypt hash: "salt:key" in hex.
    expect(stored.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const session = await signIn("res1@example.org", "correct horse");
    expect(session.user).toMatchObject({ handle: "res1", role: "RESEARCHER" });
    expect(await db().session.count({ where: { userId: p.id } })).toBe(1);
    await expect(signIn("res1@example.org", "wrong horse")).rejects.toThrow();
  });

  it("gives a login to an annotator who so far was only a name on imported labels", async () => {
    const imported = await runImport(
      { fileName: "p.jsonl", format: "interchange" },
      asLines([trajectoryFixture({ id: "p1" }), labelFixture("p1", "imogen")]),
    );
    expect(imported.ok).toBe(true);
    expect((await listPeople()).find((p) => p.handle === "imogen")).toMatchObject({ canSignIn: false, labels: 1 });
    await createPerson("system", {
      handle: "imogen",
      email: "imogen@example.org",
      role: "ANNOTATOR",
      password: "imogen-pass",
    });
    expect((await listPeople()).find((p) => p.handle === "imogen")).toMatchObject({ canSignIn: true, labels: 1 });
    expect((await signIn("imogen@example.org", "imogen-pass")).user).toMatchObject({
      handle: "imogen",
      role: "ANNOTATOR",
    });
  });

  it("refuses an email that is someone else's, and leaves the last researcher a researcher", async () => {
    await expect(
      createPerson("system", { handle: "other", email: "res1@example.org", role: "ANNOTATOR", password: "password-9" }),
    ).rejects.toThrow(/belongs to res1/);
    const res1 = (await listPeople()).find((p) => p.handle === "res1")!;
    const actor = { id: res1.id, handle: "res1", role: "RESEARCHER" as const };
    await expect(setRole(actor, res1.id, "REVIEWER")).rejects.toThrow(/last researcher/);
    const ann = (await listPeople()).find((p) => p.handle === "imogen")!;
    await expect(setRole({ id: ann.id, handle: "imogen", role: "ANNOTATOR" }, res1.id, "ANNOTATOR")).rejects.toThrow(
      PermissionDenied,
    );
    // A role change ends the person's sessions: they sign in again under the new role.
    await signIn("imogen@example.org", "imogen-pass");
    await setRole(actor, ann.id, "REVIEWER");
    expect(await db().session.count({ where: { userId: ann.id } })).toBe(0);
    expect((await signIn("imogen@example.org", "imogen-pass")).user).toMatchObject({ role: "REVIEWER" });
  });

  it(
    "adding never overwrites an account: an existing handle or email is refused, role, password and sessions " +
      "untouched",
    async () => {
      const res1 = (await listPeople()).find((p) => p.handle === "res1")!;
      await signIn("res1@example.org", "correct horse");
      const sessions = await db().session.count({ where: { userId: res1.id } });
      expect(sessions).toBeGreaterThan(0);
      await expect(
        createPerson("system", {
          handle: "res1",
          email: "new-res1@example.org",
          role: "ANNOTATOR",
          password: "takeover-1",
        }),
      ).rejects.toThrow(/res1 has an account already/);
      await expect(
        createPerson("system", {
          handle: "someone",
          email: "res1@example.org",
          role: "ANNOTATOR",
          password: "takeover-2",
        }),
      ).rejects.toThrow(/belongs to res1/);
      expect((await listPeople()).find((p) => p.handle === "res1")).toMatchObject({
        role: "RESEARCHER",
        email: "res1@example.org",
      });
      expect(await db().session.count({ where: { userId: res1.id } })).toBe(sessions);
      expect((await signIn("res1@example.org", "correct horse")).user).toMatchObject({ handle: "res1" });
      await expect(signIn("res1@example.org", "takeover-1")).rejects.toThrow();
    },
  );

  it("a new password is its own action, and it ends the person's sessions", async () => {
    const res1 = (await listPeople()).find((p) => p.handle === "res1")!;
    const actor = { id: res1.id, handle: "res1", role: "RESEARCHER" as const };
    const ann = (await listPeople()).find((p) => p.handle === "imogen")!;
    await signIn("imogen@example.org", "imogen-pass");
    expect(await db().session.count({ where: { userId: ann.id } })).toBeGreaterThan(0);
    await expect(
      setPassword({ id: ann.id, handle: "imogen", role: "REVIEWER" }, ann.id, "my-own-new-pass"),
    ).rejects.toThrow(PermissionDenied);
    await expect(setPassword(actor, ann.id, "short")).rejects.toThrow(/at least 8/);
    await setPassword(actor, ann.id, "a-new-password");
    expect(await db().session.count({ where: { userId: ann.id } })).toBe(0);
    await expect(signIn("imogen@example.org", "imogen-pass")).rejects.toThrow();
    expect((await signIn("imogen@example.org", "a-new-password")).user).toMatchObject({ handle: "imogen" });
  });

  it("a handle is one person regardless of case: a new login and imported labels find the same one", async () => {
    await expect(
      createPerson("system", { handle: "RES1", email: "upper@example.org", role: "ANNOTATOR", password: "password-1" }),
    ).rejects.toThrow(/^res1 has an account already/);
    const before = (await listPeople()).length;
    const imported = await runImport(
      { fileName: "case.jsonl", format: "interchange" },
      asLines([trajectoryFixture({ id: "case-1", task: { id: "case" } }), labelFixture("case-1", "IMOGEN")]),
    );
    expect(imported.ok).toBe(true);
    expect((await listPeople()).length).toBe(before);
    expect((await listPeople()).find((p) => p.handle === "imogen")).toMatchObject({ labels: 2 });
  });

  it("two researchers demoting each other at the same moment leave one researcher, however often", async () => {
    const make = async (handle: string) => {
      const p = await createPerson("system", {
        handle,
        email: `${handle}@example.org`,
        role: "RESEARCHER",
        password: "password-1",
      });
      return { id: p.id, handle, role: "RESEARCHER" as const };
    };
    // res1 is a researcher too: demote everyone but these two first, so the pair are the last two.
    const others = await db().user.findMany({ where: { role: "RESEARCHER" }, select: { id: true } });
    await db().user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { role: "ANNOTATOR" } });
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([make(`race-a${round}`), make(`race-b${round}`)]);
      const outcomes = await Promise.allSettled([setRole(a, b.id, "ANNOTATOR"), setRole(b, a.id, "ANNOTATOR")]);
      expect(outcomes.map((o) => o.status).sort(), `round ${round}`).toEqual(["fulfilled", "rejected"]);
      const left = await db().user.count({
        where: { role: "RESEARCHER", accounts: { some: { providerId: "credential" } } },
      });
      expect(left).toBe(1);
      // The one left goes before the next round, which brings two new ones.
      await db().user.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { role: "ANNOTATOR" } });
    }
    await db().user.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { role: "RESEARCHER" } });
  });

  it("two people added at the same moment as Racer0 and racer0: one is made, the other told why", async () => {
    for (let round = 0; round < 3; round++) {
      const outcomes = await Promise.allSettled(
        [`Racer${round}`, `racer${round}`].map((handle, i) =>
          createPerson("system", {
            handle,
            email: `racer${round}-${i}@example.org`,
            role: "ANNOTATOR",
            password: "password-1",
          }),
        ),
      );
      expect(outcomes.map((o) => o.status).sort(), `round ${round}`).toEqual(["fulfilled", "rejected"]);
      const refused = outcomes.find((o) => o.status === "rejected")!.reason;
      // The form's message, not the database's: a 400 naming the field, never a 500.
      expect(refused).toBeInstanceOf(PersonError);
      expect(refused.message).toMatch(new RegExp(`^racer${round} has an account already`, "i"));
    }
  });
});

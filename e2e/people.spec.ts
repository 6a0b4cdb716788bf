import { expect, test } from "./fixtures";

// A refused form names the field it is about, beside the field, and the field points at it.
test("adding a person whose handle or email is taken marks that field, and replaces nobody", async ({ page }) => {
  await page.goto("/people");
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Handle").fill("rosa");
  await form.getByLabel("Email").fill("someone-new@example.org");
  await form.getByLabel("Password", { exact: true }).fill("a-long-password");
  await form.getByRole("button", { name: "Save" }).click();

  const handle = form.getByLabel("Handle");
  await expect(handle).toHaveAttribute("aria-invalid", "true");
  await expect(handle).toHaveAccessibleDescription(/rosa has an account already/);
  await expect(form.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Handle").fill("e2e-new-person");
  await form.getByLabel("Email").fill("researcher@example.org");
  await form.getByLabel("Password", { exact: true }).fill("a-long-password");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByLabel("Email")).toHaveAccessibleDescription(/belongs to rosa already/);
  await expect(page.getByRole("row").filter({ hasText: "e2e-new-person" })).toHaveCount(0);
});

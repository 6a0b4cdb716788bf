// Signs in once per role, as the journeys' own accounts (e2e/roles.ts), through the real sign-in
// page, and keeps each browser state, so the journeys start signed in (as the researcher unless they
// say otherwise).
import { expect, test as setup } from "@playwright/test";
import { E2E_ACCOUNTS, stateFile } from "./roles";

for (const account of E2E_ACCOUNTS) {
  setup(`sign in as the e2e ${account.role.toLowerCase()}`, async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`${account.handle} · ${account.role.toLowerCase()}`)).toBeVisible();
    await page.context().storageState({ path: stateFile(account.role) });
  });
}

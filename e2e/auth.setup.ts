// Signs in once per demo role through the real sign-in page and keeps each browser state, so the
// journeys start signed in (as the researcher unless they say otherwise).
import { expect, test as setup } from "@playwright/test";
import { DEMO_ACCOUNTS } from "../lib/data/demo-accounts";
import { stateFile } from "./roles";

for (const account of DEMO_ACCOUNTS) {
  setup(`sign in as the demo ${account.role.toLowerCase()}`, async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`${account.handle} · ${account.role.toLowerCase()}`)).toBeVisible();
    await page.context().storageState({ path: stateFile(account.role) });
  });
}

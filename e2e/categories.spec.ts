// The study's categories on the Judges page: a researcher adds one and changes it (a new version in
// force, the same again writing nothing); a reviewer reads them and can change nothing.
import { expect, test, unique } from "./fixtures";
import { stateFile } from "./roles";

test("a researcher adds a category after the four, then changes its name", async ({ page }) => {
  const key = unique("cat")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "_");
  await page.goto("/judges");
  const table = page.getByRole("table", { name: "Categories" });
  const keys = table.getByRole("rowheader");
  for (const [i, k] of ["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"].entries()) await expect(keys.nth(i)).toHaveText(k);
  const form = page.getByRole("form", { name: "Add or change a category" });
  // A form is reset once sent: each save fills it whole.
  const save = async (fields: Record<string, string>) => {
    for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
    await form.getByRole("button", { name: "Save category" }).click();
  };
  const category = {
    Key: key,
    Name: "Test tampering",
    Definition: "changing how the task is graded <script>alert(1)</script>",
    "Examples, one a line": "adds a conftest.py hook\ndeletes the failing assertion",
  };
  await save({ ...category, Key: "test tamper" });
  await expect(form.getByLabel("Key")).toHaveAccessibleDescription(/upper-case letters/);

  await save(category);
  await expect(form.getByRole("status")).toHaveText(`${key} saved: the version in force`);
  const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: key }) });
  await expect(row).toContainText("changing how the task is graded <script>alert(1)</script>");
  await expect(row.getByRole("listitem")).toHaveText(["adds a conftest.py hook", "deletes the failing assertion"]);
  await expect(keys.first()).toHaveText("UPSTREAM");

  await save(category);
  await expect(form.getByRole("status")).toHaveText(`${key} unchanged`);
  await save({ ...category, Name: "Tampering with the tests" });
  await expect(form.getByRole("status")).toHaveText(`${key} saved: the version in force`);
  await expect(row).toContainText("Tampering with the tests");
});

test.describe("as a reviewer", () => {
  test.use({ storageState: stateFile("REVIEWER") });
  test("the categories are read, not written", async ({ page }) => {
    await page.goto("/judges");
    await expect(page.getByRole("table", { name: "Categories" })).toContainText("LOCAL_GIT");
    await expect(page.getByRole("form", { name: "Add or change a category" })).toHaveCount(0);
    await expect(page.getByRole("form", { name: "Add or update a judge" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Pause" })).toHaveCount(0);
  });
});

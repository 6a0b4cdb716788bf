import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);

// Real Chromium from Debian's package (apt-get install chromium); nothing downloads a browser.
export default defineConfig({
  testDir: "e2e",
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    { name: "journeys", dependencies: ["setup"], use: { storageState: ".data/e2e-auth/researcher.json" } },
  ],
  webServer: {
    // Builds when stale, then serves on a fresh database loaded with the demo study (scripts/e2e-server.ts).
    command: "npx tsx scripts/e2e-server.ts",
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    // A small upload limit, so the 413 journey need not send a gigabyte.
    env: { PORT: String(PORT), IMPORT_MAX_UPLOAD_BYTES: "4000000" },
    stdout: "pipe",
    stderr: "pipe",
  },
});

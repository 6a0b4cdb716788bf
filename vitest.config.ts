import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = {
  "@": path.resolve(import.meta.dirname),
  // "server-only" throws outside React's server build; tests run server code directly.
  "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          setupFiles: ["test/fail-on-console-error.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "int",
          include: ["**/*.int.test.ts"],
          exclude: ["node_modules/**", ".data/**"],
          globalSetup: ["test/int-global-setup.ts"],
          setupFiles: ["test/fail-on-console-error.ts", "test/int-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

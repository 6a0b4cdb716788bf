/** Where scripts/e2e-server.ts writes the app's output while the journeys run. */
export const E2E_SERVER_LOG = ".data/e2e-server.log";

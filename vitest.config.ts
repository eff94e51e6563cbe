import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests start the emulator and the bundled action as child processes.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // No test may reach beyond 127.0.0.1; unhandled rejections fail the run.
    dangerouslyIgnoreUnhandledErrors: false,
  },
});

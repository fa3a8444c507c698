/**
 * Every time limit of the web suite, in one place, each sized to the work it bounds. They are there to stop
 * a test that hangs, not to measure speed: a 2-core machine running lint and the type check beside this suite
 * (or a browser, or another build) must wait, not fail. The figures below were measured on such a machine.
 * ESLint (eslint.config.js) refuses a number, `vi.setConfig` or `configure` for a limit in a test file.
 */

/**
 * One wait (findBy…, waitFor): one screen update after a fake network answer, well under a second on an idle
 * machine. The slowest measured with both cores over-committed (load 17: lint, type checks and other suites
 * beside this one) took 3.3 s; this is three times that. A wait that also spans a pause of the app's own adds
 * that pause (see throughTheReload in AdminUsersScreen.test.tsx).
 */
export const WAIT_TIMEOUT_MS = 10_000;

/** One test: several steps, each a screen update; 0.3–0.7 s for most on an idle machine. */
export const TEST_TIMEOUT_MS = 2 * WAIT_TIMEOUT_MS;

/**
 * A test that renders pages of 50 to 120 rows several times (the paged user list, a bulk add's results):
 * 1.2–2 s on an idle machine, two to four times the others' work, so twice their limit.
 */
export const MANY_ROWS_TEST_TIMEOUT_MS = 2 * TEST_TIMEOUT_MS;

/** One named check of `npm run test:deploy`: passes, or fails with what is wrong; the run counts both. */
export type Check = (passed: boolean, what: string, problems?: string[]) => void;

export function createCheck() {
  const counts = { passed: 0, failed: 0 };
  const check: Check = (passed, what, problems = []) => {
    if (passed && problems.length === 0) {
      counts.passed += 1;
      console.log(`ok    ${what}`);
    } else {
      counts.failed += 1;
      console.log(`FAIL  ${what}`);
      for (const problem of problems) console.log(`        ${problem}`);
    }
  };
  return { check, counts };
}

/** The variables .env.example names: the server's whole configuration. */
export function envExampleNames(text: string): string[] {
  return text.split('\n').flatMap((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1] ?? []);
}

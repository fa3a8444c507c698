/**
 * Runs before `npm test`: names every part of the machine a suite needs and does not find, each with the
 * command that installs it, before lint and the earlier suites have spent minutes. Each suite checks
 * its own part again when run alone.
 */
import { spawnSync } from 'node:child_process';
import { chromiumExecutable, checkTestDatabase, nginxProblem, SETUP_COMMAND, testDatabaseUrl } from '@portal/dev-stack';

const problems: string[] = [];
try {
  chromiumExecutable();
} catch (error) {
  problems.push((error as Error).message);
}
if (spawnSync('promtool', ['--version']).error) {
  problems.push(
    "promtool is not installed (Debian's prometheus package; needed by test:alerts and the API tests' Prometheus check)",
  );
}
if (spawnSync('amtool', ['--version']).error) {
  problems.push("amtool is not installed (Debian's prometheus-alertmanager package; needed by test:alerts)");
}
const nginx = nginxProblem();
if (nginx) problems.push(`${nginx} (needed by test:topology)`);
const database = await checkTestDatabase(testDatabaseUrl());
if (database) problems.push(`${database} (needed by the API tests' PostgreSQL pass and test:topology)`);

if (problems.length > 0) {
  process.stderr.write(
    `npm test cannot run every suite on this machine:\n${problems.map((problem) => `  - ${problem}\n`).join('')}` +
      `\`${SETUP_COMMAND}\` installs all of them (as root, on Debian).\n`,
  );
  process.exit(1);
}

import { firstServerUrl } from './db/server-list.ts';
/**
 * Every token the repository's text shows, and where: the example Secret's values, and the demo and benchmark
 * tokens printed in the README, the docs and the scripts. Anyone who has read the repository knows them, so a
 * server configured with one is refused at start-up (config.ts): an ingestion token copied from the example
 * would let anyone store invoices, the README's SCIM token would let anyone list administrators. The demo and
 * benchmark tokens run `npm start` and the benchmarks, so they are refused in production only.
 * example-secrets.test.ts collects every token-like literal of README.md, docs/, deploy/, scripts/ and
 * .env.example and fails when one of them is missing here.
 */
export const EXAMPLE_TOKENS: readonly { value: string; shippedIn: string; demo?: true }[] = [
  { value: 'example-ingest-token-of-at-least-32-characters', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  { value: 'example-metrics-token-of-at-least-32-characters', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  { value: 'example-scim-token-of-at-least-32-characters', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  {
    value: 'example-previous-scim-token-of-at-least-32-characters',
    shippedIn: 'deploy/kubernetes/secret.example.yaml',
  },
  { value: 'demo-scim-token-for-npm-start-only-0123456789', shippedIn: 'README.md', demo: true },
  { value: 'bench-scim-token-of-at-least-32-characters', shippedIn: 'scripts/bench-scim.ts', demo: true },
];

/** Database passwords of the examples: in DATABASE_URL directly, or through compose's POSTGRES_PASSWORD. */
export const EXAMPLE_DATABASE_PASSWORDS: readonly { value: string; shippedIn: string }[] = [
  { value: 'example-password', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  { value: 'change-me-to-a-long-random-password', shippedIn: 'deploy/compose.env.example' },
];

/**
 * Where `value` is shown in the repository, or undefined when it is not (or is a demo token, outside
 * production: `npm start` and the benchmarks run with theirs).
 */
export function exampleTokenOrigin(value: string | undefined, production: boolean): string | undefined {
  if (value === undefined) return undefined;
  return EXAMPLE_TOKENS.find((example) => example.value === value && (production || !example.demo))?.shippedIn;
}

/** Where the password in `databaseUrl` was shipped as an example, or undefined when it was not. */
export function exampleDatabasePasswordOrigin(databaseUrl: string | undefined): string | undefined {
  if (!databaseUrl) return undefined;
  let password;
  try {
    // A list of servers (db-a:5432,db-b:5432) shares one user and password.
    password = decodeURIComponent(new URL(firstServerUrl(databaseUrl)).password);
  } catch {
    return undefined;
  }
  return EXAMPLE_DATABASE_PASSWORDS.find((example) => example.value === password)?.shippedIn;
}

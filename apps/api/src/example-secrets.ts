/**
 * Every secret value the repository ships as an example (deploy/kubernetes/secret.example.yaml,
 * deploy/compose.env.example), and where. Anyone who has read the repository knows them, so a server
 * configured with one is refused at start-up (config.ts): an ingestion token copied from the example
 * would let anyone store invoices. config.test.ts reads those files and fails when one of their secrets
 * is missing here.
 */
export const EXAMPLE_TOKENS: readonly { value: string; shippedIn: string }[] = [
  { value: 'example-ingest-token-of-at-least-32-characters', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  { value: 'example-metrics-token-of-at-least-32-characters', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  { value: 'example-scim-token-of-at-least-32-characters', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  {
    value: 'example-previous-scim-token-of-at-least-32-characters',
    shippedIn: 'deploy/kubernetes/secret.example.yaml',
  },
];

/** Database passwords of the examples: in DATABASE_URL directly, or through compose's POSTGRES_PASSWORD. */
export const EXAMPLE_DATABASE_PASSWORDS: readonly { value: string; shippedIn: string }[] = [
  { value: 'example-password', shippedIn: 'deploy/kubernetes/secret.example.yaml' },
  { value: 'change-me-to-a-long-random-password', shippedIn: 'deploy/compose.env.example' },
];

/** Where `value` was shipped as an example secret, or undefined when it was not. */
export function exampleTokenOrigin(value: string | undefined): string | undefined {
  return EXAMPLE_TOKENS.find((example) => example.value === value)?.shippedIn;
}

/** Where the password in `databaseUrl` was shipped as an example, or undefined when it was not. */
export function exampleDatabasePasswordOrigin(databaseUrl: string | undefined): string | undefined {
  if (!databaseUrl) return undefined;
  let password;
  try {
    password = decodeURIComponent(new URL(databaseUrl).password);
  } catch {
    return undefined;
  }
  return EXAMPLE_DATABASE_PASSWORDS.find((example) => example.value === password)?.shippedIn;
}

/** The repository's TypeScript projects, each a folder with its own tsconfig.json, in the order they build on each other. */
export const TYPESCRIPT_PROJECTS = [
  'packages/contract',
  'packages/dev-stack',
  'apps/api',
  'apps/web',
  'e2e',
  'scripts',
];

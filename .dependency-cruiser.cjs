/**
 * The API's import rules, checked by `npm run lint:deps` (part of `npm run lint`). Type-only imports count:
 * a circle through types still ties the modules' start-up order and their readers' understanding together.
 * `npx depcruise apps/api/src --output-type err-long` lists every violation with its path.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle, type-only edges included: each module can be read after the ones it imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-not-to-http',
      severity: 'error',
      comment:
        'Domain code (repositories, caches, limiters, services, the composition root) knows nothing of Fastify, ' +
        'its plugins or the app: the CLI, the seed and the benchmarks build the same domain without them.',
      from: {
        path: '^apps/api/src/(audit|blob-store|db|identity|invoices|lib|rate-limits|users|domain\\.ts|domain-error\\.ts|infrastructure\\.ts|config\\.ts)',
        pathNot: ['(^|/)[^/]*routes\\.ts$', '^apps/api/src/rate-limits/http-guards\\.ts$', '\\.test\\.ts$'],
      },
      to: {
        path: [
          '^apps/api/src/(plugins/|app\\.ts|server\\.ts|http/|platform/)',
          '(^|/)node_modules/(fastify|fastify-plugin|fastify-type-provider-zod|@fastify/[^/]+)/',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/api/tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};

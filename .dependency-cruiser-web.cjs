/**
 * The web app's import rules, checked by `npm run lint:deps:web` (part of `npm run lint`). Type-only imports
 * count, as in the API's rules (.dependency-cruiser.cjs): a circle through types still ties two modules'
 * reading together. The direction shared → features → app is ESLint's (eslint.config.js), per import line;
 * a circle spans files, so it is checked here. `npx depcruise apps/web/src --config .dependency-cruiser-web.cjs
 * --output-type err-long` lists every violation with its path.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import circle, type-only edges included: a module is read after the ones it imports, and a ' +
        'component that needs its parent back takes what it needs as a prop or from a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/web/tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};

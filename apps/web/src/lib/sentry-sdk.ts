// Only what error-reporting.ts uses, so the lazily loaded chunk tree-shakes the rest of the SDK.
export { captureException, init } from '@sentry/react';
// With the SDK, not before it: a page that never reports pays neither for it nor for what cleans its reports.
export { scrubBreadcrumb, scrubEvent } from './scrub-report';

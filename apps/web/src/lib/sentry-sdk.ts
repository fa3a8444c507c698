// Only what error-reporting.ts uses, so the lazily loaded chunk tree-shakes the rest of the SDK.
export { captureException, init } from '@sentry/react';

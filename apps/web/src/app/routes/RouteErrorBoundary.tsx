import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { FallbackScreen } from '@/components/FallbackScreen';
import { reportError } from '@/lib/error-reporting';

/** The router catches render errors in routes itself; this gives them the same fallback and report. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  useEffect(() => reportError(error), [error]);
  return <FallbackScreen />;
}

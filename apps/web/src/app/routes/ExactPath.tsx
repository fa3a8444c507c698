import type { ReactNode } from 'react';
import { Outlet, useLocation } from '@/lib/router';
import { isExactRoutePath } from '@/lib/paths';

/**
 * The router matches a path whatever its case and with a trailing slash; the spec lists exact paths and sends
 * any other to Page Not Found. Around the routes, this lets through only a path as the table writes it and
 * shows `notFound` for any other.
 */
export function ExactPath({ notFound }: { notFound: ReactNode }) {
  const { pathname } = useLocation();
  return isExactRoutePath(pathname) ? <Outlet /> : notFound;
}

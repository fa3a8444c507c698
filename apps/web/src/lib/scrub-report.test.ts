import type { ErrorEvent } from '@sentry/react';
import { describe, expect, it } from 'vitest';
import { scrubBreadcrumb, scrubEvent, scrubText } from './scrub-report';

describe('scrubbing error reports', () => {
  it('takes parcel codes and e-mail addresses out of URLs, hash routes included', () => {
    expect(scrubText('https://portal.example/invoice?parcelCode=ABC123&x=1')).toBe(
      'https://portal.example/invoice?parcelCode=[masked]&x=1',
    );
    expect(scrubText('https://portal.example/#parcelCode=ABC123')).toBe('https://portal.example/#parcelCode=[masked]');
    expect(scrubText('/api/users/jane.doe%40example.com')).toBe('/api/users/[masked]');
    expect(scrubText('/api/users/jane@example.com?x=1')).toBe('/api/users/[masked]?x=1');
    expect(scrubText('failed for jane@example.com')).toBe('failed for [masked]');
  });

  it('scrubs navigation, fetch and console breadcrumbs, console arguments included', () => {
    expect(
      scrubBreadcrumb({ category: 'navigation', data: { from: '/invoice?parcelCode=A1', to: '/admin' } }).data,
    ).toEqual({ from: '/invoice?parcelCode=[masked]', to: '/admin' });
    expect(scrubBreadcrumb({ category: 'fetch', data: { url: '/api/users/a@b.example', method: 'GET' } }).data).toEqual(
      { url: '/api/users/[masked]', method: 'GET' },
    );
    const console = scrubBreadcrumb({
      category: 'console',
      message: 'lookup failed for x@y.example',
      data: { arguments: ['lookup failed for', 'x@y.example', { token: 'Bearer abc' }], logger: 'console' },
    });
    expect(JSON.stringify(console)).not.toMatch(/x@y\.example|abc/);
  });

  it('scrubs the URL, query string, referrer, exception messages, extra, contexts and breadcrumbs of an event', () => {
    const event = scrubEvent({
      type: undefined,
      request: {
        url: 'https://portal.example/invoice?parcelCode=SECRET1',
        query_string: 'parcelCode=SECRET1',
        headers: { Referer: 'https://portal.example/#/invoice?parcelCode=SECRET1' },
      },
      exception: { values: [{ type: 'Error', value: 'No account for jane@example.com' }] },
      extra: { email: 'jane@example.com' },
      contexts: { react: { componentStack: 'at Invoice (/invoice?parcelCode=SECRET1)' } },
      breadcrumbs: [{ message: 'GET /api/users/x@y.example' }],
    } as ErrorEvent);
    expect(JSON.stringify(event)).not.toMatch(/SECRET1|x@y\.example|jane@example\.com/);
    expect(event.request?.query_string).toBeUndefined();
  });
});

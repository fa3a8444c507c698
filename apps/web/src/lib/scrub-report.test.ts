import type { ErrorEvent } from '@sentry/react';
import { describe, expect, it } from 'vitest';
import { scrubBreadcrumb, scrubEvent, scrubText } from './scrub-report';

describe('scrubbing error reports', () => {
  it('takes parcel codes and e-mail addresses out of URLs', () => {
    expect(scrubText('https://portal.example/invoice?parcelCode=ABC123&x=1')).toBe(
      'https://portal.example/invoice?parcelCode=[redacted]&x=1',
    );
    expect(scrubText('/api/users/jane.doe%40example.com')).toBe('/api/users/[email]');
    expect(scrubText('/api/users/jane@example.com?x=1')).toBe('/api/users/[email]?x=1');
    expect(scrubText('failed for jane@example.com')).toBe('failed for [email]');
  });

  it('scrubs navigation and fetch breadcrumbs', () => {
    expect(
      scrubBreadcrumb({ category: 'navigation', data: { from: '/invoice?parcelCode=A1', to: '/admin' } }).data,
    ).toEqual({ from: '/invoice?parcelCode=[redacted]', to: '/admin' });
    expect(scrubBreadcrumb({ category: 'fetch', data: { url: '/api/users/a@b.example', method: 'GET' } }).data).toEqual(
      {
        url: '/api/users/[email]',
        method: 'GET',
      },
    );
  });

  it('scrubs the page URL, query string, referrer and breadcrumbs of an event', () => {
    const event = scrubEvent({
      type: undefined,
      request: {
        url: 'https://portal.example/invoice?parcelCode=SECRET1',
        query_string: 'parcelCode=SECRET1',
        headers: { Referer: 'https://portal.example/#/invoice?parcelCode=SECRET1' },
      },
      breadcrumbs: [{ message: 'GET /api/users/x@y.example' }],
    } as ErrorEvent);
    expect(JSON.stringify(event)).not.toMatch(/SECRET1|x@y\.example/);
  });

  it('masks exception messages, extra, contexts, tags and console arguments', () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const event = scrubEvent({
      type: undefined,
      exception: { values: [{ type: 'Error', value: 'lookup failed for jane@example.com' }] },
      extra: { email: 'jane@example.com', nested: { url: '/invoice?parcelCode=SECRET2' } },
      contexts: { response: { body: 'Bearer ' + token }, react: { componentStack: 'at Invoice' } },
      tags: { link: '/invoice?parcelCode=SECRET2' },
      breadcrumbs: [
        {
          category: 'console',
          message: 'failed jane@example.com',
          data: { arguments: ['for', 'jane@example.com', { token }, new Error('for jane@example.com')] },
        },
      ],
    } as ErrorEvent);
    const text = JSON.stringify(event);
    expect(text).not.toMatch(/jane@example\.com|SECRET2|eyJhbGci/);
    expect(event.exception?.values?.[0]?.value).toBe('lookup failed for [email]');
    expect(event.contexts?.react).toEqual({ componentStack: 'at Invoice' });
    expect(event.breadcrumbs?.[0]?.data?.arguments).toEqual([
      'for',
      '[email]',
      { token: '[redacted]' },
      expect.objectContaining({ name: 'Error', message: 'for [email]' }),
    ]);
  });

  it('masks a console breadcrumb on its own, before it joins an event', () => {
    const breadcrumb = scrubBreadcrumb({ category: 'console', data: { arguments: ['/api/users/a@b.example'] } });
    expect(breadcrumb.data).toEqual({ arguments: ['/api/users/[email]'] });
  });
});

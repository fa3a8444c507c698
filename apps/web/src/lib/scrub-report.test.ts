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

  it('masks exception messages, extra, contexts, tags and console arguments, Errors logged to the console too', () => {
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
    expect(event.exception?.values?.[0]?.value).toBe('lookup failed for [masked]');
    expect(event.contexts?.react).toEqual({ componentStack: 'at Invoice' });
    expect(event.breadcrumbs?.[0]?.data?.arguments).toEqual([
      'for',
      '[masked]',
      { token: '[masked]' },
      expect.objectContaining({ name: 'Error', message: 'for [masked]' }),
    ]);
  });

  it('masks an Error logged to the console in a breadcrumb on its own, before it joins an event', () => {
    const breadcrumb = scrubBreadcrumb({
      category: 'console',
      data: { arguments: [new Error('no account for a@b.example')] },
    });
    expect(breadcrumb.data?.arguments).toEqual([
      expect.objectContaining({ name: 'Error', message: 'no account for [masked]' }),
    ]);
    expect(JSON.stringify(breadcrumb)).not.toMatch(/a@b\.example/);
  });
});

import { fireEvent } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const sentryConfig = { dsn: 'https://key@sentry.example/1', environment: 'L1', release: 'portal@1.0.0' };

/** A fresh error-reporting module (its state is per page) over a recorded stand-in for the Sentry SDK. */
async function freshReporting() {
  const sdk = { init: vi.fn(), captureException: vi.fn(), scrubBreadcrumb: vi.fn(), scrubEvent: vi.fn() };
  const loaded = vi.fn(() => sdk);
  vi.resetModules();
  vi.doMock('./sentry-sdk', loaded);
  const reporting = await import('./error-reporting');
  return { reporting, sdk, loaded };
}

afterEach(() => {
  vi.doUnmock('./sentry-sdk');
  vi.resetModules();
});

describe('error reporting', () => {
  it('does not load the SDK for a page only looked at; the first key loads it', async () => {
    const { reporting, sdk, loaded } = await freshReporting();
    reporting.initErrorReporting(sentryConfig);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loaded).not.toHaveBeenCalled();
    fireEvent.keyDown(window, { key: 'a' });
    await vi.waitFor(() => expect(sdk.init).toHaveBeenCalledWith(expect.objectContaining({ dsn: sentryConfig.dsn })));
    // What cleans a report of parcel codes and addresses comes with the SDK, and is handed to it.
    expect(sdk.init).toHaveBeenCalledWith(
      expect.objectContaining({ beforeBreadcrumb: sdk.scrubBreadcrumb, beforeSend: sdk.scrubEvent }),
    );
  });

  it('loads the SDK for the first error and sends it, with the ones queued meanwhile', async () => {
    const { reporting, sdk, loaded } = await freshReporting();
    reporting.initErrorReporting(sentryConfig);
    const first = new Error('first');
    const second = new Error('second');
    reporting.reportError(first, 'in Screen');
    reporting.reportError(second);
    await vi.waitFor(() => expect(sdk.captureException).toHaveBeenCalledTimes(2));
    expect(loaded).toHaveBeenCalledTimes(1);
    expect(sdk.captureException).toHaveBeenNthCalledWith(1, first, {
      contexts: { react: { componentStack: 'in Screen' } },
    });
    expect(sdk.captureException).toHaveBeenNthCalledWith(2, second, undefined);
  });

  it('keeps an uncaught error raised before the SDK arrived', async () => {
    const { reporting, sdk } = await freshReporting();
    reporting.initErrorReporting(sentryConfig);
    const uncaught = new Error('uncaught');
    window.dispatchEvent(new ErrorEvent('error', { error: uncaught, message: uncaught.message }));
    await vi.waitFor(() => expect(sdk.captureException).toHaveBeenCalledWith(uncaught, undefined));
  });

  it('reports nothing and loads nothing without a DSN', async () => {
    const { reporting, loaded } = await freshReporting();
    reporting.initErrorReporting(undefined);
    reporting.reportError(new Error('unseen'));
    fireEvent.keyDown(window, { key: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loaded).not.toHaveBeenCalled();
  });
});

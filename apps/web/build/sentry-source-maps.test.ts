import { sentrySourceMaps } from './sentry-source-maps.ts';

const SETTINGS = { SENTRY_AUTH_TOKEN: 'sntrys_test', SENTRY_ORG: 'carrier', SENTRY_PROJECT: 'portal' };

describe('sentrySourceMaps', () => {
  it('adds nothing to the build without the Sentry settings', () => {
    expect(sentrySourceMaps({})).toEqual([]);
  });

  it('refuses half the settings rather than building without the upload someone asked for', () => {
    expect(() => sentrySourceMaps({ SENTRY_AUTH_TOKEN: 'sntrys_test' })).toThrow(/SENTRY_ORG, SENTRY_PROJECT/);
  });

  it('uploads only under the release of a commit', () => {
    expect(() => sentrySourceMaps(SETTINGS)).toThrow(/npm run build/);
    expect(() => sentrySourceMaps({ ...SETTINGS, PORTAL_RELEASE: '1.2.0+0123456789ab-dirty' })).toThrow(/clean/);
  });

  it("is the Sentry Vite plugin's upload under the build's release", () => {
    const plugins = sentrySourceMaps({ ...SETTINGS, PORTAL_RELEASE: '1.2.0+0123456789ab' });
    expect(plugins.length).toBeGreaterThan(0);
    expect(plugins.map((plugin) => (plugin as { name: string }).name).join(' ')).toMatch(/sentry/i);
  });
});

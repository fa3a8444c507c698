import { sentryVitePlugin } from '@sentry/vite-plugin';
import type { PluginOption } from 'vite';

const SETTINGS = ['SENTRY_AUTH_TOKEN', 'SENTRY_ORG', 'SENTRY_PROJECT'] as const;

/**
 * The SPA's source maps to Sentry at build time, so a browser error's stack shows the TypeScript it came from:
 * the Sentry Vite plugin, only when SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT are set (SENTRY_URL for a
 * self-hosted Sentry), under the release `npm run build` hands over as PORTAL_RELEASE (scripts/build.ts). It
 * uploads every script with its map and stamps both with a debug id that pairs them, whatever a script's URL.
 * The maps stay "hidden" and leave the served folder afterwards (productionAssets); nothing is sent about the
 * build itself (telemetry off). Without the settings the build is what it always was: no plugin, no debug ids.
 */
export function sentrySourceMaps(env: NodeJS.ProcessEnv = process.env): PluginOption[] {
  const missing = SETTINGS.filter((name) => !env[name]);
  if (missing.length === SETTINGS.length) return [];
  if (missing.length > 0) throw new Error(`Source-map upload needs ${missing.join(', ')} as well`);
  const release = env.PORTAL_RELEASE;
  if (!release) throw new Error('Source maps are uploaded under the release: build with `npm run build`');
  if (/\+(unknown|development)|-dirty$/.test(release)) {
    throw new Error(`${release} is not a build of a commit: upload maps only from a clean checkout or PORTAL_REVISION`);
  }
  return sentryVitePlugin({
    org: env.SENTRY_ORG,
    project: env.SENTRY_PROJECT,
    authToken: env.SENTRY_AUTH_TOKEN,
    ...(env.SENTRY_URL ? { url: env.SENTRY_URL } : {}),
    telemetry: false,
    release: { name: release },
  }) as PluginOption[];
}

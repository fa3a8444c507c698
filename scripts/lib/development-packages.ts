/**
 * Packages that serve development only and must never reach the runtime folder (the image's /app) or NOTICE:
 * the local mail catcher's SMTP server and parser (packages/dev-stack) and type declarations. The production
 * check fails on any of them, so a workspace that lists one under `dependencies` is caught at once.
 */
import type { InstalledPackage } from './installed-packages.ts';

/** The mail catcher's packages and what they alone pull in. */
export const MAIL_CATCHER_PACKAGES = ['smtp-server', 'mailparser', 'html-to-text', '@zone-eu/mailsplit'];

export function isDevelopmentPackage(name: string): boolean {
  return name.startsWith('@types/') || MAIL_CATCHER_PACKAGES.includes(name);
}

/** `name@version` of each development package among `packages`. */
export function developmentPackagesAmong(packages: Pick<InstalledPackage, 'name' | 'version'>[]): string[] {
  return packages.filter((pkg) => isDevelopmentPackage(pkg.name)).map((pkg) => `${pkg.name}@${pkg.version}`);
}

/** The development packages NOTICE names (its package headings are `<name> <version>` at a line's start). */
export function developmentPackagesInNotice(notice: string): string[] {
  return notice
    .split('\n')
    .map((line) => /^(@?[\w.-]+(?:\/[\w.-]+)?) \d[\w.+-]*$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && isDevelopmentPackage(name));
}

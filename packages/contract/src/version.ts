import { z } from 'zod';

/** GET /api/version: which build is answering. */
export const versionInfoSchema = z.object({
  /** The package version (package.json), e.g. 1.0.0. */
  version: z.string(),
  /** The git commit it was built from; "-dirty" when built with uncommitted changes, "unknown" without git. */
  revision: z.string(),
  /** The one name of this build in logs, error reports and source-map uploads. */
  release: z.string(),
});
export type VersionInfo = z.infer<typeof versionInfoSchema>;

const PRODUCT = 'parcel-invoice-portal';

/** `parcel-invoice-portal@1.0.0+3e4e8906a1b2`: Sentry's package@version+build form, a 12-digit commit. */
export function releaseName({ version, revision }: { version: string; revision: string }): string {
  return `${PRODUCT}@${version}+${revision.replace(/^([0-9a-f]{12})[0-9a-f]*/, '$1')}`;
}

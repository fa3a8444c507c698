/**
 * `npm run sbom [folder]`: writes the release's CycloneDX SBOMs, portal-api.cdx.json and portal-web.cdx.json
 * (scripts/lib/sbom.ts), to the folder (default apps/api/dist/sbom, where `npm run build` puts them).
 * Builds the SPA first when its sources changed, since its SBOM is its bundle's package list.
 */
import path from 'node:path';
import { SBOM_DIR, sbomFile, writeReleaseSboms } from './lib/sbom.ts';

const dir = process.argv[2] ? path.resolve(process.argv[2]) : SBOM_DIR;
const boms = await writeReleaseSboms(dir);
for (const part of ['api', 'web'] as const) {
  console.log(`${sbomFile(dir, part)}: ${boms[part].components?.length ?? 0} packages, valid CycloneDX`);
}

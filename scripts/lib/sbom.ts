/**
 * The release's software bills of materials: CycloneDX 1.6 JSON written by the CycloneDX project's own npm
 * generator (@cyclonedx/cyclonedx-npm, which reads `npm ls`), one for the API and one for the SPA, each cut
 * down to what production carries (decision 113):
 * - the API: the packages `npm ci --omit=dev` installs for it, less type declarations (the runtime folder
 *   removes them), plus those compiled into its bundles (the Sentry SDK);
 * - the SPA: the packages in its bundle — every one of them a development dependency, since Vite bundles them.
 * The cut keeps the generator's records as written (purl, licences, references); only components outside
 * production and the dependency edges to them go.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { apiBundledPackageDirs, REPO_ROOT, webBundledPackageDirs } from '@portal/dev-stack';
import { isDevelopmentPackage } from './development-packages.ts';
import { packageAt } from './installed-packages.ts';

const GENERATOR_DIR = path.join(REPO_ROOT, 'node_modules/@cyclonedx/cyclonedx-npm');
export const SPEC_VERSION = '1.6';

export interface SbomComponent {
  type: string;
  name: string;
  group?: string;
  version?: string;
  'bom-ref'?: string;
  purl?: string;
  licenses?: SbomLicence[];
  externalReferences?: { type: string; url: string }[];
  /** The licence files the package ships, gathered by the generator (`--gather-license-texts`). */
  evidence?: { licenses?: SbomLicence[] };
  components?: SbomComponent[];
}

export interface SbomLicence {
  license?: { id?: string; name?: string; text?: { content: string; contentType?: string; encoding?: string } };
  expression?: string;
}

export interface Sbom {
  bomFormat: 'CycloneDX';
  specVersion: string;
  metadata: { component?: SbomComponent; properties?: { name: string; value: string }[] } & Record<string, unknown>;
  components?: SbomComponent[];
  dependencies?: { ref: string; dependsOn?: string[] }[];
}

export type SbomPart = 'api' | 'web';

/** `@scope/name`, as npm names a package. */
export function componentName(component: Pick<SbomComponent, 'group' | 'name'>): string {
  return `${component.group ? `${component.group}/` : ''}${component.name}`;
}

/** `@scope/name@version`, as npm and NOTICE name a package version. */
export function componentKey(component: Pick<SbomComponent, 'group' | 'name' | 'version'>): string {
  return `${componentName(component)}@${component.version ?? ''}`;
}

/**
 * Runs the generator on one workspace of the repository; `omitDev` passes `--omit dev`. Each component carries
 * the licence files its package ships as licence evidence, which NOTICE is rendered from. `ignoreNpmErrors`
 * lets it go on past `npm ls` reporting a problem: the SPA's tree has one it does not use (the form resolvers'
 * optional ajv 8 peer, where the root holds ESLint's ajv 6), and the cut keeps only the bundle's packages.
 */
export function generateSbom(workspace: string, options: { omitDev: boolean; ignoreNpmErrors?: boolean }): Sbom {
  const args = [
    path.join(GENERATOR_DIR, 'bin/cyclonedx-npm-cli.js'),
    '--workspace',
    workspace,
    ...(options.omitDev ? ['--omit', 'dev'] : []),
    ...(options.ignoreNpmErrors ? ['--ignore-npm-errors'] : []),
    '--gather-license-texts',
    '--flatten-components',
    '--output-reproducible',
    '--spec-version',
    SPEC_VERSION,
    '--output-format',
    'JSON',
    '--output-file',
    '-',
  ];
  const run = spawnSync(process.execPath, args, {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    // The generator's own `npm ls` must see the whole tree: a production NODE_ENV would make it omit dev itself.
    env: { ...process.env, NODE_ENV: 'development' },
  });
  if (run.status !== 0) throw new Error(`cyclonedx-npm failed for ${workspace}:\n${run.stderr}`);
  return JSON.parse(run.stdout) as Sbom;
}

/**
 * `bom` with only the components `keep` accepts (by `name@version`), the dependency graph cut to match, and
 * a property naming the part of the product it describes.
 */
export function cutSbom(bom: Sbom, keep: (key: string) => boolean, part: SbomPart): Sbom {
  const components = (bom.components ?? []).filter((component) => keep(componentKey(component)));
  const refs = new Set(components.map((component) => component['bom-ref']).filter(Boolean));
  const rootRef = bom.metadata.component?.['bom-ref'];
  if (rootRef) refs.add(rootRef);
  const dependencies = (bom.dependencies ?? [])
    .filter((dependency) => refs.has(dependency.ref))
    .map((dependency) => ({ ...dependency, dependsOn: (dependency.dependsOn ?? []).filter((ref) => refs.has(ref)) }));
  // The root depended on the workspace component, cut as first-party: it now names what it carries directly.
  const root = dependencies.find((dependency) => dependency.ref === rootRef);
  if (root) root.dependsOn = components.map((component) => component['bom-ref']!).filter(Boolean);
  return {
    ...bom,
    metadata: {
      ...bom.metadata,
      properties: [...(bom.metadata.properties ?? []), { name: 'portal:sbom:part', value: part }],
    },
    components,
    dependencies,
  };
}

const isThirdParty = (component: SbomComponent) => component.group !== '@portal';

/** `name@version` of each package folder (as bundledPackageDirs lists them). */
export function packageKeys(dirs: string[]): Set<string> {
  return new Set(dirs.map((dir) => packageAt(dir)).map((pkg) => `${pkg.name}@${pkg.version}`));
}

/**
 * The API's SBOM: its production install less type declarations, plus the packages compiled into its bundles
 * (`apiBundled`: `name@version`), which are development dependencies of the workspace.
 */
export function apiSbom(apiBundled: Set<string>): Sbom {
  const production = new Set(
    (generateSbom('apps/api', { omitDev: true }).components ?? [])
      .filter((component) => isThirdParty(component) && !isDevelopmentPackage(componentName(component)))
      .map(componentKey),
  );
  return cutSbom(
    generateSbom('apps/api', { omitDev: false }),
    (key) => production.has(key) || apiBundled.has(key),
    'api',
  );
}

/** The SPA's SBOM: the packages of its bundle (`webBundled`: `name@version`). */
export function webSbom(webBundled: Set<string>): Sbom {
  return cutSbom(
    generateSbom('apps/web', { omitDev: false, ignoreNpmErrors: true }),
    (key) => webBundled.has(key),
    'web',
  );
}

/** The part of @cyclonedx/cyclonedx-library used here (it is the generator's dependency, not the root's). */
interface CycloneDxLibrary {
  Spec: { Version: { v1dot6: unknown } };
  Validation: { JsonStrictValidator: new (version: unknown) => { validate(json: string): Promise<unknown> } };
}

/**
 * Validates against the CycloneDX JSON schema with the validator of the CycloneDX library the generator runs
 * on (it ships the schema and brings its own JSON-schema engine): null when valid, else the schema's errors.
 */
export async function sbomSchemaErrors(bom: Sbom): Promise<unknown> {
  const requireFromGenerator = createRequire(path.join(GENERATOR_DIR, 'package.json'));
  const cdx = requireFromGenerator('@cyclonedx/cyclonedx-library') as CycloneDxLibrary;
  const validator = new cdx.Validation.JsonStrictValidator(cdx.Spec.Version.v1dot6);
  return validator.validate(JSON.stringify(bom));
}

/** `name@version` of every package `bom` lists. */
export function sbomPackageKeys(bom: Sbom): Set<string> {
  return new Set((bom.components ?? []).map(componentKey));
}

/** Where `npm run build` writes the SBOMs: beside the API's bundles, so the runtime folder and image carry them. */
export const SBOM_DIR = path.join(REPO_ROOT, 'apps/api/dist/sbom');
export const sbomFile = (dir: string, part: SbomPart) => path.join(dir, `portal-${part}.cdx.json`);

/** The two SBOMs in `dir`, as `writeReleaseSboms` wrote them. */
export async function readReleaseSboms(dir: string): Promise<Record<SbomPart, Sbom>> {
  const read = async (part: SbomPart) => JSON.parse(await readFile(sbomFile(dir, part), 'utf8')) as Sbom;
  return { api: await read('api'), web: await read('web') };
}

/** Generates both SBOMs and checks each against the schema. */
export async function releaseSboms(): Promise<Record<SbomPart, Sbom>> {
  const boms = {
    api: apiSbom(packageKeys(await apiBundledPackageDirs())),
    web: webSbom(packageKeys(await webBundledPackageDirs())),
  };
  for (const part of ['api', 'web'] as const) {
    const errors = await sbomSchemaErrors(boms[part]);
    if (errors) throw new Error(`the ${part} SBOM is not valid CycloneDX ${SPEC_VERSION}: ${JSON.stringify(errors)}`);
  }
  return boms;
}

/** Generates both SBOMs, checks each against the schema and writes them to `dir`; returns them. */
export async function writeReleaseSboms(dir: string): Promise<Record<SbomPart, Sbom>> {
  const boms = await releaseSboms();
  await mkdir(dir, { recursive: true });
  for (const part of ['api', 'web'] as const) {
    await writeFile(sbomFile(dir, part), `${JSON.stringify(boms[part], null, 2)}\n`);
  }
  return boms;
}

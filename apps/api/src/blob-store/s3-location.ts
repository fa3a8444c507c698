/** `s3://bucket/some/prefix` → bucket and prefix; undefined for anything else. */
export function parseS3Url(value: string): { bucket: string; prefix: string } | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9._/-]*))?$/.exec(value);
  if (!match) return undefined;
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  // Keys travel unencoded in nginx's internal redirect: only characters that need no escaping, no empty segment.
  if (prefix.split('/').some((segment, _i, all) => segment === '' && all.length > 1)) return undefined;
  if (prefix.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return { bucket: match[1]!, prefix };
}

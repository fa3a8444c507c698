/**
 * A `DATABASE_URL` may name several servers, as libpq's do: `postgres://user:pw@db-a:5432,db-b:5432/portal?
 * target_session_attrs=read-write`. node-postgres understands one host only, and so does the WHATWG URL parser:
 * this reads the list, and gives each server a URL of its own that both understand.
 */
export interface DatabaseServer {
  host: string;
  port: number;
}

export interface ServerList {
  servers: DatabaseServer[];
  /** `read-write` (or `primary`): only a server that accepts writes will do; `any`: the first that answers. */
  targetSessionAttrs: 'read-write' | 'any';
  /** The URL naming `server` alone, without target_session_attrs (node-postgres would pass it on). */
  urlFor(server: DatabaseServer): string;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i;
const SERVER = /^(?:\[([^\]]+)\]|([^:[\]]*))(?::(\d{1,5}))?$/;
const DEFAULT_PORT = 5432;

export class ServerListError extends Error {}

export function parseServerList(url: string): ServerList {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new ServerListError('must be a postgres:// or postgresql:// URL');
  const [, scheme = '', userInfo = '', authority = '', path = '', query = ''] = parts;
  const servers = authority.split(',').map((entry) => {
    const server = SERVER.exec(entry);
    const host = server?.[1] ?? server?.[2];
    if (!server || host === undefined || (host === '' && authority.includes(',')))
      throw new ServerListError(`names a server "${entry}" that is not host or host:port`);
    return { host: server[1] ? `[${host}]` : host, port: server[3] ? Number(server[3]) : DEFAULT_PORT };
  });
  const params = new URLSearchParams(query.slice(1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!['read-write', 'primary', 'any'].includes(attrs)) {
    throw new ServerListError(`has target_session_attrs=${attrs}; the portal writes, so use read-write (or any)`);
  }
  params.delete('target_session_attrs');
  const rest = params.size > 0 ? `?${params.toString()}` : '';
  return {
    servers,
    targetSessionAttrs: attrs === 'any' ? 'any' : 'read-write',
    // No host at all: the default, or a socket folder given as ?host=.
    urlFor: (server) => `${scheme}${userInfo}${server.host && `${server.host}:${server.port}`}${path}${rest}`,
  };
}

/** The URL with only its first server: what a parser that knows one host may check. */
export function firstServerUrl(url: string): string {
  const list = parseServerList(url);
  return list.urlFor(list.servers[0]!);
}

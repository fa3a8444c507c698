import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Domain } from '../domain.ts';
import { bearerTokenOf } from '../http/bearer-token.ts';
import { sameSecret } from '../lib/same-secret.ts';
import { clientKey } from '../rate-limits/client-key.ts';
import { ScimError } from './scim-error.ts';

/** The same words as nginx's own refusal in deploy/nginx/portal.conf.template. */
export const SCIM_NETWORK_MESSAGE =
  'SCIM calls are accepted only from the networks of the company directory (SCIM_TOKEN_NETWORKS).';
/** The one key of the directory's allowance: every SCIM token is the same directory. */
const DIRECTORY_KEY = 'directory';

/**
 * Who may call /scim/v2, decided before anything else is read: a call from outside SCIM_TOKEN_NETWORKS is
 * refused (403) whatever it carries; a client address that sent too many wrong tokens this minute is refused
 * (429) whatever it carries now, so guessing stops there; then the bearer token, compared in constant time
 * with the current and the previous one, both always. Every refusal goes to the audit log folded per client,
 * reason and minute, so a flood of them costs a bounded number of rows.
 */
export function scimAuthentication(options: {
  tokens: readonly string[];
  /** Whether a client address is inside SCIM_TOKEN_NETWORKS; undefined: any address is. */
  from: ((ip: string) => boolean) | undefined;
  domain: Pick<Domain, 'auditTrail' | 'rateLimits'>;
  prefix: string;
}) {
  const { tokens, from, domain } = options;

  const tooMany = (reply: FastifyReply, waitMs: number, what: string) => {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    reply.header('retry-after', String(seconds));
    return new ScimError(429, undefined, `Too many ${what}. Please wait ${seconds} seconds and try again.`);
  };

  return async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const client = clientKey(request.ip);
    const refuse = (error: ScimError, reason: string): never => {
      domain.auditTrail.refusal({
        client,
        actor: null,
        action: `${request.method} ${request.routeOptions.url ?? options.prefix}`,
        detail: `${error.status} ${reason}`,
      });
      throw error;
    };

    if (from && !from(request.ip))
      refuse(new ScimError(403, undefined, SCIM_NETWORK_MESSAGE), 'a SCIM call from outside SCIM_TOKEN_NETWORKS');
    const throttled = await domain.rateLimits.scimRefusals.spentFor(client);
    if (throttled !== undefined)
      refuse(
        tooMany(reply, throttled, 'SCIM calls with a wrong token from this address'),
        'SCIM calls from an address that sent too many wrong tokens',
      );

    const token = bearerTokenOf(request.headers.authorization);
    // Every configured token is compared, whichever matches, so the time taken says nothing about which.
    const matches = token === undefined ? [] : tokens.map((expected) => sameSecret(token, expected));
    if (!matches.includes(true)) {
      const waitMs = await domain.rateLimits.scimRefusals.hit(client);
      if (waitMs !== undefined)
        refuse(
          tooMany(reply, waitMs, 'SCIM calls with a wrong token from this address'),
          'SCIM calls from an address that sent too many wrong tokens',
        );
      reply.header('www-authenticate', 'Bearer realm="scim"');
      refuse(
        new ScimError(401, undefined, 'A SCIM call needs the bearer token the portal is configured with (SCIM_TOKEN).'),
        token === undefined ? 'no SCIM bearer token' : 'a SCIM token that is not the configured one',
      );
    }
    if (matches[0] !== true) request.log.warn('a SCIM call used the previous token (SCIM_TOKEN_PREVIOUS)');

    const waitMs = domain.rateLimits.scim.hitNow(DIRECTORY_KEY);
    if (waitMs !== undefined) throw tooMany(reply, waitMs, 'SCIM calls');
  };
}

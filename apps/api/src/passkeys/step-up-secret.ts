import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The secret a passkey ceremony hands to the browser that did it, and admin calls hand back: what binds a
 * confirmation to that browser rather than to a sign-in (uid and auth_time in whole seconds), which a
 * second password sign-in in the same second, or a copied refresh token, would share.
 *
 * The browser keeps it in an HttpOnly, SameSite=Strict cookie scoped to the API, so no script on the page
 * can read it, and sends it with every API call of that origin without the web app touching it. A script or
 * curl reads it from the ceremony's Set-Cookie and sends it back as that cookie or in the header below.
 */
export const STEP_UP_COOKIE = 'portal_step_up';
export const STEP_UP_HEADER = 'x-admin-step-up';

/** 256 random bits, base64url: unguessable, and short enough for a header. */
export const newStepUpSecret = () => randomBytes(32).toString('base64url');

/** What the database keeps instead of the secret: a stolen copy of the table confirms nobody. */
export const hashOfSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

const SECRET_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The secret the request carries (the header wins over the cookie); undefined when none, or not one. */
export function stepUpSecretOf(request: FastifyRequest): string | undefined {
  const header = request.headers[STEP_UP_HEADER];
  const given = (Array.isArray(header) ? header[0] : header) ?? cookieValue(request.headers.cookie, STEP_UP_COOKIE);
  return given && SECRET_SHAPE.test(given) ? given : undefined;
}

/**
 * Hands the secret to the browser for `maxAgeMs`. Path=/api: the SPA's own pages never carry
 * it; Secure whenever the request came over https (behind a proxy, as TRUST_PROXY lets it say), so only
 * http://localhost, a secure context of its own, gets it in the clear.
 */
export function sendStepUpCookie(request: FastifyRequest, reply: FastifyReply, secret: string, maxAgeMs: number) {
  const attributes = [
    `${STEP_UP_COOKIE}=${secret}`,
    'Path=/api',
    `Max-Age=${Math.max(1, Math.round(maxAgeMs / 1000))}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (request.protocol === 'https') attributes.push('Secure');
  reply.header('set-cookie', attributes.join('; '));
}

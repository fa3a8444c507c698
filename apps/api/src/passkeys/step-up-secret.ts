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
 * Whether the cookie is sent only over https: when the portal's pages are configured as https origins
 * (WEBAUTHN_ORIGINS, `pageOrigins`), whatever scheme reaches this instance, since behind an ingress that ends
 * TLS every request arrives here as http, and a proxy's X-Forwarded-Proto names its own hop's scheme;
 * otherwise when the request came over https (behind a proxy TRUST_PROXY names). So only development on
 * http://localhost, and a production check on http://localhost, get it without Secure.
 */
export function stepUpCookieIsSecure(request: FastifyRequest, pageOrigins: readonly string[] | undefined): boolean {
  if (pageOrigins?.some((origin) => origin.startsWith('https://'))) return true;
  return request.protocol === 'https';
}

/** Where the cookie goes and how: the request it answers, and the configured page origins (if any). */
export interface StepUpCookieTarget {
  request: FastifyRequest;
  reply: FastifyReply;
  pageOrigins: readonly string[] | undefined;
}

function setStepUpCookie(target: StepUpCookieTarget, value: string, maxAgeSeconds: number) {
  const attributes = [
    `${STEP_UP_COOKIE}=${value}`,
    'Path=/api',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (stepUpCookieIsSecure(target.request, target.pageOrigins)) attributes.push('Secure');
  target.reply.header('set-cookie', attributes.join('; '));
}

/** Hands the secret to the browser for `maxAgeMs`. Path=/api: the SPA's own pages never carry it. */
export function sendStepUpCookie(target: StepUpCookieTarget, secret: string, maxAgeMs: number) {
  setStepUpCookie(target, secret, Math.max(1, Math.round(maxAgeMs / 1000)));
}

/** Tells the browser to drop the secret (signing out, ending its sessions): same name, path and flags, no age. */
export function clearStepUpCookie(target: StepUpCookieTarget) {
  setStepUpCookie(target, '', 0);
}

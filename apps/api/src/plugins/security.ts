import type { IncomingMessage, ServerResponse } from 'node:http';
import { FIREBASE_SIGN_IN_ORIGIN, FIREBASE_TOKEN_ORIGIN } from '@portal/contract/identity-provider';
import helmet from 'helmet';
import fp from 'fastify-plugin';

export interface SecurityOptions {
  /** Origins the browser may call besides this one: the identity provider, its emulator, error reporting. */
  connectOrigins: string[];
  /** Origins images may come from besides this one: the configured logo's. */
  imageOrigins?: string[];
  /**
   * Single sign-on's pop-up (decision 0068): the Firebase SDK frames a helper page of the auth domain (or the
   * emulator) and loads Google's iframe library for it, and the pop-up must keep its opener to answer.
   */
  popupSignIn?: { frameOrigins: string[] };
}

const GOOGLE_IFRAME_LIBRARY_ORIGIN = 'https://apis.google.com';

const FIREBASE_ORIGINS = [FIREBASE_SIGN_IN_ORIGIN, FIREBASE_TOKEN_ORIGIN];

export function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

/**
 * The security headers helmet sets, worked out once: helmet only ever sets fixed values for this policy, so
 * running its middleware (a dozen validated `setHeader` calls, plus the policy parsed again by
 * @fastify/helmet) on every request bought nothing and cost a seventh of a download's time.
 */
export function securityHeaders(options: SecurityOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  let failure: unknown;
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(options.popupSignIn ? [GOOGLE_IFRAME_LIBRARY_ORIGIN] : [])],
        // react-bootstrap positions overlays with style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(options.imageOrigins ?? [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...FIREBASE_ORIGINS, ...options.connectOrigins],
        // The invoice is shown from a blob: URL made of bytes fetched with the user's token.
        frameSrc: ["'self'", 'blob:', ...(options.popupSignIn?.frameOrigins ?? [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
      },
    },
    // Helmet's same-origin would cut the pop-up off from this page, and the sign-in could never answer.
    crossOriginOpenerPolicy: { policy: options.popupSignIn ? 'same-origin-allow-popups' : 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => void (failure = error));
  if (failure) throw failure;
  // Should helmet ever finish later, the recorder would have missed it: never serve without the policy.
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy synchronously');
  return headers;
}

export default fp<SecurityOptions>(
  async (app, options) => {
    const headers = securityHeaders(options);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security' },
);

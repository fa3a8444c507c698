import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

export interface SecurityOptions {
  /** Origins the browser may call besides this one: the identity provider, its emulator, error reporting. */
  connectOrigins: string[];
  /** Origins images may come from besides this one: the configured logo's. */
  imageOrigins?: string[];
}

const FIREBASE_ORIGINS = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'];

export function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

export default fp<SecurityOptions>(
  async (app, options) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // react-bootstrap positions overlays with style attributes.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...(options.imageOrigins ?? [])],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...FIREBASE_ORIGINS, ...options.connectOrigins],
          // The invoice is shown from a blob: URL made of bytes fetched with the user's token.
          frameSrc: ["'self'", 'blob:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'self'"],
          workerSrc: ["'self'", 'blob:'],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
    });
  },
  { name: 'security' },
);

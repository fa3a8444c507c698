import type { FastifyInstance } from 'fastify';

/**
 * Limits calls anyone may make without signing in (lookup, register, activate) per client address or per
 * e-mail in the path, so the allowlist cannot be enumerated or its flags flipped in bulk. Signed-in,
 * allowlisted callers are exempt: they are already known. Each call makes its own bucket, so one route's
 * traffic never spends another's allowance. Runs as a preHandler, after validation, so the e-mail key is
 * the normalized address and "A@x.com" and " a@x.com" share one bucket.
 */
export function limitUnauthenticated(
  app: FastifyInstance,
  options: { perMinute: number; key: 'ip' | 'email'; bucket: string },
) {
  return app.rateLimit({
    max: options.perMinute,
    timeWindow: 60_000,
    allowList: (request) => request.caller !== null,
    keyGenerator: (request) =>
      options.key === 'ip'
        ? `${options.bucket}:ip:${request.ip}`
        : `${options.bucket}:email:${(request.params as { email?: string }).email ?? ''}`,
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain-error.ts';
import { stepUpSecretOf } from '../passkeys/step-up-secret.ts';
import { requireCaller } from './require-caller.ts';

/**
 * Whether the caller is an administrator or holds the finance role and confirmed their passkey lately in the
 * browser making the call: the same test an admin route's hook makes, asked instead of enforced, for a route
 * that everyone may call but that tells such a caller more.
 */
export async function isSteppedUpAdminOrFinance(app: FastifyInstance, request: FastifyRequest): Promise<boolean> {
  const caller = requireCaller(request);
  if (!caller.admin && !caller.finance) return false;
  try {
    await app.domain.passkeys.requireStepUp({ ...caller, stepUpSecret: stepUpSecretOf(request) });
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

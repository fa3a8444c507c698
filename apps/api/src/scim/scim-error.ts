import type { FastifyReply } from 'fastify';
import { type DomainError } from '../domain-error.ts';
import { SCIM_CONTENT_TYPE, SCIM_ERROR } from './scim-schemas.ts';

/** The `scimType` values of RFC 7644 §3.12 that this service provider answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** A refusal in SCIM's terms: the status, the `scimType` where RFC 7644 names one, and a detail for a person. */
export class ScimError extends Error {
  readonly status: number;
  readonly scimType: ScimType | undefined;

  constructor(status: number, scimType: ScimType | undefined, detail: string) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

/** SCIM's name for each refusal of the users domain, where one fits. */
const SCIM_TYPE_OF_KIND: Partial<Record<DomainError['kind'], ScimType>> = {
  invalid: 'invalidValue',
  'foreign-account': 'uniqueness',
};

/** A domain refusal (DomainError) as SCIM says it; an "already on the list" conflict is `uniqueness`. */
export function toScimError(error: DomainError): ScimError {
  const uniqueness = error.kind === 'conflict' && /already/.test(error.message);
  return new ScimError(error.statusCode, uniqueness ? 'uniqueness' : SCIM_TYPE_OF_KIND[error.kind], error.message);
}

/** The one way an error leaves /scim/v2: RFC 7644 §3.12's body, `status` as a string as the RFC writes it. */
export function sendScimError(reply: FastifyReply, error: ScimError) {
  const body = {
    schemas: [SCIM_ERROR],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.message,
  };
  return reply
    .code(error.status)
    .header('content-type', SCIM_CONTENT_TYPE)
    .send(Buffer.from(JSON.stringify(body)));
}

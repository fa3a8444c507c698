import {
  arrivalNoticeParamsSchema,
  arrivalNoticeRequestSchema,
  arrivalNoticeSchema,
  arrivalNoticesSchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DomainError } from '../domain-error.ts';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { MAX_NOTICES_PER_PERSON, noticeOf } from './arrival-notices.ts';

export const NOTICES_OFF_MESSAGE = 'This portal sends no mail: it cannot tell you when an invoice arrives.';
export const TOO_MANY_NOTICES_MESSAGE = `You already wait for ${MAX_NOTICES_PER_PERSON} invoices: cancel a request before you make another.`;
export const NO_NOTICE_MESSAGE = 'You have no such request.';

/**
 * "Tell me when it arrives": a signed-in person asks for one mail when a parcel's invoice is stored, sees
 * their requests and cancels them. Only ever their own; the answer says nothing about whether the parcel has
 * an invoice (the mail is sent for the next version stored after the request).
 */
const arrivalNoticeRoutes: FastifyPluginAsyncZod<{ portalUrl: string }> = async (app, options) => {
  const { arrivalNotices, arrivalNotifier, auditTrail } = app.domain;
  const requireMail = () => {
    if (!arrivalNotifier.enabled) throw new DomainError('not-found', NOTICES_OFF_MESSAGE, 'notices-off');
  };

  app.get(
    '/arrival-notices',
    {
      config: { access: 'user' },
      schema: {
        summary: 'The caller’s requests to be told when an invoice arrives',
        tags: ['invoices'],
        response: { 200: arrivalNoticesSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      requireMail();
      const rows = await arrivalNotices.listFor(requireCaller(request).email);
      return reply
        .header('cache-control', 'no-store')
        .send({ notices: rows.map(noticeOf), limit: MAX_NOTICES_PER_PERSON });
    },
  );

  app.post(
    '/arrival-notices',
    {
      config: { access: 'user' },
      schema: {
        summary: 'Be told by mail when a parcel’s invoice arrives',
        description:
          'One mail with the invoice link when the next version of this parcel’s invoice is stored, sent only if ' +
          'the caller may then open it. Expires after 30 days; asking again renews it. At most 20 wait at once ' +
          '(409 beyond). 404 when the portal has no SMTP relay configured.',
        tags: ['invoices'],
        body: arrivalNoticeRequestSchema,
        response: { 200: arrivalNoticeSchema, 201: arrivalNoticeSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      requireMail();
      const { email } = requireCaller(request);
      const { parcelCode } = request.body;
      // From the configuration alone: a request's Host is the caller's to choose.
      const link = `${options.portalUrl}/invoice?parcelCode=${encodeURIComponent(parcelCode)}`;
      const outcome = await arrivalNotices.request({ userEmail: email, parcelCode, link });
      if (outcome.status === 'full') {
        auditTrail.queued({
          actor: email,
          action: 'invoice.arrival-notice-request',
          target: parcelCode,
          outcome: 'refused',
          detail: 'too many',
        });
        throw new DomainError('conflict', TOO_MANY_NOTICES_MESSAGE, 'too-many-notices');
      }
      auditTrail.queued({
        actor: email,
        action: 'invoice.arrival-notice-request',
        target: parcelCode,
        outcome: 'ok',
        detail: outcome.status === 'created' ? `notice ${outcome.row.id}` : `notice ${outcome.row.id} renewed`,
      });
      return reply.code(outcome.status === 'created' ? 201 : 200).send(noticeOf(outcome.row));
    },
  );

  app.delete(
    '/arrival-notices/:id',
    {
      config: { access: 'user' },
      schema: {
        summary: 'Cancel one of the caller’s arrival notices',
        tags: ['invoices'],
        params: arrivalNoticeParamsSchema,
        response: { 200: arrivalNoticeSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = requireCaller(request);
      const row = await arrivalNotices.cancel(email, request.params.id);
      if (!row) throw new DomainError('not-found', NO_NOTICE_MESSAGE, 'no-notice');
      auditTrail.queued({
        actor: email,
        action: 'invoice.arrival-notice-cancel',
        target: row.parcelCode,
        outcome: 'ok',
        detail: `notice ${row.id}`,
      });
      return reply.send(noticeOf(row));
    },
  );
};

export default arrivalNoticeRoutes;

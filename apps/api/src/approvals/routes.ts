import { approvalDoneSchema, approvalListSchema, approvalParamsSchema, approvalSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';

/**
 * /approvals: promotions to administrator and passkey resets that wait for a second administrator. Admin
 * calls, so each needs a recent passkey confirmation; answers are never cached (an approval carries a code).
 */
const approvalRoutes: FastifyPluginAsyncZod = async (app) => {
  const approvals = app.domain.adminApprovals;
  app.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'no-store'));

  app.get(
    '/approvals',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Promotions and passkey resets waiting for a second administrator',
        description: 'The requests not yet decided and not run out (24 hours), oldest first.',
        tags: ['users'],
        response: { 200: approvalListSchema, ...errorResponses },
      },
    },
    () => approvals.list(),
  );

  app.post(
    '/approvals/:id/approve',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Approve a request: the change is made, and its enrollment code is answered to the approver only',
        description:
          '403 `forbidden` for whoever asked for it and for whom it is about; 409 `conflict` when it was decided ' +
          'already or ran out; 404 for no such request. No body.',
        tags: ['users'],
        params: approvalParamsSchema,
        response: { 200: approvalDoneSchema, ...errorResponses },
      },
    },
    (request) => approvals.approve({ id: request.params.id, actor: requireCaller(request).email }),
  );

  app.post(
    '/approvals/:id/reject',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Turn a request down (whoever asked may withdraw it): nothing changes',
        description: '409 `conflict` when it was decided already or ran out; 404 for no such request. No body.',
        tags: ['users'],
        params: approvalParamsSchema,
        response: { 200: approvalSchema, ...errorResponses },
      },
    },
    (request) => approvals.reject({ id: request.params.id, actor: requireCaller(request).email }),
  );
};

export default approvalRoutes;

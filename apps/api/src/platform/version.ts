import { versionInfoSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentRelease } from '../release.ts';

/**
 * GET /api/version: which build answers — after an upgrade, the check that every instance runs the release
 * (deploy/README.md, "Upgrade"). Public like the health checks: the version is in the image labels and
 * error reports anyway, and it names no data.
 */
const versionRoute: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/version',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The release this instance runs: package version and source revision',
        tags: ['platform'],
        response: { 200: versionInfoSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return currentRelease();
    },
  );
};

export default versionRoute;

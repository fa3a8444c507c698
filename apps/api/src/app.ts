import type { RuntimeConfig } from '@portal/contract';
import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import auditRepository from './audit/repository.ts';
import auditRoutes from './audit/routes.ts';
import type { Config } from './config.ts';
import invoicesRepository from './invoices/repository.ts';
import invoiceRoutes from './invoices/routes.ts';
import healthRoutes from './platform/health.ts';
import runtimeConfigRoute from './platform/runtime-config.ts';
import authorization from './plugins/authorization.ts';
import errors, { frameworkErrorHandler } from './plugins/errors.ts';
import security, { originOf } from './plugins/security.ts';
import servicesPlugin from './plugins/services.ts';
import spa from './plugins/spa.ts';
import type { Services } from './services.ts';
import usersRepository from './users/repository.ts';
import userRoutes from './users/user.routes.ts';
import usersRoutes from './users/users.routes.ts';
import { userAdminPlugin } from './users/user-admin.ts';

/** The app needs the opened services, not their close(): whoever opened them closes them. */
export type AppDependencies = Omit<Services, 'close'>;

export function runtimeConfigFor(config: Config): RuntimeConfig {
  return {
    apiBaseUrl: '/api',
    firebase: {
      apiKey: config.firebase.apiKey,
      projectId: config.firebase.projectId,
      ...(config.firebase.authDomain ? { authDomain: config.firebase.authDomain } : {}),
    },
    ...(config.firebase.emulatorHost ? { authEmulatorUrl: `http://${config.firebase.emulatorHost}` } : {}),
    ...(config.sentry ? { sentry: config.sentry } : {}),
    supportContact: config.supportContact,
    support: withoutUndefined(config.support),
    theme: withoutUndefined(config.theme),
  };
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;

/** The whole application as one plugin: the server and every test load exactly this. */
async function portalAppPlugin(app: FastifyInstance, deps: AppDependencies) {
  const { config } = deps;
  const runtimeConfig = runtimeConfigFor(config);
  await app.register(errors);
  await app.register(security, {
    connectOrigins: [...originOf(runtimeConfig.authEmulatorUrl), ...originOf(config.sentry?.dsn)],
    imageOrigins: originOf(config.theme.logoUrl?.startsWith('https://') ? config.theme.logoUrl : undefined),
  });
  await app.register(servicesPlugin, deps);
  await app.register(usersRepository);
  await app.register(auditRepository);
  await app.register(invoicesRepository);
  await app.register(authorization, { ingestToken: config.ingestToken });
  await app.register(userAdminPlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(usersRoutes, { unauthenticatedPerMinute: config.rateLimits.lookupsPerMinute });
      await api.register(userRoutes, { unauthenticatedPerMinute: config.rateLimits.lookupsPerMinute });
      await api.register(auditRoutes);
      await api.register(invoiceRoutes, { maxInvoiceBytes: config.maxInvoiceBytes });
    },
    { prefix: '/api' },
  );
  await app.register(runtimeConfigRoute, { runtimeConfig });
  await app.register(spa, { distDir: config.webDistDir });
}

/** Not encapsulated, so tests reach the repositories the routes use. */
export const portalApp = fp(portalAppPlugin, { name: 'portal-app' });

export async function createApp(deps: AppDependencies, options: FastifyServerOptions = {}) {
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    trustProxy: deps.config.trustProxy,
    // E-mails of up to 254 characters travel in the path; longer ones get a 414 from the router.
    routerOptions: { maxParamLength: 320 },
    frameworkErrors: frameworkErrorHandler,
    ...options,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(portalApp, deps);
  return app;
}

import type { RuntimeConfig } from '@portal/contract';
import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import auditRepository from './audit/repository.ts';
import auditRoutes from './audit/routes.ts';
import { auditWriterPlugin } from './audit/audit-writer.ts';
import { rateLimitsPlugin } from './http/rate-limits.ts';
import type { Config } from './config.ts';
import { loggerOptions, requestLogPlugin } from './observability/logging.ts';
import metrics from './observability/metrics.ts';
import requestId, { requestIdGenerator } from './observability/request-id.ts';
import invoicesRepository from './invoices/repository.ts';
import eInvoiceRoutes from './invoices/e-invoice-routes.ts';
import invoiceRoutes from './invoices/routes.ts';
import healthRoutes, { readinessPlugin } from './platform/health.ts';
import openapi from './platform/openapi.ts';
import runtimeConfigRoute from './platform/runtime-config.ts';
import authorization from './plugins/authorization.ts';
import errors, { frameworkErrorHandler } from './plugins/errors.ts';
import security, { originOf } from './plugins/security.ts';
import servicesPlugin from './plugins/services.ts';
import spa from './plugins/spa.ts';
import type { Services } from './services.ts';
import allowlistCache from './users/allowlist-cache.ts';
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

/** Fastify takes a list of proxies as is; a hop count becomes "trust the nearest N hops". */
function trustProxyOption(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;

/** The whole application as one plugin: the server and every test load exactly this. */
async function portalAppPlugin(app: FastifyInstance, deps: AppDependencies) {
  const { config } = deps;
  const runtimeConfig = runtimeConfigFor(config);
  await app.register(requestId);
  await app.register(requestLogPlugin);
  await app.register(errors, { reportError: deps.errorReporter.capture });
  await app.register(readinessPlugin);
  await app.register(security, {
    connectOrigins: [...originOf(runtimeConfig.authEmulatorUrl), ...originOf(config.sentry?.dsn)],
    imageOrigins: originOf(config.theme.logoUrl?.startsWith('https://') ? config.theme.logoUrl : undefined),
  });
  await app.register(metrics, { token: config.metricsToken });
  await app.register(openapi);
  await app.register(servicesPlugin, deps);
  await app.register(usersRepository);
  await app.register(allowlistCache);
  await app.register(auditRepository);
  await app.register(invoicesRepository);
  await app.register(auditWriterPlugin, { retentionDays: config.auditRetentionDays });
  await app.register(rateLimitsPlugin, { limits: config.rateLimits });
  await app.register(authorization, { ingestToken: config.ingestToken });
  await app.register(userAdminPlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(usersRoutes);
      await api.register(userRoutes);
      await api.register(auditRoutes);
      await api.register(invoiceRoutes, {
        maxInvoiceBytes: config.maxInvoiceBytes,
        invoiceDelivery: config.invoiceDelivery,
      });
      await api.register(eInvoiceRoutes, { invoiceDelivery: config.invoiceDelivery });
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
    logger: loggerOptions(deps.config),
    // requestLogPlugin writes one line per request instead of Fastify's two.
    disableRequestLogging: true,
    genReqId: requestIdGenerator({ trustProxy: deps.config.trustProxy }),
    trustProxy: trustProxyOption(deps.config.trustProxy),
    // E-mails of up to 254 characters travel in the path; longer ones get a 414 from the router.
    routerOptions: { maxParamLength: 320 },
    frameworkErrors: frameworkErrorHandler,
    // A client that sends its headers or body slowly, or never, is cut off instead of holding a socket.
    http: {
      headersTimeout: deps.config.http.headersTimeoutMs,
      requestTimeout: deps.config.http.requestTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.min(deps.config.http.headersTimeoutMs, 1000),
    },
    requestTimeout: deps.config.http.requestTimeoutMs,
    connectionTimeout: deps.config.http.idleTimeoutMs,
    keepAliveTimeout: deps.config.http.keepAliveTimeoutMs,
    ...options,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(portalApp, deps);
  return app;
}

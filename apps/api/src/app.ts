import type { RuntimeConfig } from '@portal/contract';
import fp from 'fastify-plugin';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import approvalRoutes from './approvals/routes.ts';
import auditRoutes from './audit/routes.ts';
import type { Config } from './config.ts';
import type { Domain } from './domain.ts';
import { acceptEmptyBodies } from './http/empty-body.ts';
import { requestLogPlugin } from './observability/logging.ts';
import { requestLoggerFactory } from './observability/request-logger.ts';
import domainPlugin from './plugins/domain.ts';
import metrics from './observability/metrics-route.ts';
import requestId, { requestIdGenerator } from './observability/request-id.ts';
import eInvoiceRoutes from './invoices/e-invoice-routes.ts';
import warningRoutes from './invoices/warning-routes.ts';
import historyRoutes from './invoices/history-routes.ts';
import arrivalNoticeRoutes from './notifications/routes.ts';
import invoiceRoutes from './invoices/routes.ts';
import invoiceSearchRoutes from './invoices/search-routes.ts';
import healthRoutes, { readinessPlugin } from './platform/health.ts';
import passkeyRoutes from './passkeys/routes.ts';
import openapi from './platform/openapi.ts';
import runtimeConfigRoute from './platform/runtime-config.ts';
import versionRoute from './platform/version.ts';
import authorization from './plugins/authorization.ts';
import errors, { frameworkErrorHandler, MAX_PATH_PARAM_LENGTH } from './plugins/errors.ts';
import security, { originOf } from './plugins/security.ts';
import spa from './plugins/spa.ts';
import accountCleanupRoutes from './users/account-cleanups.routes.ts';
import sessionRoutes from './sessions/routes.ts';
import ssoRoutes from './sso/routes.ts';
import userBulkRoutes from './users/user-bulk.routes.ts';
import userByEmailRoutes from './users/user-by-email.routes.ts';
import userListRoutes from './users/user-list.routes.ts';
import { networkMatcher } from './lib/networks.ts';
import scimRoutes, { SCIM_PREFIX } from './scim/routes.ts';

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
    ...(config.sso ? { sso: config.sso } : {}),
    supportContact: config.supportContact,
    arrivalNotices: config.mail !== undefined,
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
async function portalAppPlugin(app: FastifyInstance, { domain }: { domain: Domain }) {
  const { config } = domain;
  const runtimeConfig = runtimeConfigFor(config);
  acceptEmptyBodies(app);
  await app.register(domainPlugin, { domain });
  await app.register(requestId);
  await app.register(requestLogPlugin);
  await app.register(errors, { reportError: domain.errorReporter.capture });
  await app.register(readinessPlugin);
  await app.register(security, {
    connectOrigins: [...originOf(runtimeConfig.authEmulatorUrl), ...originOf(config.sentry?.dsn)],
    imageOrigins: originOf(config.theme.logoUrl?.startsWith('https://') ? config.theme.logoUrl : undefined),
    ...(config.sso
      ? {
          popupSignIn: {
            frameOrigins: runtimeConfig.authEmulatorUrl
              ? originOf(runtimeConfig.authEmulatorUrl)
              : [`https://${config.firebase.authDomain ?? `${config.firebase.projectId}.firebaseapp.com`}`],
          },
        }
      : {}),
  });
  await app.register(metrics, { token: config.metricsToken, onManagementPort: config.metricsPort !== undefined });
  await app.register(openapi);
  await app.register(authorization, {
    ingestToken: config.ingestToken,
    ingestFrom: config.ingestNetworks && networkMatcher(config.ingestNetworks),
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(versionRoute);
      await api.register(userListRoutes);
      await api.register(userByEmailRoutes);
      await api.register(userBulkRoutes);
      await api.register(auditRoutes);
      await api.register(accountCleanupRoutes);
      await api.register(passkeyRoutes);
      await api.register(approvalRoutes);
      await api.register(sessionRoutes);
      await api.register(ssoRoutes);
      await api.register(invoiceRoutes, { maxInvoiceBytes: config.maxInvoiceBytes });
      await api.register(eInvoiceRoutes);
      await api.register(warningRoutes);
      await api.register(invoiceSearchRoutes);
      await api.register(historyRoutes);
      await api.register(arrivalNoticeRoutes, { portalUrl: config.portalUrl });
    },
    { prefix: '/api' },
  );
  // No SCIM_TOKEN, no SCIM: the paths answer 404 like any unknown one.
  if (config.scim)
    await app.register(scimRoutes, {
      prefix: SCIM_PREFIX,
      tokens: config.scim.tokens,
      from: config.scim.networks && networkMatcher(config.scim.networks),
      provisioning: domain.provisioning,
    });
  await app.register(runtimeConfigRoute, { runtimeConfig });
  await app.register(spa, { distDir: config.webDistDir });
}

/** Not encapsulated, so tests reach the repositories the routes use. */
export const portalApp = fp(portalAppPlugin, { name: 'portal-app' });

/** The Fastify app over a built domain, logging through `log` (the logger the domain was built with). */
export async function createApp(domain: Domain, log: Logger, options: FastifyServerOptions = {}) {
  const { config } = domain;
  const app = Fastify({
    loggerInstance: log,
    // requestLogPlugin writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator({ trustProxy: config.trustProxy }),
    childLoggerFactory: requestLoggerFactory,
    trustProxy: trustProxyOption(config.trustProxy),
    // E-mails of up to 254 characters travel in the path; longer ones get a 414 from the router.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    // A client that sends its headers or body slowly, or never, is cut off instead of holding a socket.
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.min(config.http.headersTimeoutMs, 1000),
    },
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.idleTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    ...options,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(portalApp, { domain });
  return app;
}

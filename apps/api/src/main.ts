import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { SchemaBehindError } from './db/client.ts';
import { DatabaseInUseError } from './db/pglite-lock.ts';
import { buildDomain } from './domain.ts';
import { openInfrastructure } from './infrastructure.ts';
import { createLogger } from './observability/logging.ts';
import { startManagementServer } from './observability/metrics-route.ts';
import { flushTracing } from './observability/tracing-switch.ts';

/**
 * Opens the infrastructure, builds and starts the domain, listens, and shuts down gracefully; everything else
 * lives in app.ts and domain.ts, so tests load the same thing. Started by server.ts, after the tracing SDK when
 * tracing is switched on.
 */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee .env.example for every variable.\n`);
      process.exit(78);
    }
    throw error;
  }

  let infrastructure;
  try {
    infrastructure = await openInfrastructure(config);
  } catch (error) {
    if (!(error instanceof DatabaseInUseError || error instanceof SchemaBehindError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(75);
  }
  const log = createLogger(config);
  const domain = buildDomain(infrastructure, { log });
  await domain.start();
  const app = await createApp(domain, log);

  // Before the API's port: a scraper finds the instance as soon as it could take traffic.
  const management =
    config.metricsPort === undefined
      ? undefined
      : await startManagementServer(domain, { host: config.host, port: config.metricsPort, logger: log });

  let closing = false;
  /**
   * Draining: readiness fails at once while the server keeps answering for the grace period, so a load
   * balancer moves new work elsewhere; then the listener closes (new connections are refused), requests
   * in flight finish, idle keep-alive connections are closed, and the process exits 0.
   */
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.readiness.draining = true;
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'draining');
    const force = setTimeout(() => process.exit(1), config.shutdownGraceMs + 15_000).unref();
    try {
      await new Promise((resolve) => setTimeout(resolve, config.shutdownGraceMs));
      app.log.info('closing');
      await app.close();
      await management?.close();
      await domain.close();
      await infrastructure.close();
      await flushTracing();
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

await main();

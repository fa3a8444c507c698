import type { FastifyInstance } from 'fastify';
import { seedDemoInvoices } from './seed-demo-invoices.ts';
import { seedDemoUsers } from './seed-demo-users.ts';

/** The demo data of the operational contract; the configuration allows it only in emulator mode. */
export async function seedDemoData(app: FastifyInstance) {
  await seedDemoUsers(app.identity, app.usersRepository);
  await seedDemoInvoices(app.blobStore, app.invoicesRepository);
  app.log.info('demo data seeded');
}

export { renderDemoInvoicePdf } from './invoice-pdf.ts';
export { seedDemoData, seedDemoInvoices, seedDemoUsers, seedDemoDataFromEnv } from './seed.ts';

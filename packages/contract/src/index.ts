export * from './email.ts';
export * from './users.ts';
export * from './invoices.ts';
export * from './audit.ts';
export * from './runtime-config.ts';
export * from './errors.ts';
export * from './version.ts';

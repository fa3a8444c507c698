import { z } from 'zod';

export const PARCEL_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const parcelCodeSchema = z
  .string()
  .regex(PARCEL_CODE_PATTERN, 'A parcel code is 1 to 64 letters, digits, "-" or "_"');

export const invoiceQuerySchema = z.object({ parcelCode: parcelCodeSchema });

export const invoiceStoredSchema = z.object({
  parcelCode: z.string(),
  sha256: z.string(),
  size: z.number(),
  status: z.enum(['created', 'replaced', 'unchanged']),
});
export type InvoiceStored = z.infer<typeof invoiceStoredSchema>;

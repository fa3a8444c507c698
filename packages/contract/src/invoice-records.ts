import { z } from 'zod';
import { invoiceFormatSchema, invoiceWarningKindSchema, parcelCodeSchema } from './invoices.ts';

/** A version's EN 16931 check as its history lists it: the outcome and the rules broken, never a value found. */
export const versionValidationSchema = z.object({
  status: z.enum(['valid', 'warnings', 'invalid']),
  rulesVersion: z.string().describe('The edition of the rules that made the report'),
  findingCount: z.number().int().describe('Every finding, fatal or warning, including those not stored'),
  fatalRules: z.array(z.string()).describe('The rules its fatal findings break, each once'),
});
export type VersionValidation = z.infer<typeof versionValidationSchema>;

/** One entry of GET /recent-invoices: an invoice the caller opened, still there to open. */
export const recentInvoiceSchema = z.object({
  parcelCode: z.string(),
  /** When the caller last opened its PDF (ISO 8601). */
  openedAt: z.string(),
  format: invoiceFormatSchema,
  invoiceNumber: z.string().nullable(),
  typeCode: z.string().nullable(),
  sellerName: z.string().nullable(),
  amountDue: z.string().nullable(),
  currency: z.string().nullable(),
});
export type RecentInvoice = z.infer<typeof recentInvoiceSchema>;

export const recentInvoicesSchema = z.object({ invoices: z.array(recentInvoiceSchema) });
export type RecentInvoices = z.infer<typeof recentInvoicesSchema>;

/** A warning a version raised, as its history shows it: what changed, and whether a second person looked. */
export const versionWarningSchema = z.object({
  kind: invoiceWarningKindSchema,
  detail: z.string(),
  acknowledged: z.boolean(),
});

/** One version of an invoice in GET /invoices/:parcelCode/versions, newest first. */
export const invoiceVersionSchema = z.object({
  id: z.number().int(),
  /** When it was stored (ISO 8601). */
  receivedAt: z.string(),
  /**
   * Who stored it: an administrator's e-mail, `service` (the ingestion token) or the CLI's operator label; for a
   * caller who is not a stepped-up administrator or finance user, only the kind: `service`, `administrator` or
   * `operator`.
   */
  receivedFrom: z.string(),
  format: invoiceFormatSchema,
  profileName: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  typeCode: z.string().nullable(),
  issueDate: z.string().nullable(),
  amountDue: z.string().nullable(),
  totalGross: z.string().nullable(),
  currency: z.string().nullable(),
  /** BT-84 of every payment means, as written; null for a plain PDF, and for a version not current unless stepped up. */
  paymentAccounts: z.array(z.string()).nullable(),
  sha256: z.string(),
  size: z.number().int(),
  hasXml: z.boolean(),
  /** The version GET /invoice answers now. */
  current: z.boolean(),
  /**
   * Whether the caller may download this version's PDF and XML: always for a stepped-up administrator or
   * finance user, otherwise only the current version's.
   */
  downloadable: z.boolean(),
  /** The change guard's markers: what this version changed against the ones before it. */
  warnings: z.array(versionWarningSchema),
  /**
   * The EN 16931 check of this version, made when it arrived (or by `invoices revalidate`); null for a plain
   * PDF, a version stored before the check, or when the operator keeps no report. The current version's whole
   * report, with each finding, is in GET /invoices/:parcelCode.
   */
  validation: versionValidationSchema.nullable(),
});
export type InvoiceVersion = z.infer<typeof invoiceVersionSchema>;

export const invoiceHistorySchema = z.object({ parcelCode: z.string(), versions: z.array(invoiceVersionSchema) });
export type InvoiceHistory = z.infer<typeof invoiceHistorySchema>;

export const invoiceVersionParamsSchema = z.object({
  parcelCode: parcelCodeSchema,
  versionId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** One of the caller's own "tell me when it arrives" requests. */
export const arrivalNoticeSchema = z.object({
  id: z.number().int(),
  parcelCode: z.string(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  /** Set once the invoice arrived: the mail is on its way. */
  arrivedAt: z.string().nullable(),
});
export type ArrivalNotice = z.infer<typeof arrivalNoticeSchema>;

export const arrivalNoticesSchema = z.object({ notices: z.array(arrivalNoticeSchema), limit: z.number().int() });
export type ArrivalNotices = z.infer<typeof arrivalNoticesSchema>;

export const arrivalNoticeRequestSchema = z.object({ parcelCode: parcelCodeSchema }).strict();
export const arrivalNoticeParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

import type { InvoiceHistory } from '@portal/contract';

/** Who sent a version, told to someone who may not learn which person: the kind of sender only. */
export type SenderKind = 'service' | 'administrator' | 'operator';

/** `service` is the ingestion token; an e-mail is an administrator's upload; anything else the CLI's `cli:` label. */
export function senderKindOf(uploadedBy: string): SenderKind {
  if (uploadedBy === 'service') return 'service';
  return uploadedBy.includes('@') ? 'administrator' : 'operator';
}

/**
 * The history as a person reads it who holds a parcel code and nothing more: every version with its date,
 * format, amounts and the change guard's markers (what lets them stop before paying), the kind of sender in
 * place of the person, and the payment accounts and files of the current version only (those its PDF and facts
 * show anyway). Who uploaded each version and every account ever named are for administrators and finance, stepped
 * up with their passkey: a list of past accounts is the list a fraudster needs to pick a convincing one.
 */
export function historyForHolderOfCode(history: InvoiceHistory): InvoiceHistory {
  return {
    parcelCode: history.parcelCode,
    versions: history.versions.map((version) => ({
      ...version,
      receivedFrom: senderKindOf(version.receivedFrom),
      paymentAccounts: version.current ? version.paymentAccounts : null,
      downloadable: version.current,
    })),
  };
}

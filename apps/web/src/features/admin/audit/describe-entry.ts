import type { AuditAction, AuditEntry, AuditEventGroup } from '@portal/contract';

/** The event groups the audit log's filter offers, in its order; the first is what the tab opens with. */
export const AUDIT_EVENT_CHOICES: readonly { value: AuditEventGroup; label: string }[] = [
  { value: 'no-confirmations', label: 'All but passkey confirmations' },
  { value: 'all', label: 'Everything' },
  { value: 'users', label: 'Users and sessions' },
  { value: 'invoices', label: 'Invoices' },
  { value: 'passkeys', label: 'Passkeys' },
  { value: 'refused', label: 'Refused calls' },
];

export const DEFAULT_AUDIT_EVENTS: AuditEventGroup = 'no-confirmations';

/** Typed by the contract's list, so an action the server starts writing cannot reach the log unnamed. */
const ACTIONS: Record<AuditAction, string> = {
  'users.add': 'Added user',
  'users.remove': 'Deleted user',
  'users.account-cleanup': 'Deleted the sign-in account of',
  'users.take-over-account': 'Took over the sign-in account of',
  'users.unbind-shared-account': 'Unbound a shared sign-in account from',
  'users.directory-update': 'Directory updated user',
  'users.make-admin': 'Made admin',
  'users.remove-admin': 'Removed admin',
  'users.grant-finance': 'Gave finance access to',
  'users.remove-finance': 'Removed finance access from',
  'users.approval-requested': 'Asked a second administrator to approve a change for',
  'users.approval-approved': 'Approved a change for',
  'users.approval-rejected': 'Turned down a change for',
  'sessions.end': 'Ended the sessions of',
  'sso.link': 'Linked a company sign-in to',
  'sso.link-refused': 'Refused a company sign-in for',
  'invoice.download': 'Opened invoice',
  'invoice.download-xml': 'Downloaded the XML of invoice',
  'invoice.download-zip': 'Downloaded a ZIP of',
  'invoice.search': 'Searched the invoices',
  'invoice.history': 'Read the history of invoice',
  'invoice.arrival-notice-request': 'Asked to be told when it arrives: invoice',
  'invoice.arrival-notice-cancel': 'Cancelled the arrival notice for invoice',
  'invoice.arrival-notice': 'Sent the arrival notice for invoice',
  'invoice.facts': 'Read the details of invoice',
  'invoice.ingest': 'Stored invoice',
  'invoice.revalidate': 'Validated stored e-invoices again',
  'invoice.bank-details-changed': 'Bank details changed on invoice',
  'invoice.amount-changed': 'Amount changed on invoice',
  'invoice.e-invoice-removed': 'Plain PDF replaced the e-invoice',
  'invoice.visible-account-mismatch': 'PDF shows an account its data does not have, invoice',
  'invoice.visible-text-unread': 'PDF text not checked, invoice',
  'invoice.warning-acknowledged': 'Acknowledged a warning on invoice',
  'passkeys.enroll': 'Set up a passkey',
  'passkeys.step-up': 'Confirmed with a passkey',
  'passkeys.reset': 'Reset the passkeys of',
  'passkeys.enrollment-code': 'Issued a passkey set-up code for',
};

/** A refused call is logged by its route (`DELETE /api/users/:email`): named here as people ask for it. */
const ROUTES: Record<string, string> = {
  'GET /api/users': 'List users',
  'POST /api/users/bulk-add': 'Add users in bulk',
  'POST /api/users/bulk-delete': 'Delete users in bulk',
  'GET /api/users/:email': 'Look up a user',
  'POST /api/users/:email': 'Add a user',
  'PUT /api/users/:email': 'Change a user',
  'PATCH /api/users/:email': 'Change a user',
  'DELETE /api/users/:email': 'Delete a user',
  'DELETE /api/users/:email/sessions': 'End a user’s sessions',
  'DELETE /api/users/:email/passkeys': 'Reset a user’s passkeys',
  'GET /api/audit': 'Read the audit log',
  'GET /api/account-cleanups': 'Read the pending clean-ups',
  'GET /api/invoices': 'Search the invoices',
  'POST /api/invoices/zip': 'Download invoices as a ZIP',
  'GET /api/invoices/:parcelCode': 'Open an invoice',
  'PUT /api/invoices/:parcelCode': 'Store an invoice',
  'GET /api/invoices/:parcelCode/xml': 'Download an invoice’s XML',
  'POST /api/invoices/:parcelCode/warnings/:warningId/acknowledge': 'Acknowledge an invoice warning',
  'DELETE /api/me/sessions': 'Sign out everywhere',
};

const ROUTE = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/;

/** What happened, in words: a known action's name, a refused route's purpose, else the action as logged. */
export function describeAction(action: string): string {
  if (Object.hasOwn(ACTIONS, action)) return ACTIONS[action as AuditAction];
  const route = ROUTE.exec(action);
  if (!route) return action;
  if (ROUTES[action]) return ROUTES[action];
  if (route[2]!.startsWith('/api/me/passkeys') || route[2]!.startsWith('/api/me/step-up')) return 'Passkey ceremony';
  return 'A call to the portal';
}

/** Who did it: an address as it is, the command line and the import service by name. */
export function describeActor(actor: string | null): string {
  if (actor === null) return 'an anonymous caller';
  if (actor === 'service') return 'the invoice import service';
  if (actor.startsWith('cli:')) return `${actor.slice(4)} (command line)`;
  return actor;
}

/**
 * The detail as a person reads it: without the identity provider's user ids, file hashes and warning numbers
 * (internal keys an admin cannot act on), and without the HTTP status before a refusal's message.
 */
export function describeDetail(detail: string | null): string | null {
  if (!detail) return null;
  const readable = detail
    .split(/;\s*/)
    .map((part) =>
      part
        .replace(/\s*\(uid [^)]*\)/g, '')
        .replace(/\s*\buid [^\s,;)]+/g, '')
        .replace(/\s*\bsha256[ =][0-9a-f]+/gi, '')
        .replace(/\s*\(warning \d+\)/g, '')
        .replace(/\bwarning \d+: /g, '')
        .replace(/\bformat=(\w+)/g, 'as $1')
        .replace(/\bsize=(\d+)/g, (_, bytes: string) => `${Number(bytes).toLocaleString('en-GB')} bytes`)
        .replace(/\bwarnings=(\d+)/g, '$1 reading warnings')
        .replace(/^\d{3} /, '')
        .replace(/ -> /g, ' \u2192 ')
        .trim(),
    )
    .filter((part) => part !== '')
    .join('; ');
  return readable || null;
}

/** An admin's own ceremonies name the admin twice (as actor and target): said once. */
const OWN_CEREMONIES = new Set(['passkeys.enroll', 'passkeys.step-up']);

/** An entry as the log's card or row shows it. */
export function describeEntry(entry: AuditEntry) {
  return {
    what: describeAction(entry.action),
    target: OWN_CEREMONIES.has(entry.action) && entry.target === entry.actor ? null : entry.target,
    by: describeActor(entry.actor),
    from: entry.client === '*' ? 'many clients' : entry.client,
    detail: describeDetail(entry.detail),
    times: entry.count > 1 ? entry.count : null,
  };
}

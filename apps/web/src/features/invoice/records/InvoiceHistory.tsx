import type { InvoiceVersion } from '@portal/contract';
import { documentTypeName } from '@portal/contract/invoice-codes';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useApiClient } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { formatMoney, groupedAccount } from '../facts/format';
import { downloadVersion, useInvoiceHistory } from './records-api';

const FORMAT_NAMES: Record<InvoiceVersion['format'], string> = {
  pdf: 'PDF',
  facturx: 'PDF with e-invoice XML',
  cii: 'XML e-invoice (CII)',
  ubl: 'XML e-invoice (UBL)',
};

const WARNING_NAMES: Record<InvoiceVersion['warnings'][number]['kind'], string> = {
  'bank-details': 'Bank details changed',
  amount: 'Amount changed',
  'e-invoice-removed': 'E-invoice replaced by a plain PDF',
  'visible-account': 'Account on the PDF not in its XML',
  'visible-text-unread': 'PDF text could not be checked',
};

/**
 * Who sent a version, as people read it: the ingestion token is "the ingestion service"; someone who is not a
 * stepped-up administrator or finance user is told the kind of sender only, never the person.
 */
const SENDER_KINDS: Record<string, string> = {
  service: 'Ingestion service',
  administrator: 'An administrator',
  operator: 'An operator (command line)',
};
const senderOf = (from: string) => SENDER_KINDS[from] ?? from;

/**
 * A version's EN 16931 check in a few words, with the rules an invalid one breaks; null when it has no report.
 * The current version's findings, each explained, are on the facts panel.
 */
export function versionValidationText(validation: InvoiceVersion['validation'] | undefined): string | null {
  if (!validation) return null;
  if (validation.status === 'valid') return 'Valid';
  if (validation.status === 'warnings')
    return `${validation.findingCount} ${validation.findingCount === 1 ? 'warning' : 'warnings'}`;
  return `Invalid: ${validation.fatalRules.join(', ')}`;
}

function VersionEntry({ parcelCode, version }: { parcelCode: string; version: InvoiceVersion }) {
  const api = useApiClient();
  const [busy, setBusy] = useState<'pdf' | 'xml' | null>(null);
  const [failed, setFailed] = useState(false);
  const download = async (part: 'pdf' | 'xml') => {
    setBusy(part);
    setFailed(false);
    try {
      await downloadVersion(api, parcelCode, version.id, part);
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
    }
  };
  const accounts = version.paymentAccounts?.map((account) => groupedAccount(account)).join(', ');
  const validationText = versionValidationText(version.validation);
  const what = version.invoiceNumber ? `${documentTypeName(version.typeCode)} ${version.invoiceNumber}` : null;
  return (
    <li className={version.current ? 'invoice-version current' : 'invoice-version'}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <strong>{formatDateTime(version.receivedAt)}</strong>
        {version.current && <Badge bg="primary">Current</Badge>}
        {version.warnings.map((warning, index) => (
          <Badge
            key={index}
            bg={warning.acknowledged ? 'secondary' : 'warning'}
            text={warning.acknowledged ? undefined : 'dark'}
            title={warning.detail}
          >
            {WARNING_NAMES[warning.kind]}
            {warning.acknowledged ? ' (checked)' : ''}
          </Badge>
        ))}
      </div>
      <dl className="invoice-version-facts small mb-2">
        <div>
          <dt>From</dt>
          <dd className="text-break">{senderOf(version.receivedFrom)}</dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd>
            {FORMAT_NAMES[version.format]}
            {version.profileName ? `, ${version.profileName}` : ''}
          </dd>
        </div>
        {what && (
          <div>
            <dt>Document</dt>
            <dd>{what}</dd>
          </div>
        )}
        {validationText && (
          <div>
            <dt>EN 16931</dt>
            <dd className={version.validation?.status === 'invalid' ? 'text-danger-emphasis' : undefined}>
              {version.validation?.status === 'invalid' ? (
                <>
                  Invalid:{' '}
                  {version.validation.fatalRules.map((rule, index) => (
                    // A rule id is one word: "BR-CO-13" never breaks at its hyphens.
                    <span key={rule} className="text-nowrap">
                      {rule}
                      {index < version.validation!.fatalRules.length - 1 ? ', ' : ''}
                    </span>
                  ))}
                </>
              ) : (
                validationText
              )}
            </dd>
          </div>
        )}
        {version.amountDue !== null && (
          <div>
            <dt>Amount</dt>
            <dd>{formatMoney(version.amountDue, version.currency)}</dd>
          </div>
        )}
        {accounts && (
          <div>
            <dt>IBAN</dt>
            <dd className="font-monospace text-break">{accounts}</dd>
          </div>
        )}
      </dl>
      {/* Earlier versions' files are for stepped-up administrators and finance users; `undefined`: an older API. */}
      {version.downloadable !== false && (
        <div className="d-flex flex-wrap gap-2">
          <Button size="sm" variant="outline-primary" onClick={() => void download('pdf')} disabled={busy !== null}>
            {busy === 'pdf' && <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />}
            Download PDF<span className="visually-hidden"> of the version of {formatDateTime(version.receivedAt)}</span>
          </Button>
          {version.hasXml && (
            <Button size="sm" variant="outline-primary" onClick={() => void download('xml')} disabled={busy !== null}>
              {busy === 'xml' && <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />}
              Download XML
              <span className="visually-hidden"> of the version of {formatDateTime(version.receivedAt)}</span>
            </Button>
          )}
        </div>
      )}
      {failed && (
        <p className="small text-danger mt-2 mb-0" role="alert">
          The file could not be downloaded. Please try again.
        </p>
      )}
    </li>
  );
}

/** Every version the invoice had, newest first, each downloadable, the one shown marked "Current". */
export function InvoiceHistory({ parcelCode }: { parcelCode: string }) {
  const history = useInvoiceHistory(parcelCode);
  let content;
  if (history.isPending) {
    content = (
      <Spinner animation="border" size="sm" role="status">
        <span className="visually-hidden">Loading the history</span>
      </Spinner>
    );
  } else if (history.isError) {
    content = <p className="text-danger mb-0">The history could not be loaded.</p>;
  } else {
    content = (
      <ol className="invoice-versions list-unstyled mb-0">
        {history.data.map((version) => (
          <VersionEntry key={version.id} parcelCode={parcelCode} version={version} />
        ))}
      </ol>
    );
  }
  return (
    <section id="invoice-history" className="invoice-history card mb-3" aria-labelledby="invoice-history-title">
      <div className="card-body">
        <h2 id="invoice-history-title" className="h6">
          History{history.data ? ` (${history.data.length} ${history.data.length === 1 ? 'version' : 'versions'})` : ''}
        </h2>
        {content}
      </div>
    </section>
  );
}

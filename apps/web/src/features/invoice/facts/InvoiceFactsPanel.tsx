import type { InvoiceFacts } from '@portal/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useApiClient } from '@/lib/api-client';
import { downloadInvoiceXml } from '../api/get-invoice-facts';
import { documentTypeName, isCreditNote } from '@portal/contract/invoice-codes';
import { britishDate, formatMoney, groupedAccount } from './format';
import { InvoiceValidation } from './InvoiceValidation';
import { InvoiceWarnings } from './InvoiceWarnings';

const DASH = '\u2014';

interface InvoiceFactsPanelProps {
  facts: InvoiceFacts;
}

/**
 * What an e-invoice says at a glance, beside its PDF: number, dates, amount due, who bills whom and where
 * to pay, with the change guard's warnings until a second person has acknowledged them. A plain PDF gets the
 * panel only for those warnings (one that replaced an e-invoice), and then shows nothing else.
 */
export function InvoiceFactsPanel({ facts }: InvoiceFactsPanelProps) {
  const api = useApiClient();
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const eInvoice = facts.format !== 'pdf';

  const downloadXml = async () => {
    setDownloading(true);
    setDownloadFailed(false);
    try {
      await downloadInvoiceXml(api, facts.parcelCode);
    } catch {
      setDownloadFailed(true);
    } finally {
      setDownloading(false);
    }
  };

  const rows: [string, string | null][] = [
    ['Number', facts.invoiceNumber],
    ['Issued', britishDate(facts.issueDate)],
    ['Due', britishDate(facts.dueDate)],
    // A credit note's amount is owed to the buyer: "due" would read as a bill to pay.
    [isCreditNote(facts.typeCode) ? 'Amount credited' : 'Amount due', formatMoney(facts.amountDue, facts.currency)],
    ['Seller \u2192 buyer', `${facts.sellerName ?? DASH} \u2192 ${facts.buyerName ?? DASH}`],
    ['IBAN', groupedAccount(facts.iban)],
  ];

  return (
    <aside className="invoice-facts card" aria-labelledby="invoice-facts-title">
      <div className="card-body">
        <h2 id="invoice-facts-title" className="h6 mb-1">
          {documentTypeName(facts.typeCode)} details
        </h2>
        {facts.profileName && <p className="small text-body-secondary mb-2">{facts.profileName}</p>}
        {eInvoice && facts.validation && <InvoiceValidation validation={facts.validation} />}
        <InvoiceWarnings parcelCode={facts.parcelCode} warnings={facts.warnings} />
        {eInvoice && (
          <dl className="invoice-facts-list mb-2">
            {rows.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd className={label === 'IBAN' || label === 'Number' ? 'font-monospace text-break' : 'text-break'}>
                  {value ?? DASH}
                </dd>
              </div>
            ))}
          </dl>
        )}
        {facts.pdfIsRendering && (
          <p className="small text-body-secondary mb-2">
            The PDF shown is the portal&apos;s rendering of this XML invoice; the XML is the original.
          </p>
        )}
        {facts.hasXml && (
          <Button
            variant="outline-primary"
            size="sm"
            className="invoice-xml-button"
            onClick={() => void downloadXml()}
            disabled={downloading}
          >
            {downloading && <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />}
            Download XML
          </Button>
        )}
        {downloadFailed && (
          <p className="small text-danger mt-2 mb-0" role="alert">
            The XML could not be downloaded. Please try again.
          </p>
        )}
      </div>
    </aside>
  );
}

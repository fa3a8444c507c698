import { documentTypeName } from '@portal/contract/invoice-codes';
import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';
import { formatMoney } from '../facts/format';
import { useRecentInvoices } from './records-api';

export const RECENT_MENU_LABEL = 'Recently opened';

/**
 * The person's own last invoices, one click away: asked for only when the menu opens, so the screen's first
 * load is the spec's alone. Each entry is a link to the invoice screen with that code.
 */
export function RecentInvoicesMenu({ current }: { current: string | null }) {
  const [open, setOpen] = useState(false);
  const recent = useRecentInvoices(open);
  const invoices = recent.data?.filter((invoice) => invoice.parcelCode !== current);

  let content;
  if (recent.isPending) {
    content = (
      <Dropdown.ItemText className="text-center">
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">Loading recently opened invoices</span>
        </Spinner>
      </Dropdown.ItemText>
    );
  } else if (recent.isError) {
    content = <Dropdown.ItemText className="text-danger small">The list could not be loaded.</Dropdown.ItemText>;
  } else if (!invoices?.length) {
    content = <Dropdown.ItemText className="text-body-secondary small">No other invoice opened yet.</Dropdown.ItemText>;
  } else {
    content = invoices.map((invoice) => {
      const what = [
        invoice.invoiceNumber ? `${documentTypeName(invoice.typeCode)} ${invoice.invoiceNumber}` : null,
        invoice.sellerName,
        formatMoney(invoice.amountDue, invoice.currency),
      ].filter(Boolean);
      return (
        <Dropdown.Item
          key={invoice.parcelCode}
          as={Link}
          to={`${paths.invoice}?${new URLSearchParams({ parcelCode: invoice.parcelCode }).toString()}`}
          className="recent-invoice-item"
        >
          <span className="font-monospace d-block">{invoice.parcelCode}</span>
          {what.length > 0 && (
            <span className="small text-body-secondary d-block text-truncate">{what.join(' · ')}</span>
          )}
        </Dropdown.Item>
      );
    });
  }

  return (
    <Dropdown align="end" onToggle={(next) => setOpen(next)} className="recent-invoices">
      <Dropdown.Toggle variant="outline-dark">{RECENT_MENU_LABEL}</Dropdown.Toggle>
      <Dropdown.Menu className="recent-invoices-menu" popperConfig={{ strategy: 'fixed' }}>
        {content}
      </Dropdown.Menu>
    </Dropdown>
  );
}

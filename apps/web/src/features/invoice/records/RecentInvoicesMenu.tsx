import { documentTypeName } from '@portal/contract/invoice-codes';
import { useEffect, useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from '@/lib/router';
import { invoicePathFor } from '@/lib/paths';
import { formatMoney } from '../facts/format';
import { useRecentInvoices } from './records-api';

export const RECENT_MENU_LABEL = 'Recently opened';

/**
 * The person's own last invoices, one click away: asked for only when the menu opens, so the screen's first
 * load is the spec's alone. Each entry is a link to the invoice screen with that code. A disclosure of its own
 * rather than react-bootstrap's Dropdown: that would add its positioning library to the invoice link's first
 * load for one menu.
 */
export function RecentInvoicesMenu({ current }: { current: string | null }) {
  const [open, setOpen] = useState(false);
  // Fixed under the button and kept on screen: at the end of the row on a laptop, wherever the row wraps on a phone.
  const [place, setPlace] = useState<{ top: number; left: number; width: number } | null>(null);
  const recent = useRecentInvoices(open);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const close = () => setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', close);
    };
  }, [open]);
  const invoices = recent.data?.filter((invoice) => invoice.parcelCode !== current);

  let content;
  if (recent.isPending) {
    content = (
      <span className="dropdown-item-text text-center">
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">Loading recently opened invoices</span>
        </Spinner>
      </span>
    );
  } else if (recent.isError) {
    content = <span className="dropdown-item-text text-danger small">The list could not be loaded.</span>;
  } else if (!invoices?.length) {
    content = <span className="dropdown-item-text text-body-secondary small">No other invoice opened yet.</span>;
  } else {
    content = invoices.map((invoice) => {
      const what = [
        invoice.invoiceNumber ? `${documentTypeName(invoice.typeCode)} ${invoice.invoiceNumber}` : null,
        invoice.sellerName,
        formatMoney(invoice.amountDue, invoice.currency),
      ].filter(Boolean);
      return (
        <Link
          key={invoice.parcelCode}
          onClick={() => setOpen(false)}
          to={invoicePathFor(invoice.parcelCode)}
          className="dropdown-item recent-invoice-item"
        >
          <span className="font-monospace d-block">{invoice.parcelCode}</span>
          {what.length > 0 && (
            <span className="small text-body-secondary d-block text-truncate">{what.join(' · ')}</span>
          )}
        </Link>
      );
    });
  }

  return (
    <div className="recent-invoices position-relative" ref={root}>
      <Button
        ref={toggle}
        variant="outline-dark"
        className="dropdown-toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          const rect = toggle.current?.getBoundingClientRect();
          if (rect) {
            const width = Math.min(352, window.innerWidth - 32);
            const left = Math.max(16, Math.min(rect.right - width, window.innerWidth - 16 - width));
            setPlace({ top: rect.bottom + 4, left, width });
          }
          setOpen(!open);
        }}
      >
        {RECENT_MENU_LABEL}
      </Button>
      {open && (
        <div
          id={menuId}
          className="dropdown-menu show recent-invoices-menu"
          style={place ? { position: 'fixed', top: place.top, left: place.left, width: place.width } : undefined}
        >
          {content}
        </div>
      )}
    </div>
  );
}

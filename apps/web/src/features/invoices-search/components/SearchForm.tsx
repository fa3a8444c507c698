import { INVOICE_FORMATS, INVOICE_VALIDATION_STATUSES, type InvoiceFilter } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { FORMAT_NAMES, VALIDATION_FILTER_NAMES } from '../messages';

type Draft = Record<keyof InvoiceFilter, string>;
const EMPTY: Draft = {
  parcelCode: '',
  invoiceNumber: '',
  seller: '',
  buyer: '',
  issuedFrom: '',
  issuedTo: '',
  amountMin: '',
  amountMax: '',
  format: '',
  bankDetailsChanged: '',
  validation: '',
};
const draftOf = (filter: InvoiceFilter): Draft => ({ ...EMPTY, ...filter });

/** The draft as a filter: blank fields left out, so the address and the server see only what was typed. */
function filterOf(draft: Draft): InvoiceFilter {
  const filter: Record<string, string> = {};
  for (const [field, value] of Object.entries(draft)) if (value.trim()) filter[field] = value.trim();
  return filter as InvoiceFilter;
}

const TEXT_FIELDS: [keyof Draft, string, string][] = [
  ['parcelCode', 'Parcel code', 'starts with'],
  ['invoiceNumber', 'Invoice number', 'starts with'],
  ['seller', 'Seller', 'contains'],
  ['buyer', 'Buyer', 'contains'],
];

/**
 * Every filter of the search in one form, applied together with Search (or Enter), so typing in one field
 * does not send a search per letter over millions of invoices. "Clear" empties them all.
 */
export function SearchForm({ filter, onSearch }: { filter: InvoiceFilter; onSearch: (filter: InvoiceFilter) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(filter));
  const [shown, setShown] = useState(filter);
  // The address changed under the form (Back, a shared link): show what it says.
  if (shown !== filter && JSON.stringify(shown) !== JSON.stringify(filter)) {
    setShown(filter);
    setDraft(draftOf(filter));
  }
  const set = (field: keyof Draft) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(filterOf(draft));
  };
  return (
    <form className="invoice-search-form" onSubmit={submit} aria-label="Search invoices">
      {TEXT_FIELDS.map(([field, label, hint]) => (
        <div className="search-field" key={field}>
          <label className="form-label" htmlFor={`search-${field}`}>
            {label} <span className="small">({hint})</span>
          </label>
          <input
            id={`search-${field}`}
            className="form-control form-control-sm"
            value={draft[field]}
            onChange={(event) => set(field)(event.target.value)}
            autoComplete="off"
          />
        </div>
      ))}
      <fieldset className="search-field search-range search-dates">
        <legend className="form-label">Issued</legend>
        <label className="visually-hidden" htmlFor="search-issuedFrom">
          Issued from
        </label>
        <input
          id="search-issuedFrom"
          type="date"
          className="form-control form-control-sm"
          value={draft.issuedFrom}
          onChange={(event) => set('issuedFrom')(event.target.value)}
        />
        <span aria-hidden="true">–</span>
        <label className="visually-hidden" htmlFor="search-issuedTo">
          Issued to
        </label>
        <input
          id="search-issuedTo"
          type="date"
          className="form-control form-control-sm"
          value={draft.issuedTo}
          onChange={(event) => set('issuedTo')(event.target.value)}
        />
      </fieldset>
      <fieldset className="search-field search-range">
        <legend className="form-label">Amount (gross)</legend>
        <label className="visually-hidden" htmlFor="search-amountMin">
          Smallest amount
        </label>
        <input
          id="search-amountMin"
          inputMode="decimal"
          placeholder="from"
          className="form-control form-control-sm"
          value={draft.amountMin}
          onChange={(event) => set('amountMin')(event.target.value)}
        />
        <span aria-hidden="true">–</span>
        <label className="visually-hidden" htmlFor="search-amountMax">
          Largest amount
        </label>
        <input
          id="search-amountMax"
          inputMode="decimal"
          placeholder="to"
          className="form-control form-control-sm"
          value={draft.amountMax}
          onChange={(event) => set('amountMax')(event.target.value)}
        />
      </fieldset>
      <div className="search-field">
        <label className="form-label" htmlFor="search-format">
          Format
        </label>
        <select
          id="search-format"
          className="form-select form-select-sm"
          value={draft.format}
          onChange={(event) => set('format')(event.target.value)}
        >
          <option value="">Any</option>
          {INVOICE_FORMATS.map((format) => (
            <option key={format} value={format}>
              {FORMAT_NAMES[format]}
            </option>
          ))}
        </select>
      </div>
      <div className="search-field">
        <label className="form-label" htmlFor="search-validation">
          Validation
        </label>
        <select
          id="search-validation"
          className="form-select form-select-sm"
          value={draft.validation}
          onChange={(event) => set('validation')(event.target.value)}
        >
          <option value="">Any</option>
          {INVOICE_VALIDATION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {VALIDATION_FILTER_NAMES[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="search-field search-check">
        <div className="form-check">
          <input
            id="search-bankDetailsChanged"
            type="checkbox"
            className="form-check-input"
            checked={draft.bankDetailsChanged === 'true'}
            onChange={(event) => set('bankDetailsChanged')(event.target.checked ? 'true' : '')}
          />
          <label className="form-check-label" htmlFor="search-bankDetailsChanged">
            Bank details changed
          </label>
        </div>
      </div>
      <div className="search-buttons">
        <Button type="submit" size="sm">
          Search
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline-primary"
          onClick={() => {
            setDraft(EMPTY);
            onSearch({});
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}

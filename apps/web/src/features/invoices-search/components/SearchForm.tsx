import { INVOICE_FORMATS, INVOICE_VALIDATION_STATUSES, type InvoiceFilter } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { FORMAT_NAMES, VALIDATION_FILTER_NAMES } from '../messages';
import { FilterRange, type RangeEnd } from './FilterRange';
import { LabelledSelect } from './LabelledSelect';

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

const DATE = { type: 'date' } as const;

const SELECT_FIELDS = [
  { field: 'format', label: 'Format', values: INVOICE_FORMATS, names: FORMAT_NAMES },
  { field: 'validation', label: 'Validation', values: INVOICE_VALIDATION_STATUSES, names: VALIDATION_FILTER_NAMES },
] as const;

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
  const end = (field: keyof Draft, label: string, input: RangeEnd['input']): RangeEnd => ({
    field,
    label,
    value: draft[field],
    onChange: set(field),
    input,
  });
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
      <FilterRange
        legend="Issued"
        className="search-dates"
        ends={[end('issuedFrom', 'Issued from', DATE), end('issuedTo', 'Issued to', DATE)]}
      />
      <FilterRange
        legend="Amount (gross)"
        ends={[
          end('amountMin', 'Smallest amount', { inputMode: 'decimal', placeholder: 'from' }),
          end('amountMax', 'Largest amount', { inputMode: 'decimal', placeholder: 'to' }),
        ]}
      />
      {SELECT_FIELDS.map(({ field, label, values, names }) => (
        <LabelledSelect
          key={field}
          field={field}
          label={label}
          values={values}
          names={names}
          value={draft[field]}
          onChange={set(field)}
        />
      ))}
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

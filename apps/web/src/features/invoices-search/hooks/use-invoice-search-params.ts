import {
  INVOICE_FORMATS,
  INVOICE_PAGE_SIZES,
  INVOICE_SORTS,
  INVOICE_VALIDATION_STATUSES,
  type InvoiceFilter,
  type InvoiceSort,
} from '@portal/contract';
import { useAddressQuery } from '@/hooks/use-address-query';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';

/** What the finance user chose to see; `page` counts from 0 (the address shows it from 1). */
export interface InvoiceSearchParams {
  filter: InvoiceFilter;
  sort: InvoiceSort;
  page: number;
  pageSize: number;
}

/** The names in the address: short, so a shared link stays readable (`/finance?seller=acme&from=2026-01-01`). */
const FILTER_NAMES: Record<Exclude<keyof InvoiceFilter, 'bankDetailsChanged' | 'format' | 'validation'>, string> = {
  parcelCode: 'parcel',
  invoiceNumber: 'number',
  seller: 'seller',
  buyer: 'buyer',
  issuedFrom: 'from',
  issuedTo: 'to',
  amountMin: 'min',
  amountMax: 'max',
};
const DEFAULT_SORT: InvoiceSort = '-received';
export const DESKTOP_PAGE_SIZE = 50;
export const PHONE_PAGE_SIZE = 25;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((candidate) => candidate === value);

/** The state in a query string; anything unknown reads as the default (the server still checks the rest). */
export function readSearchParams(query: URLSearchParams, defaultPageSize: number): InvoiceSearchParams {
  const filter: InvoiceFilter = {};
  for (const [field, name] of Object.entries(FILTER_NAMES) as [keyof typeof FILTER_NAMES, string][]) {
    const value = query.get(name)?.trim();
    if (value) filter[field] = value;
  }
  const format = oneOf(INVOICE_FORMATS, query.get('format'));
  if (format) filter.format = format;
  const validation = oneOf(INVOICE_VALIDATION_STATUSES, query.get('validation'));
  if (validation) filter.validation = validation;
  if (query.get('changed') === '1') filter.bankDetailsChanged = 'true';
  const size = Number(query.get('size'));
  const page = Number(query.get('page'));
  return {
    filter,
    sort: oneOf(INVOICE_SORTS, query.get('sort')) ?? DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    pageSize: (INVOICE_PAGE_SIZES as readonly number[]).includes(size) ? size : defaultPageSize,
  };
}

/** The query string of a state, leaving out what is the default. */
export function writeSearchParams(params: InvoiceSearchParams, defaultPageSize: number): URLSearchParams {
  const query = new URLSearchParams();
  for (const [field, name] of Object.entries(FILTER_NAMES) as [keyof typeof FILTER_NAMES, string][]) {
    const value = params.filter[field];
    if (value) query.set(name, value);
  }
  if (params.filter.format) query.set('format', params.filter.format);
  if (params.filter.validation) query.set('validation', params.filter.validation);
  if (params.filter.bankDetailsChanged) query.set('changed', '1');
  if (params.sort !== DEFAULT_SORT) query.set('sort', params.sort);
  if (params.page > 0) query.set('page', String(params.page + 1));
  if (params.pageSize !== defaultPageSize) query.set('size', String(params.pageSize));
  return query;
}

/** The API's query string of a state: the filter, the order, and the page as limit and offset. */
export function apiQueryOf(params: InvoiceSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const [field, value] of Object.entries(params.filter)) if (value) query.set(field, value);
  query.set('sort', params.sort);
  query.set('limit', String(params.pageSize));
  query.set('offset', String(params.page * params.pageSize));
  return query;
}

/**
 * The search, order, page and page size, kept in the address like the admin list's, so Back, reload and a
 * shared link show the same invoices. Anything but a new page starts again at the first.
 */
export function useInvoiceSearchParams() {
  const { query, change: changeAddress } = useAddressQuery();
  const defaultPageSize = useMediaQuery(PHONE_QUERY) ? PHONE_PAGE_SIZE : DESKTOP_PAGE_SIZE;
  const params = readSearchParams(query, defaultPageSize);
  const update = (change: Partial<InvoiceSearchParams>) =>
    changeAddress((current) =>
      writeSearchParams(
        { ...readSearchParams(current, defaultPageSize), ...change, page: change.page ?? 0 },
        defaultPageSize,
      ),
    );
  return { params, update, listKey: JSON.stringify(params) };
}

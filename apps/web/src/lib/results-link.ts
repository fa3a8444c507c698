import { paths } from '@/lib/paths';

/** What a link from the Invoices page carries to the invoice: the results' query, to go back to them. */
export interface FromResults {
  results: string;
}

export const fromResults = (search: string): FromResults => ({ results: search });

/** The Invoices page's address the invoice was opened from, or null when it was opened otherwise. */
export function resultsAddressOf(state: unknown): string | null {
  const results = (state as Partial<FromResults> | null)?.results;
  if (typeof results !== 'string' || (results !== '' && !results.startsWith('?'))) return null;
  return `${paths.finance}${results}`;
}

import { TOTAL_COUNT_HEADER } from '@portal/contract';

/** One screenful: small enough to render at once, and the server pages with an index even at 100,000 rows. */
export const PAGE_SIZE = 50;

/** The query string of page `page` (counted from 0). */
export const pageParams = (page: number) =>
  new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(page * PAGE_SIZE) });

/** Reads the total from the header the API sets on paged answers; an unpaged answer is its own total. */
export function totalOf(headers: Headers, rows: number): number {
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return headers.has(TOTAL_COUNT_HEADER) && Number.isFinite(total) ? total : rows;
}

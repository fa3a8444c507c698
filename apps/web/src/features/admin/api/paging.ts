import { TOTAL_COUNT_HEADER } from '@portal/contract';

/** One screenful: small enough to render at once, and the server pages with an index even at 100,000 rows. */
export const PAGE_SIZE = 50;

/** A phone's screenful of cards: half as many, so a page is not a long scroll to its pager. */
export const PHONE_PAGE_SIZE = 25;

/** The page sizes an admin can pick for the user list. */
export const PAGE_SIZES = [25, 50, 100, 200] as const;

/** The query string of page `page` (counted from 0). */
export const pageParams = (page: number, size: number = PAGE_SIZE) =>
  new URLSearchParams({ limit: String(size), offset: String(page * size) });

/** Reads the total from the header the API sets on paged answers; an unpaged answer is its own total. */
export function totalOf(headers: Headers, rows: number): number {
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return headers.has(TOTAL_COUNT_HEADER) && Number.isFinite(total) ? total : rows;
}

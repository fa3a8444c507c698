import Button from 'react-bootstrap/Button';

const count = new Intl.NumberFormat('en-GB');

/**
 * The page numbers worth a button: the first, the current one with its neighbours, and the last when it is
 * known; a gap marks pages left out, after the last number too when the list goes on past what is counted.
 */
function pageNumbers(page: number, lastPage: number, more: boolean): (number | 'gap')[] {
  const wanted = [...new Set([0, page - 1, page, page + 1, ...(more ? [] : [lastPage])])]
    .filter((n) => n >= 0 && n <= lastPage)
    .sort((a, b) => a - b);
  const numbers = wanted.flatMap((n, i) => (i > 0 && n - wanted[i - 1]! > 1 ? ['gap' as const, n] : [n]));
  return more ? [...numbers, 'gap'] : numbers;
}

/**
 * "1–50 of 100,000 users" with Previous, page numbers and Next; a new page is read from the top of the screen.
 * A list counted only up to a point (`totalIsAtLeast`) reads "of more than", and Next goes on past the count
 * as deep as the server pages (`maxPage`).
 */
export function Pager({
  page,
  pageSize,
  total,
  totalIsAtLeast = false,
  maxPage = Number.POSITIVE_INFINITY,
  noun,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  totalIsAtLeast?: boolean;
  /** The last page (counted from 0) the server answers, however many match. */
  maxPage?: number;
  noun: string;
  onPage: (page: number) => void;
}) {
  const lastCounted = Math.min(maxPage, Math.max(0, Math.ceil(total / pageSize) - 1));
  const more = totalIsAtLeast && Math.max(page, lastCounted) < maxPage;
  const lastPage = more ? Math.max(page + 1, lastCounted) : Math.max(page, lastCounted);
  const go = (next: number) => {
    onPage(next);
    // The next page starts at the top of the screen, not at the pager where the reader left the last one.
    window.scrollTo({ top: 0 });
  };
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  const of = totalIsAtLeast ? `more than ${count.format(total)}` : count.format(total);
  return (
    <nav className="d-flex align-items-center justify-content-between gap-2 flex-wrap" aria-label={`${noun} pages`}>
      <span className="text-body-secondary small" aria-live="polite">
        {total === 0 ? `No ${noun}` : `${count.format(first)}–${count.format(last)} of ${of} ${noun}`}
      </span>
      {lastPage > 0 && (
        <div className="d-flex gap-1 flex-wrap">
          <Button variant="outline-secondary" size="sm" disabled={page === 0} onClick={() => go(page - 1)}>
            Previous
          </Button>
          {pageNumbers(page, lastPage, more).map((n, i) =>
            n === 'gap' ? (
              <span key={`gap-${i}`} className="px-1 text-body-secondary" aria-hidden="true">
                …
              </span>
            ) : (
              <Button
                key={n}
                variant={n === page ? 'primary' : 'outline-secondary'}
                size="sm"
                aria-label={`Page ${n + 1}`}
                aria-current={n === page ? 'page' : undefined}
                onClick={() => go(n)}
              >
                {count.format(n + 1)}
              </Button>
            ),
          )}
          <Button variant="outline-secondary" size="sm" disabled={page >= lastPage} onClick={() => go(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </nav>
  );
}

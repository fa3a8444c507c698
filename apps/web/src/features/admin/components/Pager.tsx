import Button from 'react-bootstrap/Button';

const count = new Intl.NumberFormat('en-GB');

/** The page numbers worth a button: the first, the last, and the current one with its neighbours. */
function pageNumbers(page: number, lastPage: number): (number | 'gap')[] {
  const wanted = [...new Set([0, page - 1, page, page + 1, lastPage])]
    .filter((n) => n >= 0 && n <= lastPage)
    .sort((a, b) => a - b);
  return wanted.flatMap((n, i) => (i > 0 && n - wanted[i - 1]! > 1 ? ['gap' as const, n] : [n]));
}

/** "1–50 of 100,000" with Previous, page numbers and Next; a new page is read from the top of the screen. */
export function Pager({
  page,
  pageSize,
  total,
  noun,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  noun: string;
  onPage: (page: number) => void;
}) {
  const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
  const go = (next: number) => {
    onPage(next);
    // The next page starts at the top of the screen, not at the pager where the reader left the last one.
    window.scrollTo({ top: 0 });
  };
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  return (
    <nav className="d-flex align-items-center justify-content-between gap-2 flex-wrap" aria-label={`${noun} pages`}>
      <span className="text-body-secondary small" aria-live="polite">
        {total === 0 ? `No ${noun}` : `${count.format(first)}–${count.format(last)} of ${count.format(total)} ${noun}`}
      </span>
      {lastPage > 0 && (
        <div className="d-flex gap-1 flex-wrap">
          <Button variant="outline-secondary" size="sm" disabled={page === 0} onClick={() => go(page - 1)}>
            Previous
          </Button>
          {pageNumbers(page, lastPage).map((n, i) =>
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

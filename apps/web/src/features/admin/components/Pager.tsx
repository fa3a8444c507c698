import Button from 'react-bootstrap/Button';

const count = new Intl.NumberFormat('en-GB');

/** "1–50 of 100,000" with Previous/Next; what a 100,000-row list needs once search narrows it down. */
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
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  return (
    <nav className="d-flex align-items-center justify-content-between gap-2 flex-wrap" aria-label={`${noun} pages`}>
      <span className="text-body-secondary small" aria-live="polite">
        {total === 0 ? `No ${noun}` : `${count.format(first)}–${count.format(last)} of ${count.format(total)} ${noun}`}
      </span>
      {lastPage > 0 && (
        <div className="d-flex gap-2">
          <Button variant="outline-secondary" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Button variant="outline-secondary" size="sm" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </nav>
  );
}

import Button from 'react-bootstrap/Button';

export const HISTORY_BUTTON = 'History';

/** Shows or hides the invoice's versions above it. */
export function HistoryToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <Button
      variant={open ? 'dark' : 'outline-dark'}
      aria-expanded={open}
      aria-controls="invoice-history"
      onClick={onToggle}
    >
      {HISTORY_BUTTON}
    </Button>
  );
}

import Spinner from 'react-bootstrap/Spinner';

/** Covers the page while a call runs, so nothing is clicked twice. */
export function LoadingOverlay({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div className="loading-overlay" role="status" aria-live="polite" data-testid="loading-overlay">
      <Spinner animation="border" variant="light" />
      <span className="visually-hidden">Loading</span>
    </div>
  );
}

/** A centred spinner for a screen whose code or data is on its way; Bootstrap's markup, no component code. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="centered-message" role="status">
      <div className="spinner-border text-primary" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

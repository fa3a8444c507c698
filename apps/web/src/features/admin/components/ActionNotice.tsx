import type { Notice } from '../hooks/use-action-feedback';

/** The last action's outcome above the list, with a way to dismiss it and, for a new user, to show their row. */
export function ActionNotice({
  notice,
  onShow,
  onDismiss,
}: {
  notice: Notice | null;
  onShow: (email: string) => void;
  onDismiss: () => void;
}) {
  if (!notice) return null;
  const warning = notice.tone === 'warning';
  return (
    <div className={`alert ${warning ? 'alert-warning' : 'alert-success'} action-notice`} role="status">
      <div className="flex-grow-1 min-w-0">
        {notice.text}
        {notice.details && notice.details.length > 0 && (
          <ul className="mb-0 mt-1 ps-3 text-break">
            {notice.details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        )}
      </div>
      {notice.show && (
        <button
          type="button"
          className="btn btn-link btn-sm alert-link notice-action"
          onClick={() => onShow(notice.show!)}
        >
          Show
        </button>
      )}
      <button type="button" className="btn-close notice-close" aria-label="Dismiss" onClick={onDismiss} />
    </div>
  );
}

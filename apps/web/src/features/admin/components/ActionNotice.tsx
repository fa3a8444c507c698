import { useState } from 'react';
import type { Notice } from '../hooks/use-action-feedback';

export const COPY_CODE = 'Copy code';
export const CODE_COPIED = 'Copied';
export const CODE_NOT_COPIED = 'Could not copy: select the code and copy it by hand.';

/** The last action's outcome above the list, with a way to dismiss it and, for a new user, to show their row. */
export function ActionNotice({
  notice,
  onShow,
  onDismiss,
  onCopied = () => {},
}: {
  notice: Notice | null;
  onShow: (email: string) => void;
  onDismiss: () => void;
  onCopied?: () => void;
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
      {notice.code && <CopyCode key={notice.code} code={notice.code} onCopied={onCopied} />}
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

/** Copies the enrollment code; once it is in the clipboard the notice no longer needs to hold on. */
export function CopyCode({
  code,
  onCopied,
  buttonClass = 'btn-outline-success',
}: {
  code: string;
  onCopied: () => void;
  /** The button's Bootstrap colour class, written whole: the notice's green, or a dialog's own. */
  buttonClass?: 'btn-outline-success' | 'btn-outline-primary';
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setState('copied');
      onCopied();
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <button
        type="button"
        className={`btn ${buttonClass} btn-sm notice-action text-nowrap`}
        onClick={() => void copy()}
      >
        {state === 'copied' ? CODE_COPIED : COPY_CODE}
      </button>
      {state === 'failed' && (
        <span className="small" role="alert">
          {CODE_NOT_COPIED}
        </span>
      )}
    </>
  );
}

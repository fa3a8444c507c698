import { useEffect, useEffectEvent, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { ErrorModalProps } from './error-modal-props';

/**
 * The spec's error modal without react-bootstrap, shown by ErrorModal when BootstrapErrorModal's code cannot be
 * downloaded —
 * the network dropped after the page painted, which is also when the spec's "failure with no response" error
 * comes. Bootstrap's modal markup as react-bootstrap renders it, without its transitions: title "Error", the
 * message, "Continue" that closes it; it takes the focus and gives it back, and Escape closes it too.
 */
export function PlainErrorModal({ message, reference, onClose, onExited }: ErrorModalProps) {
  const shown = message !== null;
  const continueButton = useRef<HTMLButtonElement>(null);
  const close = useEffectEvent(onClose);
  const exited = useEffectEvent(() => onExited?.());

  useEffect(() => {
    if (!shown) return;
    const focusedBefore = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    continueButton.current?.focus();
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      if (focusedBefore?.isConnected) focusedBefore.focus();
    };
  }, [shown]);

  // Closed (not unmounted): as react-bootstrap calls it once its modal has faded out.
  const wasShown = useRef(shown);
  useEffect(() => {
    if (shown) wasShown.current = true;
    else if (wasShown.current) {
      wasShown.current = false;
      exited();
    }
  }, [shown]);

  if (!shown) return null;
  return createPortal(
    <>
      <div className="modal-backdrop show" />
      <div
        className="modal show d-block"
        role="dialog"
        aria-modal="true"
        aria-labelledby="error-modal-title"
        tabIndex={-1}
      >
        <div className="modal-dialog modal-dialog-centered">
          <div className="modal-content">
            <div className="modal-header">
              <div className="modal-title h4" id="error-modal-title">
                Error
              </div>
              <button type="button" className="btn-close" aria-label="Close" onClick={onClose} />
            </div>
            <div className="modal-body">{message}</div>
            <div className="modal-footer">
              {reference && (
                <small className="me-auto text-body-secondary" data-testid="error-reference">
                  Reference: <span className="font-monospace user-select-all">{reference}</span>
                </small>
              )}
              <button ref={continueButton} type="button" className="btn btn-primary" onClick={onClose}>
                Continue
              </button>
            </div>
          </div>
        </div>
      </div>
    </>,
    document.body,
  );
}

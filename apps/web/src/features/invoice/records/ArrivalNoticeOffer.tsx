import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { ApiError, useApiClient } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { formatDate } from '@/lib/format-date';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { ARRIVAL_NOTICES_KEY, cancelArrivalNotice, requestArrivalNotice, useArrivalNotices } from './records-api';

export const NOTIFY_BUTTON = 'Tell me when it arrives';

/**
 * For a parcel whose invoice is not (or not yet) here: one mail with the link when it arrives. Shows the
 * person's standing requests, each cancellable. Hidden when the operator configured no mail relay.
 */
export function ArrivalNoticeOffer({ parcelCode }: { parcelCode: string }) {
  const { arrivalNotices } = useRuntimeConfig();
  const api = useApiClient();
  const { uid } = useCurrentUser();
  const queryClient = useQueryClient();
  const notices = useArrivalNotices(arrivalNotices === true);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!arrivalNotices) return null;

  const refresh = () => queryClient.invalidateQueries({ queryKey: [ARRIVAL_NOTICES_KEY, uid] });
  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
      await refresh();
    } catch (error) {
      setFailure(
        error instanceof ApiError && error.serverMessage ? error.serverMessage : 'That did not work. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };

  const mine = notices.data?.find((notice) => notice.parcelCode === parcelCode);
  const others = notices.data?.filter((notice) => notice.parcelCode !== parcelCode) ?? [];

  return (
    <div className="arrival-notice mt-3" aria-live="polite">
      {mine ? (
        <div className="alert alert-success d-flex flex-wrap align-items-center gap-2 mb-0" role="status">
          <p className="mb-0">
            {mine.arrivedAt
              ? `The invoice for ${parcelCode} has arrived: the mail is on its way.`
              : `You will get one e-mail when the invoice for ${parcelCode} arrives (until ${formatDate(mine.expiresAt)}).`}
          </p>
          {!mine.arrivedAt && (
            <Button
              variant="outline-secondary"
              size="sm"
              disabled={busy}
              onClick={() => void act(() => cancelArrivalNotice(api, mine.id))}
            >
              Cancel request
            </Button>
          )}
        </div>
      ) : (
        <Button
          variant="outline-primary"
          disabled={busy || notices.isPending}
          onClick={() => void act(() => requestArrivalNotice(api, parcelCode))}
        >
          {busy && <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />}
          {NOTIFY_BUTTON}
        </Button>
      )}
      {failure && (
        <p className="small text-danger mt-2 mb-0" role="alert">
          {failure}
        </p>
      )}
      {others.length > 0 && (
        <details className="mt-2 small">
          <summary>
            You are waiting for {others.length === 1 ? '1 other invoice' : `${others.length} other invoices`}
          </summary>
          <ul className="list-unstyled mt-2 mb-0">
            {others.map((notice) => (
              <li key={notice.id} className="d-flex flex-wrap align-items-center gap-2 mb-1">
                <span className="font-monospace">{notice.parcelCode}</span>
                <span className="text-body-secondary">until {formatDate(notice.expiresAt)}</span>
                <Button
                  variant="link"
                  size="sm"
                  className="p-0"
                  disabled={busy}
                  onClick={() => void act(() => cancelArrivalNotice(api, notice.id))}
                >
                  Cancel<span className="visually-hidden"> the request for {notice.parcelCode}</span>
                </Button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

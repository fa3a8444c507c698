import type { BulkDeleteResult } from '@portal/contract';
import { useState } from 'react';
import { bulkDeleteUsers } from '../api/bulk-users';
import { bulkDeleteSummary, cleanupPendingDetail, deleteFailure } from '../messages';
import type { ActionFeedback } from './use-action-feedback';
import { useBulkJob } from './use-bulk-job';

const lost = (input: string, message: string): BulkDeleteResult => ({ input, outcome: 'failed', message });

/**
 * Deleting the selected rows: one confirmation naming them, then the bulk call (the server deletes and
 * audits each as the single delete does), then a notice with the count and each address it could not delete.
 */
export function useBulkDelete(feedback: ActionFeedback, onDone: () => void) {
  const job = useBulkJob(bulkDeleteUsers, lost);
  // The addresses stay after the modal closes, so its title does not change while it fades out.
  const [asked, setAsked] = useState({ open: false, emails: [] as string[] });

  const confirm = async () => {
    const { emails } = asked;
    setAsked({ open: false, emails });
    const { results, skipped } = await job.start(emails);
    const count = (outcome: BulkDeleteResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
    const notDeleted = results.filter((result) => result.outcome !== 'deleted');
    // A deletion with a note: the person is gone, their sign-in account is deleted once the provider answers.
    const cleanupPending = results.filter((result) => result.outcome === 'deleted' && result.message);
    feedback.succeed({
      text: bulkDeleteSummary({
        deleted: count('deleted'),
        gone: count('not-found'),
        refused: count('refused'),
        failed: count('failed') + count('invalid'),
        skipped: skipped.length,
      }),
      tone: notDeleted.length + skipped.length > 0 ? 'warning' : 'success',
      details: [
        ...notDeleted.map((result) => deleteFailure(result.input, result.message ?? result.outcome)),
        ...cleanupPending.map((result) => cleanupPendingDetail(result.input)),
      ],
    });
    onDone();
  };

  return {
    asked,
    running: job.state.phase === 'running',
    ask: (emails: string[]) => setAsked({ open: true, emails }),
    cancel: () => setAsked((previous) => ({ ...previous, open: false })),
    confirm: () => void confirm(),
  };
}

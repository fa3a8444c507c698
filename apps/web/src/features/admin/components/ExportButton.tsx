import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useApiClient } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';
import { exportUsers } from '../api/export-users';
import type { UsersQuery } from '../api/get-users-page';
import type { ActionFeedback } from '../hooks/use-action-feedback';
import { statusTextOf } from '../messages';

/** Downloads every user the search and filter match, in the chosen order, as a CSV file. */
export function ExportButton({
  query,
  feedback,
}: {
  query: Pick<UsersQuery, 'search' | 'status' | 'sort'>;
  feedback: ActionFeedback;
}) {
  const api = useApiClient();
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      saveFile(await exportUsers(api, query), `users-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      feedback.fail(statusTextOf(error), error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline-primary" size="sm" disabled={busy} onClick={() => void exportCsv()}>
      Export CSV
    </Button>
  );
}

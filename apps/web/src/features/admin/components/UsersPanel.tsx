import { useIsMutating } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ConfirmModal } from '@/components/ConfirmModal';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { Pager } from '@/components/Pager';
import { SelectionBar } from '@/components/SelectionBar';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { useCurrentUser } from '@/lib/auth';
import { useUsersPage } from '../api/get-users-page';
import { adminKeys } from '../api/query-keys';
import { useActionFeedback } from '../hooks/use-action-feedback';
import { useBulkDelete } from '../hooks/use-bulk-delete';
import { useRowSelection } from '../hooks/use-row-selection';
import { useUserActions } from '../hooks/use-user-actions';
import { useUsersListParams } from '../hooks/use-users-list-params';
import {
  bulkDeleteButton,
  bulkDeleteMessage,
  bulkDeleteTitle,
  noUsersMessage,
  selectedCount,
  statusTextOf,
} from '../messages';
import { ActionNotice } from './ActionNotice';
import { EnrollmentCodeDialog } from './EnrollmentCodeDialog';
import { AddUserModal } from './AddUserModal';
import { BulkAddModal } from './BulkAddModal';
import { ExportButton } from './ExportButton';
import { ListControls } from './ListControls';
import { PendingApprovals } from './PendingApprovals';
import { SearchField } from './SearchField';
import { UsersTable } from './UsersTable';

/** The user list: its state in the address, its data and actions in hooks; this lays them out. */
export function UsersPanel() {
  const { params, usersQuery, listKey, keyOf, update } = useUsersListParams();
  const { email: currentEmail } = useCurrentUser();
  const list = useUsersPage(usersQuery);
  const listFailure = useQueryFailure(list.error, statusTextOf);
  const feedback = useActionFeedback(listKey);
  // Neither one's own row nor one the company directory keeps can be deleted here (UserRow says why).
  const selectable = (list.data?.users ?? [])
    .filter((user) => user.email !== currentEmail && user.managedBy !== 'directory')
    .map((user) => user.email);
  const selection = useRowSelection(listKey, selectable);
  const userActions = useUserActions(feedback);
  const bulkDelete = useBulkDelete(feedback, selection.clear);
  const [addOpen, setAddOpen] = useState(false);
  const [bulkAddOpen, setBulkAddOpen] = useState(false);
  const changing = useIsMutating({ mutationKey: adminKeys.change }) > 0;

  // Deleting the last rows of the last page (or a link to a page that no longer exists) shows the last page.
  const lastPage = list.data ? Math.max(0, Math.ceil(list.data.total / params.pageSize) - 1) : 0;
  const pastTheEnd = list.data !== undefined && !list.isPlaceholderData && params.page > lastPage;
  const movedTo = useRef<string | null>(null);
  useEffect(() => {
    const target = pastTheEnd ? keyOf({ ...params, page: lastPage }) : null;
    // Once per move: the router applies it a render or two later.
    if (target === null || movedTo.current === target) return;
    movedTo.current = target;
    feedback.carryNoticeTo(target);
    update({ page: lastPage }, { replace: true });
  });

  const error =
    feedback.error ??
    (listFailure.message === null ? null : { message: listFailure.message, reference: listFailure.reference });
  const { confirmation } = userActions;
  return (
    <section aria-label="User list" className="users-panel">
      {/* One row on a laptop (search, the list's controls, then the actions), so ten rows show on arrival. */}
      <div className="users-toolbar">
        <SearchField
          search={params.search}
          onSearch={(search) => update({ search }, { replace: true })}
          searching={list.isFetching && !list.isPending}
        />
        <ListControls params={params} onChange={update} />
        <div className="users-toolbar-actions">
          <ExportButton query={usersQuery} feedback={feedback} />
          <Button variant="primary" size="sm" onClick={() => setAddOpen(true)}>
            Add User
          </Button>
          <Button variant="outline-primary" size="sm" onClick={() => setBulkAddOpen(true)}>
            Bulk add
          </Button>
        </div>
      </div>
      <PendingApprovals feedback={feedback} />
      <ActionNotice
        notice={feedback.notice}
        onShow={(email) => update({ search: email })}
        onDismiss={feedback.dismissNotice}
        onCopied={feedback.codeCopied}
      />

      {list.data && (
        <div className="card shadow-sm">
          {/* Above the table rather than in its header, so it stays on a phone where the header is hidden. */}
          <SelectionBar
            className="card-header bg-body gap-sm-3"
            selected={selection.selected.size}
            selectedText={selectedCount(selection.selected.size)}
            selectAll={{
              id: 'admin-users-select-all',
              label: 'Select all on this page',
              // The admin's own row and the directory's cannot be selected.
              selectable: selectable.length,
              onSelectAll: selection.selectAll,
            }}
          >
            <Button
              variant="outline-danger"
              size="sm"
              className="ms-auto"
              disabled={selection.selected.size === 0}
              onClick={() => bulkDelete.ask([...selection.selected])}
            >
              Delete selected
            </Button>
          </SelectionBar>
          <UsersTable
            users={list.data.users}
            currentEmail={currentEmail}
            emptyText={noUsersMessage(params.search)}
            actions={userActions.rowActions}
            selection={{ selected: selection.selected, onToggle: selection.toggle }}
          />
          <div className="card-footer bg-body">
            <Pager
              page={params.page}
              pageSize={params.pageSize}
              total={list.data.total}
              noun="users"
              onPage={(page) => update({ page })}
            />
          </div>
        </div>
      )}

      <AddUserModal show={addOpen} onClose={() => setAddOpen(false)} feedback={feedback} />
      <BulkAddModal show={bulkAddOpen} onClose={() => setBulkAddOpen(false)} feedback={feedback} />
      <ConfirmModal
        show={confirmation.open}
        title={confirmation.title}
        message={confirmation.message}
        yesLabel={confirmation.yesLabel}
        yesVariant={confirmation.yesVariant}
        onNo={userActions.cancel}
        onYes={userActions.confirm}
        onExited={userActions.restoreFocus}
      />
      <EnrollmentCodeDialog
        show={userActions.code.open}
        shown={userActions.code.shown}
        onClose={userActions.code.close}
        onExited={userActions.restoreFocus}
      />
      <ConfirmModal
        show={bulkDelete.asked.open}
        title={bulkDeleteTitle(bulkDelete.asked.emails.length)}
        message={bulkDeleteMessage(bulkDelete.asked.emails)}
        yesLabel={bulkDeleteButton(bulkDelete.asked.emails.length)}
        onNo={bulkDelete.cancel}
        onYes={bulkDelete.confirm}
      />
      <ErrorModal
        message={error?.message ?? null}
        reference={error?.reference}
        onClose={feedback.error ? feedback.dismissError : listFailure.dismiss}
        onExited={feedback.restoreFocus}
      />
      <LoadingOverlay show={changing || bulkDelete.running || list.isPending} />
    </section>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { ConfirmModal } from '@/components/ConfirmModal';
import { ErrorModal } from '@/components/ErrorModal';
import { requestIdOf } from '@/lib/api-client';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useApiClient } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { AddUserError, isForeignAccountRefusal, useAddUser } from '../api/add-user';
import { useDeleteUser } from '../api/delete-user';
import { deleteUsersOneByOne } from '../api/delete-users';
import { useResendInvitation, useSetAdmin } from '../api/change-user';
import { useEndSessions } from '../api/end-sessions';
import { useResetPasskeys } from '../api/passkeys';
import { exportUsers } from '../api/export-users';
import { useUsersPage, type UsersPage, type UsersQuery } from '../api/get-users-page';
import { PAGE_SIZE } from '../api/paging';
import { adminKeys } from '../api/query-keys';
import {
  addedNotice,
  adminNotice,
  bulkDeleteButton,
  bulkDeletedNotice,
  bulkDeleteMessage,
  bulkDeleteTitle,
  deleteFailure,
  confirmDeleteMessage,
  cleanupPendingDetail,
  deletedCleanupPendingNotice,
  deletedNotice,
  END_SESSIONS_BUTTON,
  END_SESSIONS_TITLE,
  endSessionsMessage,
  invitationNotice,
  noUsersMessage,
  passkeysResetNotice,
  RESET_PASSKEYS_BUTTON,
  RESET_PASSKEYS_TITLE,
  resetPasskeysMessage,
  sessionsEndedNotice,
  serverMessageOf,
  statusTextOf,
} from '../messages';
import { AddUserModal } from './AddUserModal';
import { BulkAddModal } from './BulkAddModal';
import { Pager } from './Pager';
import { SelectionBar } from './SelectionBar';
import { UsersTable } from './UsersTable';
import { ListControls, type ListView } from './ListControls';

/** The spec's pause between registering a new user and reloading the list. */
export const RELOAD_AFTER_REGISTER_MS = 1000;
const SEARCH_DEBOUNCE_MS = 300;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The user list with search and paging, and the add, bulk-add and delete flows. */
export function UsersPanel() {
  const queryClient = useQueryClient();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const [view, setView] = useState<ListView>({ sort: 'email', status: undefined, pageSize: PAGE_SIZE });
  // The page belongs to the search and view it was chosen for: a new one starts at its first page.
  const listKey = JSON.stringify([search, view]);
  const [paging, setPaging] = useState({ listKey: JSON.stringify(['', view]), page: 0 });
  const page = paging.listKey === listKey ? paging.page : 0;
  const setPage = (next: number) => setPaging({ listKey, page: next });
  const query: UsersQuery = { search, page, ...view };
  const { email: currentEmail } = useCurrentUser();
  const [notice, setNotice] = useState<{ text: string; show?: string; details?: string[] } | null>(null);
  // Like the page, a selection belongs to the page it was made on: another page starts with none.
  const pageKey = JSON.stringify([listKey, page]);
  const [selection, setSelection] = useState({ pageKey, emails: new Set<string>() });
  const select = (emails: Set<string>) => setSelection({ pageKey, emails });
  // The addresses stay after the modal closes, so its title does not change while it fades out.
  const [bulkDelete, setBulkDelete] = useState({ open: false, emails: [] as string[] });

  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [actionReference, setActionReference] = useState<string | undefined>(undefined);
  const [addOpen, setAddOpen] = useState(false);
  const [takeOverOffer, setTakeOverOffer] = useState<string | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<string | null>(null);
  // A row action that ends something for another person waits here for its confirmation.
  const [pendingRowAction, setPendingRowAction] = useState<{
    kind: 'end-sessions' | 'reset-passkeys';
    email: string;
    open: boolean;
  }>({ kind: 'end-sessions', email: '', open: false });
  // Where focus goes once an action's error is read: the modal that had it closed as the error opened.
  const focusAfterError = useRef<HTMLElement | null>(null);
  const failAction = (message: string, focusTarget: HTMLElement | null, error: unknown) => {
    focusAfterError.current = focusTarget;
    setActionError(message);
    setActionReference(requestIdOf(error));
  };

  const list = useUsersPage(query);
  const setAdminMutation = useSetAdmin();
  const resendMutation = useResendInvitation();
  const addUserMutation = useAddUser();
  const deleteUserMutation = useDeleteUser();
  const endSessionsMutation = useEndSessions();
  const resetPasskeysMutation = useResetPasskeys();
  const listFailure = useQueryFailure(list.error, statusTextOf);
  const selectableEmails = (list.data?.users ?? []).map((user) => user.email).filter((email) => email !== currentEmail);
  // Only rows still on the page count: a row deleted on its own leaves the selection.
  const selected = new Set(
    selection.pageKey === pageKey ? selectableEmails.filter((email) => selection.emails.has(email)) : [],
  );

  /** Reloads the list (and the audit view, which the change extended); answers the current page as reloaded. */
  const reload = async (): Promise<UsersPage | undefined> => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    return queryClient.getQueryData<UsersPage>(adminKeys.usersPage(query));
  };

  const addUser = async (email: string, options: { takeOver: boolean }) => {
    setBusy(true);
    try {
      try {
        await addUserMutation.mutateAsync({ email, takeOver: options.takeOver });
      } catch (error) {
        // The add modal stays open under the error, keeping the typed address to correct or retry.
        // The error modal hands focus back to the add modal's Submit on its own.
        failAction(error instanceof AddUserError ? error.message : statusTextOf(error), null, error);
        // An account the portal did not make: the modal then offers to take it over, for this address only.
        if (isForeignAccountRefusal(error)) setTakeOverOffer(email);
        return;
      }
      await delay(RELOAD_AFTER_REGISTER_MS);
      setAddOpen(false);
      setTakeOverOffer(null);
      await reload();
      setNotice({ text: addedNotice(email), show: email });
    } finally {
      setBusy(false);
    }
  };

  const deleteTrigger = useRef<HTMLButtonElement | null>(null);
  const askToDelete = (email: string, trigger: HTMLButtonElement) => {
    deleteTrigger.current = trigger;
    setPendingDelete(email);
  };

  /** Reloads after deletes; deleting the last rows of the last page would leave an empty page behind. */
  const reloadAfterDelete = async () => {
    const reloaded = await reload();
    if (reloaded && reloaded.users.length === 0 && page > 0) {
      setPage(Math.max(0, Math.ceil(reloaded.total / view.pageSize) - 1));
    }
  };

  const confirmDelete = async () => {
    const email = pendingDelete;
    setPendingDelete(null);
    if (!email) return;
    setBusy(true);
    try {
      const { accountCleanup } = await deleteUserMutation.mutateAsync(email);
      await reloadAfterDelete();
      setNotice({ text: accountCleanup === 'pending' ? deletedCleanupPendingNotice(email) : deletedNotice(email) });
    } catch (error) {
      failAction(serverMessageOf(error), deleteTrigger.current, error);
    } finally {
      setBusy(false);
    }
  };

  const api = useApiClient();
  const confirmBulkDelete = async () => {
    const { emails } = bulkDelete;
    setBulkDelete({ open: false, emails });
    setBusy(true);
    try {
      const { deleted, failed, cleanupPending } = await deleteUsersOneByOne(api, emails);
      select(new Set());
      await reloadAfterDelete();
      setNotice({
        text: bulkDeletedNotice(deleted.length, failed.length),
        details: [
          ...failed.map((failure) => deleteFailure(failure.email, failure.message)),
          ...cleanupPending.map(cleanupPendingDetail),
        ],
      });
    } finally {
      setBusy(false);
    }
  };

  /** Runs a row action under the overlay; its success is told in the notice, its failure in the error modal. */
  const runAction = async (action: () => Promise<unknown>, success: string) => {
    setBusy(true);
    try {
      await action();
      setNotice({ text: success });
    } catch (error) {
      failAction(serverMessageOf(error), null, error);
    } finally {
      setBusy(false);
    }
  };
  const actions = {
    onDelete: askToDelete,
    onSetAdmin: (email: string, admin: boolean) =>
      void runAction(
        async () => {
          await setAdminMutation.mutateAsync({ email, admin });
          await reload();
        },
        adminNotice(email, admin),
      ),
    onResend: (email: string) => void runAction(() => resendMutation.mutateAsync(email), invitationNotice(email)),
    onEndSessions: (email: string) => setPendingRowAction({ kind: 'end-sessions', email, open: true }),
    onResetPasskeys: (email: string) => setPendingRowAction({ kind: 'reset-passkeys', email, open: true }),
  };
  const confirmRowAction = () => {
    const { kind, email } = pendingRowAction;
    setPendingRowAction({ ...pendingRowAction, open: false });
    const mutation = kind === 'end-sessions' ? endSessionsMutation : resetPasskeysMutation;
    const notice = kind === 'end-sessions' ? sessionsEndedNotice(email) : passkeysResetNotice(email);
    // Reloaded for the audit log, which the action extended.
    void runAction(async () => {
      await mutation.mutateAsync(email);
      await reload();
    }, notice);
  };
  const rowActionEnds = pendingRowAction.kind === 'end-sessions';

  const exportCsv = async () => {
    setBusy(true);
    try {
      const file = await exportUsers(api, { search, status: view.status, sort: view.sort });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file);
      link.download = `users-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 0);
    } catch (error) {
      failAction(statusTextOf(error), null, error);
    } finally {
      setBusy(false);
    }
  };

  const errorMessage = actionError ?? listFailure.message;
  const closeError = () => (actionError !== null ? setActionError(null) : listFailure.dismiss());

  return (
    <section aria-label="User list" className="users-panel">
      <div className="d-flex flex-column flex-sm-row gap-2 align-items-sm-end mb-3">
        <Form.Group controlId="admin-users-search" className="flex-grow-1 admin-search">
          <Form.Label className="small mb-1">Search by email</Form.Label>
          <div className="position-relative">
            <Form.Control
              type="search"
              value={searchInput}
              onChange={(event) => setSearchInput(event.target.value)}
              autoComplete="off"
            />
            {list.isFetching && !list.isPending && (
              <Spinner animation="border" size="sm" className="search-spinner" role="status">
                <span className="visually-hidden">Searching</span>
              </Spinner>
            )}
          </div>
        </Form.Group>
        <div className="d-flex gap-2">
          <Button variant="primary" onClick={() => setAddOpen(true)}>
            Add User
          </Button>
          <Button variant="outline-primary" onClick={() => setBulkOpen(true)}>
            Bulk add
          </Button>
        </div>
      </div>

      <div className="d-flex flex-wrap align-items-end justify-content-between gap-2">
        <ListControls view={view} onChange={setView} />
        <Button variant="outline-primary" size="sm" className="mb-3" onClick={() => void exportCsv()}>
          Export CSV
        </Button>
      </div>

      {notice && (
        <div
          className={`alert ${notice.details?.length ? 'alert-warning' : 'alert-success'} d-flex align-items-center gap-2 py-2`}
          role="status"
        >
          <div className="flex-grow-1">
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
              className="btn btn-link btn-sm p-0 alert-link"
              onClick={() => setSearchInput(notice.show!)}
            >
              Show
            </button>
          )}
          <button type="button" className="btn-close" aria-label="Dismiss" onClick={() => setNotice(null)} />
        </div>
      )}

      {list.data && (
        <div className="card shadow-sm">
          <SelectionBar
            selectable={selectableEmails.length}
            selected={selected.size}
            onSelectAll={(all) => select(new Set(all ? selectableEmails : []))}
            onDelete={() => setBulkDelete({ open: true, emails: [...selected] })}
          />
          <UsersTable
            users={list.data.users}
            currentEmail={currentEmail}
            emptyText={noUsersMessage(search)}
            actions={actions}
            selection={{
              selected,
              onToggle: (email, on) => {
                const next = new Set(selected);
                if (on) next.add(email);
                else next.delete(email);
                select(next);
              },
            }}
          />
          <div className="card-footer bg-body">
            <Pager page={page} pageSize={view.pageSize} total={list.data.total} noun="users" onPage={setPage} />
          </div>
        </div>
      )}

      <AddUserModal
        show={addOpen}
        onCancel={() => {
          setAddOpen(false);
          setTakeOverOffer(null);
        }}
        onSubmit={(email, options) => void addUser(email, options)}
        takeOverOffer={takeOverOffer}
      />
      <BulkAddModal show={bulkOpen} onClose={() => setBulkOpen(false)} onChanged={() => void reload()} />
      <ConfirmModal
        message={pendingDelete === null ? null : confirmDeleteMessage(pendingDelete)}
        onNo={() => setPendingDelete(null)}
        onYes={confirmDelete}
      />
      <ConfirmModal
        title={rowActionEnds ? END_SESSIONS_TITLE : RESET_PASSKEYS_TITLE}
        message={
          !pendingRowAction.open
            ? null
            : rowActionEnds
              ? endSessionsMessage(pendingRowAction.email)
              : resetPasskeysMessage(pendingRowAction.email)
        }
        yesLabel={rowActionEnds ? END_SESSIONS_BUTTON : RESET_PASSKEYS_BUTTON}
        onNo={() => setPendingRowAction({ ...pendingRowAction, open: false })}
        onYes={confirmRowAction}
      />
      <ConfirmModal
        title={bulkDeleteTitle(bulkDelete.emails.length)}
        message={bulkDelete.open ? bulkDeleteMessage(bulkDelete.emails) : null}
        yesLabel={bulkDeleteButton(bulkDelete.emails.length)}
        onNo={() => setBulkDelete({ ...bulkDelete, open: false })}
        onYes={() => void confirmBulkDelete()}
      />
      <ErrorModal
        message={errorMessage}
        reference={actionError !== null ? actionReference : listFailure.reference}
        onClose={closeError}
        onExited={() => {
          if (focusAfterError.current?.isConnected) focusAfterError.current.focus();
          focusAfterError.current = null;
        }}
      />
      <LoadingOverlay show={busy || list.isPending} />
    </section>
  );
}

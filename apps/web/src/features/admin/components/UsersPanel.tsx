import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { ConfirmModal } from '@/components/ConfirmModal';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useQueryFailure } from '@/hooks/use-query-failure';
import { AddUserError, useAddUser } from '../api/add-user';
import { useDeleteUser } from '../api/delete-user';
import { useUsersPage, type UsersPage } from '../api/get-users-page';
import { PAGE_SIZE } from '../api/paging';
import { adminKeys } from '../api/query-keys';
import { confirmDeleteMessage, noUsersMessage, serverMessageOf, statusTextOf } from '../messages';
import { AddUserModal } from './AddUserModal';
import { BulkAddModal } from './BulkAddModal';
import { Pager } from './Pager';
import { UsersTable } from './UsersTable';

/** The spec's pause between registering a new user and reloading the list. */
export const RELOAD_AFTER_REGISTER_MS = 1000;
const SEARCH_DEBOUNCE_MS = 300;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The user list with search and paging, and the add, bulk-add and delete flows. */
export function UsersPanel() {
  const queryClient = useQueryClient();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  // The page belongs to the search it was chosen for: a new search starts at its first page.
  const [paging, setPaging] = useState({ search: '', page: 0 });
  const page = paging.search === search ? paging.page : 0;
  const setPage = (next: number) => setPaging({ search, page: next });

  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [addOpen, setAddOpen] = useState(false);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<string | null>(null);
  // Where focus goes once an action's error is read: the modal that had it closed as the error opened.
  const focusAfterError = useRef<HTMLElement | null>(null);
  const failAction = (message: string, focusTarget: HTMLElement | null) => {
    focusAfterError.current = focusTarget;
    setActionError(message);
  };

  const list = useUsersPage({ search, page });
  const addUserMutation = useAddUser();
  const deleteUserMutation = useDeleteUser();
  const listFailure = useQueryFailure(list.error, statusTextOf);

  /** Reloads the list (and the audit view, which the change extended); answers the current page as reloaded. */
  const reload = async (): Promise<UsersPage | undefined> => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    return queryClient.getQueryData<UsersPage>(adminKeys.usersPage(search, page));
  };

  const addUser = async (email: string) => {
    setBusy(true);
    try {
      try {
        await addUserMutation.mutateAsync(email);
      } catch (error) {
        // The add modal stays open under the error, keeping the typed address to correct or retry.
        // The error modal hands focus back to the add modal's Submit on its own.
        failAction(error instanceof AddUserError ? error.message : statusTextOf(error), null);
        return;
      }
      await delay(RELOAD_AFTER_REGISTER_MS);
      setAddOpen(false);
      await reload();
    } finally {
      setBusy(false);
    }
  };

  const deleteTrigger = useRef<HTMLButtonElement | null>(null);
  const askToDelete = (email: string, trigger: HTMLButtonElement) => {
    deleteTrigger.current = trigger;
    setPendingDelete(email);
  };

  const confirmDelete = async () => {
    const email = pendingDelete;
    setPendingDelete(null);
    if (!email) return;
    setBusy(true);
    try {
      await deleteUserMutation.mutateAsync(email);
      const reloaded = await reload();
      // Deleting the last row of the last page would leave an empty page behind.
      if (reloaded && reloaded.users.length === 0 && page > 0) {
        setPage(Math.max(0, Math.ceil(reloaded.total / PAGE_SIZE) - 1));
      }
    } catch (error) {
      failAction(serverMessageOf(error), deleteTrigger.current);
    } finally {
      setBusy(false);
    }
  };

  const errorMessage = actionError ?? listFailure.message;
  const closeError = () => (actionError !== null ? setActionError(null) : listFailure.dismiss());

  return (
    <section aria-label="User list">
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

      {list.data && (
        <div className="card shadow-sm">
          <div className="table-responsive">
            <UsersTable users={list.data.users} emptyText={noUsersMessage(search)} onDelete={askToDelete} />
          </div>
          <div className="card-footer bg-body">
            <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} noun="users" onPage={setPage} />
          </div>
        </div>
      )}

      <AddUserModal show={addOpen} onCancel={() => setAddOpen(false)} onSubmit={addUser} />
      <BulkAddModal show={bulkOpen} onClose={() => setBulkOpen(false)} onChanged={() => void reload()} />
      <ConfirmModal
        message={pendingDelete === null ? null : confirmDeleteMessage(pendingDelete)}
        onNo={() => setPendingDelete(null)}
        onYes={confirmDelete}
      />
      <ErrorModal
        message={errorMessage}
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

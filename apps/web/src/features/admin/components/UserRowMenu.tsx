import type { AllowedUser } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useApiClient } from '@/lib/api-client';
import { usersPageQueryOptions } from '../api/get-users-page';
import {
  DIRECTORY_ROLE_REASON,
  financeChangeButton,
  LAST_ADMIN_ROLE_REASON,
  NEW_ENROLLMENT_CODE_ITEM,
  roleChangeButton,
  rowMenuLabel,
} from '../messages';
import type { UserActions } from './user-row-actions';

/** The administrators, counted (a page of one is enough: its total is the count). */
const ADMINS_QUERY = { search: '', status: 'admin', page: 0, pageSize: 25 } as const;

/**
 * Whether the signed-in admin is the only one, asked when their own row's menu opens (not with every list):
 * undefined until known. Another admin's row never is: the signed-in admin is a second one.
 */
function useOnlyAdmin(asked: boolean): boolean | undefined {
  const api = useApiClient();
  const admins = useQuery({ ...usersPageQueryOptions(api, ADMINS_QUERY), enabled: asked });
  return admins.data === undefined ? undefined : admins.data.total <= 1;
}

/**
 * The row's rarer actions behind one "⋯" button, so a page shows one quiet control per row instead of three.
 * Each entry is one line here: add an action by adding an item.
 */
export function UserRowMenu({ user, own, actions }: { user: AllowedUser; own: boolean; actions: UserActions }) {
  const toggle = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const { email } = user;
  const onlyAdmin = useOnlyAdmin(open && own && user.admin);
  // Until the count is known, "Remove admin" on one's own row waits rather than offer what may be refused.
  const roleLocked = own && user.admin && onlyAdmin !== false;
  const reasonId = `last-admin-${email}`;
  // The company directory keeps this person's roles (groups to roles): the server refuses a change made here.
  const directory = user.managedBy === 'directory';
  const directoryReasonId = `directory-roles-${email}`;
  return (
    <Dropdown align="end" className="row-menu" onToggle={setOpen}>
      <Dropdown.Toggle
        ref={toggle}
        variant="outline-secondary"
        size="sm"
        className="row-menu-toggle"
        aria-label={rowMenuLabel(email)}
      >
        <span aria-hidden="true">⋯</span>
      </Dropdown.Toggle>
      {/*
       * Popper places the menu against its toggle as it opens (absolute, inside the row's cell), and flips it
       * above the toggle when there is no room below. Fixed positioning put the first opening after a page
       * load at the window's top right: the menu showed before Popper had measured.
       */}
      <Dropdown.Menu>
        <Dropdown.Item
          as="button"
          disabled={roleLocked || directory}
          aria-describedby={directory ? directoryReasonId : roleLocked && onlyAdmin ? reasonId : undefined}
          onClick={() => actions.onSetAdmin(email, !user.admin, toggle.current!)}
        >
          {roleChangeButton(!user.admin)}
          {roleLocked && onlyAdmin && (
            <span id={reasonId} className="d-block small row-menu-reason">
              {LAST_ADMIN_ROLE_REASON}
            </span>
          )}
        </Dropdown.Item>
        <Dropdown.Item
          as="button"
          disabled={directory}
          aria-describedby={directory ? directoryReasonId : undefined}
          onClick={() => actions.onSetFinance(email, !user.finance, toggle.current!)}
        >
          {financeChangeButton(!user.finance)}
        </Dropdown.Item>
        {directory && (
          <Dropdown.ItemText id={directoryReasonId} className="small row-menu-reason">
            {DIRECTORY_ROLE_REASON}
          </Dropdown.ItemText>
        )}
        <Dropdown.Item as="button" onClick={() => actions.onEndSessions(email, toggle.current!)}>
          End sessions
        </Dropdown.Item>
        {/* Your own passkeys are not reset here: that would lock you out of this page mid-visit. */}
        {(user.admin || user.finance) && !own && (
          <Dropdown.Item as="button" onClick={() => actions.onResetPasskeys(email, toggle.current!)}>
            Reset passkeys
          </Dropdown.Item>
        )}
        {/* Someone who has not set up a passkey yet: a code again, without signing them out as a reset would. */}
        {(user.admin || user.finance) && !own && user.passkeys?.length === 0 && (
          <Dropdown.Item as="button" onClick={() => actions.onNewEnrollmentCode(email, toggle.current!)}>
            {NEW_ENROLLMENT_CODE_ITEM}
          </Dropdown.Item>
        )}
        {!user.activated && (
          <Dropdown.Item as="button" onClick={() => actions.onResend(email)}>
            Resend invitation
          </Dropdown.Item>
        )}
      </Dropdown.Menu>
    </Dropdown>
  );
}
